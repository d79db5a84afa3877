/* store.c - the sampler's aggregate in the target: frames interned once (FunctionID -> index,
 * named through metadata), stacks counted in a hash table whose frames live in one arena. The
 * trigger drains it every second or so; a drain sends only what is new and empties the stacks,
 * so memory stays bounded by the busiest interval, not by the profile's length. */
#define _GNU_SOURCE
#include "pages.h"
#include "sampler.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME_MAX_BYTES 2048

typedef struct stack_entry {
    uint64_t hash, count, weight;
    uint32_t thread, off, len, used;
} stack_entry_t;

typedef struct thread_entry {
    DWORD tid;
    char name[64];
} thread_entry_t;

struct sampler_store {
    size_t max_bytes;
    int signatures; /* frames named module!Type.Method(params), as dotnet-stack prints them */
    /* FunctionID -> frame index (open addressing; key 0 is empty: no function has ID 0). */
    FunctionID *fn_keys;
    uint32_t *fn_vals;
    size_t fn_cap, fn_used;
    size_t *names;       /* frame -> offset of its name in text */
    char *text;          /* the names, each NUL-terminated */
    size_t text_len, text_cap;
    size_t nframes, frames_cap, frames_sent;
    thread_entry_t *threads;
    size_t nthreads, threads_cap, threads_sent;
    stack_entry_t *stacks;
    size_t stacks_cap, stacks_used;
    uint32_t *arena;
    size_t arena_len, arena_cap;
    uint64_t dropped;
};

static const char *const fixed_names[FRAME_FIXED] = {"[native]", "[truncated]", "[blocked]",
                                                     "[unknown]"};

/* Room for n more bytes of names; 0 or -1. */
static int text_reserve(sampler_store_t *st, size_t n)
{
    if (st->text_len + n <= st->text_cap)
        return 0;
    size_t cap = st->text_cap ? st->text_cap : 65536;
    while (cap < st->text_len + n)
        cap *= 2;
    char *t = pages_realloc(st->text, st->text_cap, cap);
    if (!t)
        return -1;
    st->text = t, st->text_cap = cap;
    return 0;
}

/* Appends a name to the frame list; its index, or UINT32_MAX when memory ran out. */
static uint32_t add_name(sampler_store_t *st, const char *name)
{
    if (st->nframes == st->frames_cap) {
        size_t cap = st->frames_cap ? st->frames_cap * 2 : 1024;
        size_t *n = pages_realloc(st->names, st->frames_cap * sizeof *n, cap * sizeof *n);
        if (!n)
            return UINT32_MAX;
        st->names = n, st->frames_cap = cap;
    }
    size_t len = strlen(name) + 1;
    if (text_reserve(st, len) != 0)
        return UINT32_MAX;
    char *copy = st->text + st->text_len;
    memcpy(copy, name, len);
    for (char *c = copy; *c; c++)
        if ((unsigned char)*c < 0x20)
            *c = '?'; /* one frame, one line: the drain format is line based */
    st->names[st->nframes] = st->text_len;
    st->text_len += len;
    return (uint32_t)st->nframes++;
}

sampler_store_t *store_new(size_t max_bytes)
{
    sampler_store_t *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->max_bytes = max_bytes;
    st->fn_cap = 4096;
    st->stacks_cap = 4096;
    st->fn_keys = pages_alloc(st->fn_cap * sizeof *st->fn_keys);
    st->fn_vals = pages_alloc(st->fn_cap * sizeof *st->fn_vals);
    st->stacks = pages_alloc(st->stacks_cap * sizeof *st->stacks);
    int ok = st->fn_keys && st->fn_vals && st->stacks;
    for (int i = 0; ok && i < FRAME_FIXED; i++)
        ok = add_name(st, fixed_names[i]) == (uint32_t)i;
    if (!ok) {
        store_free(st);
        return NULL;
    }
    return st;
}

void store_free(sampler_store_t *st)
{
    if (!st)
        return;
    pages_free(st->text, st->text_cap);
    pages_free(st->names, st->frames_cap * sizeof *st->names);
    pages_free(st->fn_keys, st->fn_cap * sizeof *st->fn_keys);
    pages_free(st->fn_vals, st->fn_cap * sizeof *st->fn_vals);
    pages_free(st->threads, st->threads_cap * sizeof *st->threads);
    pages_free(st->stacks, st->stacks_cap * sizeof *st->stacks);
    pages_free(st->arena, st->arena_cap * sizeof *st->arena);
    free(st);
}

static size_t hash_id(FunctionID id)
{
    uint64_t h = (uint64_t)id * 0x9E3779B97F4A7C15ULL;
    return (size_t)(h ^ (h >> 29));
}

/* Doubles the FunctionID table; 0 or -1. */
static int grow_fn(sampler_store_t *st)
{
    size_t cap = st->fn_cap * 2;
    FunctionID *keys = pages_alloc(cap * sizeof *keys);
    uint32_t *vals = pages_alloc(cap * sizeof *vals);
    if (!keys || !vals) {
        pages_free(keys, cap * sizeof *keys), pages_free(vals, cap * sizeof *vals);
        return -1;
    }
    for (size_t i = 0; i < st->fn_cap; i++) {
        if (!st->fn_keys[i])
            continue;
        size_t j = hash_id(st->fn_keys[i]) & (cap - 1);
        while (keys[j])
            j = (j + 1) & (cap - 1);
        keys[j] = st->fn_keys[i], vals[j] = st->fn_vals[i];
    }
    pages_free(st->fn_keys, st->fn_cap * sizeof *keys);
    pages_free(st->fn_vals, st->fn_cap * sizeof *vals);
    st->fn_keys = keys, st->fn_vals = vals, st->fn_cap = cap;
    return 0;
}

uint32_t store_frame(sampler_store_t *st, clrprof_profiler_t *p, FunctionID id)
{
    if (!id)
        return FRAME_NATIVE;
    if (2 * (st->fn_used + 1) > st->fn_cap && grow_fn(st) != 0)
        return FRAME_UNKNOWN;
    size_t j = hash_id(id) & (st->fn_cap - 1);
    while (st->fn_keys[j] && st->fn_keys[j] != id)
        j = (j + 1) & (st->fn_cap - 1);
    if (st->fn_keys[j])
        return st->fn_vals[j];
    char name[NAME_MAX_BYTES];
    HRESULT hr = st->signatures ? sampler_frame_signed_name(p, id, name, sizeof name)
                                : sampler_frame_name(p, id, name, sizeof name);
    uint32_t idx = SUCCEEDED(hr) ? add_name(st, name) : FRAME_UNKNOWN;
    if (idx == UINT32_MAX)
        return FRAME_UNKNOWN;
    st->fn_keys[j] = id, st->fn_vals[j] = idx, st->fn_used++;
    return idx;
}

void store_name_signatures(sampler_store_t *st, int on)
{
    st->signatures = on;
}

uint32_t store_name(sampler_store_t *st, const char *name)
{
    uint32_t idx = add_name(st, name);
    return idx == UINT32_MAX ? FRAME_UNKNOWN : idx;
}

int store_thread(sampler_store_t *st, DWORD tid, const char *name)
{
    if (st->nthreads == st->threads_cap) {
        size_t cap = st->threads_cap ? st->threads_cap * 2 : 64;
        thread_entry_t *t = pages_realloc(st->threads, st->threads_cap * sizeof *t,
                                          cap * sizeof *t);
        if (!t)
            return -1;
        st->threads = t, st->threads_cap = cap;
    }
    thread_entry_t *t = &st->threads[st->nthreads];
    t->tid = tid;
    snprintf(t->name, sizeof t->name, "%s", name);
    for (char *c = t->name; *c; c++)
        if ((unsigned char)*c < 0x20)
            *c = '?';
    return (int)st->nthreads++;
}

static uint64_t hash_stack(int thread, const uint32_t *f, unsigned n)
{
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)(unsigned)thread;
    for (unsigned i = 0; i < n; i++)
        h = (h ^ f[i]) * 1099511628211ULL;
    return h | 1;
}

/* Bytes the stack table and arena would use with extra frames and entries added. */
static size_t footprint(const sampler_store_t *st, size_t frames, size_t cap)
{
    return (st->arena_len + frames) * sizeof(uint32_t) + cap * sizeof(stack_entry_t);
}

/* Doubles the stack table; 0 or -1. */
static int grow_stacks(sampler_store_t *st)
{
    size_t cap = st->stacks_cap * 2;
    if (footprint(st, 0, cap) > st->max_bytes)
        return -1;
    stack_entry_t *t = pages_alloc(cap * sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < st->stacks_cap; i++) {
        if (!st->stacks[i].used)
            continue;
        size_t j = st->stacks[i].hash & (cap - 1);
        while (t[j].used)
            j = (j + 1) & (cap - 1);
        t[j] = st->stacks[i];
    }
    pages_free(st->stacks, st->stacks_cap * sizeof *t);
    st->stacks = t, st->stacks_cap = cap;
    return 0;
}

/* Makes room for n more frames in the arena; 0 or -1. */
static int arena_reserve(sampler_store_t *st, unsigned n)
{
    if (st->arena_len + n <= st->arena_cap)
        return 0;
    size_t cap = st->arena_cap ? st->arena_cap : 65536;
    while (cap < st->arena_len + n)
        cap *= 2;
    if (footprint(st, cap - st->arena_len, st->stacks_cap) > st->max_bytes)
        return -1;
    uint32_t *a = pages_realloc(st->arena, st->arena_cap * sizeof *a, cap * sizeof *a);
    if (!a)
        return -1;
    st->arena = a, st->arena_cap = cap;
    return 0;
}

int store_add(sampler_store_t *st, int thread, const uint32_t *frames, unsigned n,
              uint64_t count, uint64_t weight)
{
    uint64_t h = hash_stack(thread, frames, n);
    if (2 * (st->stacks_used + 1) > st->stacks_cap && grow_stacks(st) != 0) {
        st->dropped += count;
        return -1;
    }
    size_t j = h & (st->stacks_cap - 1);
    for (;; j = (j + 1) & (st->stacks_cap - 1)) {
        stack_entry_t *e = &st->stacks[j];
        if (!e->used)
            break;
        if (e->hash == h && e->thread == (uint32_t)thread && e->len == n &&
            memcmp(st->arena + e->off, frames, n * sizeof *frames) == 0) {
            e->count += count, e->weight += weight;
            return 0;
        }
    }
    if (arena_reserve(st, n) != 0) {
        st->dropped += count;
        return -1;
    }
    memcpy(st->arena + st->arena_len, frames, n * sizeof *frames);
    st->stacks[j] = (stack_entry_t){h, count, weight, (uint32_t)thread, (uint32_t)st->arena_len,
                                    n, 1};
    st->arena_len += n;
    st->stacks_used++;
    return 0;
}

/* A growing text buffer for one drain. */
typedef struct text {
    char *buf;
    size_t len, cap;
    int failed;
} text_t;

static void put(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text_t *t, const char *fmt, ...)
{
    for (int pass = 0; pass < 2 && !t->failed; pass++) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = 1;
            return;
        }
        if ((size_t)n < t->cap - t->len) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = t->cap * 2 > t->len + (size_t)n + 1 ? t->cap * 2 : t->len + (size_t)n + 4096;
        char *b = pages_realloc(t->buf, t->cap, cap);
        if (!b)
            t->failed = 1;
        else
            t->buf = b, t->cap = cap;
    }
}

/* The drain's payload, line by line (src/cli/profile/profile_drain.c, the trigger's parser,
 * reads it):
 *   I key=value ...                  sampler statistics
 *   F INDEX NAME                     a frame first seen since the last drain
 *   T INDEX TID NAME                 a thread first seen since the last drain
 *   S THREAD COUNT WEIGHT F0 F1 ...  a stack (leaf first) and what it gathered since the last drain
 *   D DROPPED                        samples dropped by the memory bound since the last drain */
int store_drain(sampler_store_t *st, int fd, const char *info, store_send_fn send)
{
    text_t t = {pages_alloc(65536), 0, 65536, 0};
    char head[64];
    t.failed = t.buf == NULL;
    put(&t, "I %s\n", info);
    for (size_t i = st->frames_sent; i < st->nframes; i++)
        put(&t, "F %llu %s\n", (unsigned long long)i, st->text + st->names[i]);
    for (size_t i = st->threads_sent; i < st->nthreads; i++)
        put(&t, "T %llu %u %s\n", (unsigned long long)i, (unsigned)st->threads[i].tid,
            st->threads[i].name);
    for (size_t i = 0; i < st->stacks_cap && !t.failed; i++) {
        const stack_entry_t *e = &st->stacks[i];
        if (!e->used)
            continue;
        put(&t, "S %u %llu %llu", e->thread, (unsigned long long)e->count,
            (unsigned long long)e->weight);
        for (uint32_t k = 0; k < e->len; k++)
            put(&t, " %u", st->arena[e->off + k]);
        put(&t, "\n");
    }
    put(&t, "D %llu\n", (unsigned long long)st->dropped);
    if (t.failed) {
        pages_free(t.buf, t.cap);
        const char *err = "error out of memory while draining samples\n";
        return send(fd, err, strlen(err));
    }
    int n = snprintf(head, sizeof head, "ok samples bytes=%zu\n", t.len);
    int rc = send(fd, head, (size_t)n);
    if (rc == 0)
        rc = send(fd, t.buf, t.len);
    pages_free(t.buf, t.cap);
    if (rc == 0) { /* delivered: what was sent is the trigger's now */
        st->frames_sent = st->nframes;
        st->threads_sent = st->nthreads;
        memset(st->stacks, 0, st->stacks_cap * sizeof *st->stacks);
        st->stacks_used = 0;
        st->arena_len = 0;
        st->dropped = 0;
    }
    return rc;
}
