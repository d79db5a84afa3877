/* cpu_samples.c - the CPU samples of a .nettrace file, their frames named.
 *
 * SampleProfiler's ThreadSample events (event 0, no metadata fields) carry the sampled thread
 * in their header and its stack; the methods come from the runtime's MethodLoadVerbose (143)
 * and MethodUnloadVerbose (144) and the rundown's MethodDCStartVerbose (143) and
 * MethodDCEndVerbose (144), whose metadata describes no fields either, so their layout is the
 * runtime manifest's: uint64 MethodID, uint64 ModuleID, uint64 MethodStartAddress, uint32
 * MethodSize, uint32 MethodToken, uint32 MethodFlags, then UTF-16 MethodNamespace, MethodName,
 * MethodSignature. Rundown comes at the end, so samples are kept as addresses and named once
 * the whole file is read. Each distinct stack is kept once and each address named once
 * (cpu_stacks.c): samples share their stack's names, so memory follows what the profile holds.
 * Merged reads (CLRA_CPU_SAMPLES_MERGE) keep one entry per (thread, stack) and its count, for
 * callers that need no timeline: then nothing is kept per sample.
 */
#define _GNU_SOURCE
#include "cpu_stacks.h"
#include "common/method_ranges.h"
#include "proto/nettrace_internal.h"
#include "util/status.h"
#include "util/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SAMPLER "Microsoft-DotNETCore-SampleProfiler"

typedef struct collector {
    method__range_t *methods;
    size_t nmethods, cap_methods;
    clra_cpu_sample_t *samples; /* frame_count holds the interned stack until resolve */
    size_t nsamples, cap_samples;
    unsigned flags;
    uint64_t *weights;          /* CLRA_CPU_SAMPLES_MERGE: samples each entry stands for */
    size_t cap_weights;
    size_t *merged;             /* CLRA_CPU_SAMPLES_MERGE: entry + 1 by (thread, stack), 0 empty */
    size_t cap_merged;
    uint64_t total;             /* samples read, merged ones counted */
    int64_t first_ts, last_ts;
    cpu_stacks_t stacks;
    uint64_t scratch[CLRA_CPU_MAX_FRAMES]; /* one sample's addresses */
    unsigned pointer_size;
    clra_cpu_samples_t *out;
    int oom;
} collector_t;

/* The storage behind a clra_cpu_samples_t (its reserved[0]). */
typedef struct storage {
    method__range_t *methods;
    size_t nmethods;
    const char **frames;    /* the names of the interned stacks' addresses, back to back */
    cpu_hex_names_t hex;   /* names made for addresses no method covers */
    uint64_t *weights;     /* merged lists only: samples each entry stands for */
    uint64_t total;
    int64_t first_ts, last_ts;
} storage_t;

/* A method load, unload or rundown record: its code range and "Namespace.Name". */
static void method_event(collector_t *c, const clra_nettrace_event_t *ev)
{
    clra__ntcur_t cur = {ev->payload, 0, ev->payload_len, 0, NULL, 0};
    clra__nt_u64(&cur, "MethodID");
    clra__nt_u64(&cur, "ModuleID");
    uint64_t start = clra__nt_u64(&cur, "MethodStartAddress");
    uint32_t size = clra__nt_u32(&cur, "MethodSize");
    clra__nt_bytes(&cur, 8, "MethodToken, MethodFlags");
    char *ns = cur.want ? NULL : clra__nt_utf16z(&cur, "MethodNamespace");
    char *name = ns ? clra__nt_utf16z(&cur, "MethodName") : NULL;
    if (ns && name && size && !clra__grow((void **)&c->methods, &c->cap_methods, c->nmethods + 1,
                                               sizeof *c->methods)) {
        method__range_t *m = &c->methods[c->nmethods];
        if (asprintf(&m->name, "%s%s%s", ns, ns[0] ? "." : "", name) >= 0) {
            m->start = start;
            m->size = size;
            c->nmethods++;
        }
    }
    free(ns);
    free(name);
}

static int on_header(void *ctx, const clra_nettrace_header_t *h)
{
    collector_t *c = ctx;
    c->pointer_size = h->pointer_size == 4 ? 4 : 8;
    c->out->qpc_frequency = h->qpc_frequency;
    c->out->sampling_rate_ns = h->sampling_rate_ns;
    return 0;
}

/* One more entry for the sample ev of the interned stack; -1 out of memory. */
static int append(collector_t *c, const clra_nettrace_event_t *ev, size_t stack)
{
    if (clra__grow((void **)&c->samples, &c->cap_samples, c->nsamples + 1, sizeof *c->samples))
        return -1;
    c->samples[c->nsamples++] = (clra_cpu_sample_t){ev->thread_id, ev->timestamp, NULL, stack};
    return 0;
}

/* Where the entry of (tid, stack) is or would go in the merge index (a power of two). */
static size_t merged_slot(const collector_t *c, uint64_t tid, size_t stack)
{
    size_t mask = c->cap_merged - 1;
    uint64_t h = (tid ^ (uint64_t)stack * 0x9E3779B97F4A7C15ULL) * 0xBF58476D1CE4E5B9ULL;
    size_t i = (size_t)(h ^ h >> 31) & mask; /* the product's low bits alone would cluster */
    for (size_t e; (e = c->merged[i]) != 0; i = (i + 1) & mask)
        if (c->samples[e - 1].thread_id == tid && c->samples[e - 1].frame_count == stack)
            break;
    return i;
}

/* Doubles the merge index when half full, so probes stay short; -1 out of memory. */
static int merged_reserve(collector_t *c)
{
    if (2 * (c->nsamples + 1) <= c->cap_merged)
        return 0;
    collector_t g = *c;
    g.cap_merged = c->cap_merged ? 2 * c->cap_merged : 1024;
    if (!(g.merged = calloc(g.cap_merged, sizeof *g.merged)))
        return -1;
    for (size_t e = 0; e < c->nsamples; e++)
        g.merged[merged_slot(&g, c->samples[e].thread_id, c->samples[e].frame_count)] = e + 1;
    free(c->merged);
    c->merged = g.merged;
    c->cap_merged = g.cap_merged;
    return 0;
}

/* The sample ev counted on its (thread, stack) entry, added when new: a profile needs counts
 * per stack, not one entry per sample (26 M samples were 32 bytes each); -1 out of memory. */
static int merge(collector_t *c, const clra_nettrace_event_t *ev, size_t stack)
{
    if (merged_reserve(c))
        return -1;
    size_t i = merged_slot(c, ev->thread_id, stack);
    if (c->merged[i])
        return c->weights[c->merged[i] - 1]++, 0;
    if (clra__grow((void **)&c->weights, &c->cap_weights, c->nsamples + 1, sizeof *c->weights) ||
        append(c, ev, stack))
        return -1;
    c->weights[c->nsamples - 1] = 1;
    c->merged[i] = c->nsamples;
    return 0;
}

static int on_event(void *ctx, const clra_nettrace_event_t *ev)
{
    collector_t *c = ctx;
    const clra_nettrace_metadata_t *m = ev->meta;
    if (!m)
        return 0;
    if ((m->event_id == 143 || m->event_id == 144) &&
        (strcmp(m->provider, "Microsoft-Windows-DotNETRuntime") == 0 ||
         strcmp(m->provider, "Microsoft-Windows-DotNETRuntimeRundown") == 0)) {
        method_event(c, ev);
        return 0;
    }
    if (m->event_id != 0 || strcmp(m->provider, SAMPLER) != 0)
        return 0;
    size_t n = ev->stack ? ev->stack_len / c->pointer_size : 0;
    if (n > CLRA_CPU_MAX_FRAMES)
        n = CLRA_CPU_MAX_FRAMES; /* the leaf-most frames: what was running */
    for (size_t i = 0; i < n; i++) {
        uint64_t ip = 0;
        memcpy(&ip, ev->stack + i * c->pointer_size, c->pointer_size);
        c->scratch[i] = ip;
    }
    long stack = cpu_stacks_add(&c->stacks, c->scratch, n);
    if (c->total++ == 0)
        c->first_ts = ev->timestamp;
    c->last_ts = ev->timestamp;
    if (stack < 0 || (c->flags & CLRA_CPU_SAMPLES_MERGE ? merge(c, ev, (size_t)stack)
                                                        : append(c, ev, (size_t)stack)))
        return c->oom = 1, 1;
    return 0;
}

/* Names every interned frame and builds the caller's list (samples of one stack share its
 * names); -1 out of memory. */
static int resolve(collector_t *c, storage_t *s)
{
    method__sort(c->methods, c->nmethods);
    s->methods = c->methods;
    s->nmethods = c->nmethods;
    c->methods = NULL;
    const cpu_stacks_t *k = &c->stacks;
    s->frames = calloc(k->nips ? k->nips : 1, sizeof *s->frames);
    clra_cpu_samples_t *out = c->out;
    if (!s->frames)
        return -1;
    for (size_t i = 0; i < k->nips; i++) {
        const method__range_t *m = method__covering(s->methods, s->nmethods, k->ips[i]);
        s->frames[i] = m ? m->name : cpu_hex_name(&s->hex, k->ips[i]);
        if (!s->frames[i])
            return -1;
    }
    for (size_t i = 0; i < c->nsamples; i++) { /* in place: one array of samples at a time */
        const cpu_stack_t *st = &k->stacks[c->samples[i].frame_count];
        c->samples[i].frames = s->frames + st->first;
        c->samples[i].frame_count = st->count;
    }
    if (!c->samples && !(c->samples = calloc(1, sizeof *c->samples)))
        return -1; /* callers may index an empty list's base */
    out->samples = c->samples;
    out->count = c->nsamples;
    c->samples = NULL;
    out->methods = s->nmethods;
    s->weights = c->weights;
    c->weights = NULL;
    s->total = c->total;
    s->first_ts = c->first_ts;
    s->last_ts = c->last_ts;
    return 0;
}

/* Where the trace comes from: a file, or bytes in memory (path NULL). */
typedef struct source {
    const char *path;
    const void *data;
    size_t len;
} source_t;

/* Decodes the source into c's collections; the decode's return code. */
static int decode(const source_t *src, collector_t *c, clra_nettrace_info_t *info,
                  clra_status_t *st)
{
    clra_nettrace_callbacks_t cb = {0};
    cb.header = on_header;
    cb.event = on_event;
    if (src->path)
        return clra_nettrace_decode_file(src->path, &cb, c, info, st);
    clra_nettrace_decoder_t *d;
    int rc = clra_nettrace_decoder_new(&cb, c, &d);
    if (rc)
        return rc;
    rc = clra_nettrace_decoder_feed(d, src->data, src->len, st);
    clra_nettrace_info_t local;
    int end = clra_nettrace_decoder_end(d, info ? info : &local, rc ? NULL : st);
    clra_nettrace_decoder_free(d);
    return rc == CLRA_EPROTO || !rc ? end : rc;
}

/* Reads the samples of src into out (the two public entries share it). */
static int read_samples(const source_t *src, unsigned flags, clra_cpu_samples_t *out,
                        clra_nettrace_info_t *info, clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (!out)
        return CLRA_EINVAL;
    memset(out, 0, sizeof *out); /* freeable whatever is returned */
    if (flags & ~CLRA_CPU_SAMPLES_MERGE)
        return CLRA_EINVAL;
    storage_t *s = calloc(1, sizeof *s);
    collector_t *c = calloc(1, sizeof *c);
    if (!s || !c)
        return free(s), free(c), CLRA_ENOMEM;
    out->reserved[0] = s;
    c->pointer_size = 8;
    c->flags = flags;
    c->out = out;
    int rc = decode(src, c, info, st);
    if (c->oom)
        rc = CLRA_ENOMEM;
    if ((rc == 0 || rc == CLRA_EPROTO) && resolve(c, s) != 0)
        rc = CLRA_ENOMEM;
    for (size_t i = 0; c->methods && i < c->nmethods; i++)
        free(c->methods[i].name);
    free(c->methods);
    free(c->samples);
    free(c->weights);
    free(c->merged);
    cpu_stacks_free(&c->stacks);
    free(c);
    return rc;
}

int clra_cpu_samples_read_file(const char *path, clra_cpu_samples_t *out,
                               clra_nettrace_info_t *info, clra_status_t *st)
{
    return clra_cpu_samples_read_file2(path, 0, out, info, st);
}

int clra_cpu_samples_read_file2(const char *path, unsigned flags, clra_cpu_samples_t *out,
                                clra_nettrace_info_t *info, clra_status_t *st)
{
    source_t src = {path, NULL, 0};
    if (!path)
        return CLRA_EINVAL;
    return read_samples(&src, flags, out, info, st);
}

int clra__cpu_samples_read_buffer(const void *data, size_t len, clra_cpu_samples_t *out,
                                  clra_nettrace_info_t *info, clra_status_t *st)
{
    source_t src = {NULL, data, len};
    if (!data && len)
        return CLRA_EINVAL;
    return read_samples(&src, 0, out, info, st);
}

void clra_cpu_samples_free(clra_cpu_samples_t *out)
{
    if (!out)
        return;
    storage_t *s = out->reserved[0];
    if (s) {
        for (size_t i = 0; i < s->nmethods; i++)
            free(s->methods[i].name);
        cpu_hex_names_free(&s->hex);
        free(s->methods);
        free(s->frames);
        free(s->weights);
        free(s);
    }
    free(out->samples);
    memset(out, 0, sizeof *out);
}

uint64_t clra_cpu_samples_weight(const clra_cpu_samples_t *s, size_t i)
{
    const storage_t *st = s ? s->reserved[0] : NULL;
    if (!s || i >= s->count)
        return 0;
    return st && st->weights ? st->weights[i] : 1;
}

uint64_t clra_cpu_samples_span(const clra_cpu_samples_t *s, int64_t *first, int64_t *last)
{
    const storage_t *st = s ? s->reserved[0] : NULL;
    if (first)
        *first = st ? st->first_ts : 0;
    if (last)
        *last = st ? st->last_ts : 0;
    return st ? st->total : 0;
}
