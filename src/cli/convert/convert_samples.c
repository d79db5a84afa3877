/* convert_samples.c - convert's profile formats: a trace's CPU samples (the runtime's
 * SampleProfiler) go into the same model and writers as `clrattach profile`, so a trace and a
 * live profile give the same kinds of files. */
#define _GNU_SOURCE
#include "base/cli.h"
#include "convert/convert.h"
#include "base/output_file.h"
#include "render/format.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* A timestamp as nanoseconds after t0. */
static uint64_t since_ns(int64_t t, int64_t t0, int64_t frequency)
{
    uint64_t ticks = (uint64_t)t - (uint64_t)t0; /* unsigned: a trace's times may be anything */
    return t > t0 && frequency > 0 ? (uint64_t)((double)ticks * 1e9 / (double)frequency) : 0;
}

/* The profile stack of each (thread, interned frame list) already added: samples of one
 * stack share their frame list (clra_cpu_samples_t), so each is named once, not per sample. */
typedef struct known {
    const char *const *frames;
    uint64_t tid;
    uint32_t stack;
} known_t;

typedef struct known_set {
    known_t *slots; /* open addressing; frames NULL is empty */
    size_t n, cap;
} known_set_t;

/* Where (frames, tid) is or would go: the list's address identifies the interned stack. */
static size_t known_slot(const known_set_t *k, const char *const *frames, uint64_t tid)
{
    size_t i = (size_t)(((uintptr_t)frames >> 3 ^ tid) * 0x9E3779B97F4A7C15ULL) & (k->cap - 1);
    while (k->slots[i].frames && (k->slots[i].frames != frames || k->slots[i].tid != tid))
        i = (i + 1) & (k->cap - 1);
    return i;
}

/* Remembers stack for (frames, tid); -1 out of memory. */
static int known_add(known_set_t *k, const char *const *frames, uint64_t tid, long stack)
{
    if (2 * (k->n + 1) > k->cap) {
        known_set_t g = {calloc(k->cap ? 2 * k->cap : 1024, sizeof *g.slots), k->n,
                         k->cap ? 2 * k->cap : 1024};
        if (!g.slots)
            return -1;
        for (size_t i = 0; i < k->cap; i++)
            if (k->slots[i].frames)
                g.slots[known_slot(&g, k->slots[i].frames, k->slots[i].tid)] = k->slots[i];
        free(k->slots);
        *k = g;
    }
    k->slots[known_slot(k, frames, tid)] = (known_t){frames, tid, (uint32_t)stack};
    k->n++;
    return 0;
}

/* One entry standing for count samples of weight each (count > 1 only in merged lists, which
 * have no timeline): its stack repeated when known, named and added otherwise; 0 or -1. */
static int add_one(profile_t *p, known_set_t *k, const clra_cpu_sample_t *x, uint64_t count,
                   uint64_t weight, uint64_t t_ns)
{
    const known_t *was = k->cap ? &k->slots[known_slot(k, x->frames, x->thread_id)] : NULL;
    long stack = was && was->frames ? (long)was->stack : -1;
    if (stack >= 0 && profile_repeat_timed(p, (uint32_t)stack, weight, t_ns))
        return -1;
    if (stack < 0) {
        stack = profile_add_timed_index(p, x->thread_id, NULL, x->frames,
                                        (uint32_t)x->frame_count, weight, t_ns);
        if (stack < 0 || known_add(k, x->frames, x->thread_id, stack))
            return -1;
    }
    return count > 1 ? profile_repeat_many(p, (uint32_t)stack, count - 1, (count - 1) * weight)
                     : 0;
}

/* Each SampleProfiler sample stands for one sampling period of its thread's time; its time
 * goes on the timeline (the chromium writer's). */
static int fill(profile_t *p, const clra_cpu_samples_t *s, uint64_t *empty)
{
    uint64_t period = s->sampling_rate_ns ? s->sampling_rate_ns : 1000000;
    int64_t t0 = 0;
    known_set_t known = {NULL, 0, 0};
    for (size_t i = 0; i < s->count; i++)
        if (s->samples[i].frame_count && (!t0 || s->samples[i].timestamp < t0))
            t0 = s->samples[i].timestamp;
    p->period_ns = period;
    int rc = 0;
    for (size_t i = 0; i < s->count && !rc; i++) {
        const clra_cpu_sample_t *x = &s->samples[i];
        uint64_t count = clra_cpu_samples_weight(s, i);
        if (x->frame_count == 0) {
            *empty += count;
            continue;
        }
        rc = add_one(p, &known, x, count, period, since_ns(x->timestamp, t0, s->qpc_frequency));
    }
    free(known.slots);
    int64_t first, last;
    if (clra_cpu_samples_span(s, &first, &last) > 1 && s->qpc_frequency > 0)
        p->duration_ns = since_ns(last, first, s->qpc_frequency);
    return rc;
}

/* Writes the profile to output (stdout when NULL; flag names the option that chose it); 0, or
 * EXIT_INTERNAL after saying why. */
static int write_profile(const profile_t *p, int fmt, const char *output, const char *flag,
                         const char *who)
{
    profile_write_opts_t o = {0};
    FILE *f = output ? out_file_fopen(output, flag, who) : stdout;
    if (!f)
        return EXIT_INTERNAL;
    int bad = profile_write(p, &o, fmt, f) != 0;
    bad |= fflush(f) != 0 || ferror(f);
    if (f != stdout)
        bad |= fclose(f) != 0;
    if (bad) {
        fprintf(stderr, "%s: writing %s failed\n", who, output ? cli_vis(output) : "stdout");
        return EXIT_INTERNAL;
    }
    return 0;
}

void convert_say_failure(const char *who, const char *input, int rc, const clra_status_t *st)
{
    if (rc == CLRA_ENOMEM)
        fprintf(stderr, "%s: out of memory while converting %s\n  what to do: "
                "convert a smaller trace (record it with --duration or --max-size) or give "
                "this process more memory (ulimit -v)\n", who, cli_vis(input));
    else
        fprintf(stderr, "%s: %s\n", who, st->detail[0] ? cli_vis(st->detail) : clra_strerror(rc));
}

/* Only the header is wanted: stopping here ends the read after the first piece. */
static int header_pid(void *ctx, const clra_nettrace_header_t *h)
{
    *(uint32_t *)ctx = h->pid;
    return 1;
}

/* The traced process's id from the trace header (0 when unreadable), for the chromium format. */
static uint32_t trace_pid(const char *input)
{
    uint32_t pid = 0;
    clra_nettrace_callbacks_t cb = {0};
    clra_nettrace_info_t info;
    clra_status_t st;
    cb.header = header_pid;
    clra_nettrace_decode_file(input, &cb, &pid, &info, &st);
    return pid;
}

/* 1 when a format draws the timeline (chromium): it needs one entry per sample, in time; the
 * others need only each stack's counts, so their samples are merged as they are read. */
static int wants_timeline(const int *fmts, int n)
{
    for (int i = 0; i < n; i++)
        if (fmts[i] == FMT_CHROMIUM)
            return 1;
    return 0;
}

int convert_samples_each(const char *input, const int *fmts, const char *const *outputs,
                         int *codes, int n, const char *flag, const char *who)
{
    clra_cpu_samples_t s;
    clra_nettrace_info_t info;
    clra_status_t st;
    int timed = wants_timeline(fmts, n);
    int rc = clra_cpu_samples_read_file2(input, timed ? 0 : CLRA_CPU_SAMPLES_MERGE, &s, &info,
                                         &st), first = 0, written = 0;
    const char *why = NULL;
    if (rc && rc != CLRA_EPROTO)
        convert_say_failure(who, input, rc, &st), why = rc == CLRA_ENOMEM ? "memory" : "unreadable";
    else if (s.count == 0 && !rc)
        fprintf(stderr, "%s: %s has no CPU samples; record them with 'clrattach "
                "trace --profile dotnet-sampled-thread-time' (the "
                "Microsoft-DotNETCore-SampleProfiler provider)\n", who, cli_vis(input)),
            why = "empty";
    profile_t p;
    profile_init(&p);
    char title[160];
    snprintf(title, sizeof title, "clrattach convert %.120s", input);
    p.title = title;
    p.weight_name = "wall"; /* SampleProfiler samples managed threads by time, not by CPU */
    p.untimed = !timed; /* only chromium draws the timeline: without it, no 16 bytes a sample */
    uint64_t empty = 0;
    if (!why && fill(&p, &s, &empty))
        convert_say_failure(who, input, CLRA_ENOMEM, &st), why = "memory";
    for (int i = 0; i < n; i++) {
        if (fmts[i] == FMT_CHROMIUM && !p.pid && !why)
            p.pid = trace_pid(input);
        codes[i] = !why ? write_profile(&p, fmts[i], outputs[i], flag, who)
                   : strcmp(why, "memory") == 0 ? EXIT_INTERNAL : EXIT_USAGE;
        if (!codes[i] && rc == CLRA_EPROTO)
            codes[i] = EXIT_CONNECTION;
        first = first ? first : codes[i];
        written |= codes[i] == 0 || codes[i] == EXIT_CONNECTION;
    }
    if (written && rc == CLRA_EPROTO)
        fprintf(stderr, "%s: %s is %s: %s (the samples before it are written)\n", who,
                cli_vis(input), info.state == CLRA_NETTRACE_INCOMPLETE ? "truncated" : "corrupt",
                cli_vis(st.detail));
    if (written && empty)
        fprintf(stderr, "%s: %" PRIu64 " of %" PRIu64 " samples had no stack and were left out\n",
                who, empty, clra_cpu_samples_span(&s, NULL, NULL));
    profile_free(&p);
    clra_cpu_samples_free(&s);
    return first;
}

int convert_samples(const char *input, int fmt, const char *output, const char *who)
{
    int code;
    convert_samples_each(input, &fmt, &output, &code, 1, "--output", who);
    return code;
}
