/* profile.c - the profile model: interning and merging, so writers see each distinct stack once. */
#define _GNU_SOURCE
#include "render/profile.h"
#include "common/fnv1a.h"

#include <stdlib.h>
#include <string.h>

void profile_init(profile_t *p)
{
    memset(p, 0, sizeof *p);
    p->weight_unit = "nanoseconds";
    p->weight_name = "cpu";
}

void profile_free(profile_t *p)
{
    for (size_t i = 0; i < p->nframes; i++)
        free(p->frames[i]);
    for (size_t i = 0; i < p->nthreads; i++)
        free(p->threads[i].name);
    free(p->frames);
    free(p->frame_index);
    free(p->threads);
    free(p->stacks);
    free(p->stack_index);
    free(p->arena);
    free(p->timeline);
    memset(p, 0, sizeof *p);
}

/* Grows *buf to hold need elements of size each (doubling); 0 or -1. */
static int reserve(void **buf, size_t *cap, size_t need, size_t each)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    void *b = realloc(*buf, n * each);
    if (!b)
        return -1;
    *buf = b, *cap = n;
    return 0;
}

/* Rebuilds an open-addressing index of n entries at twice the size; key(i) hashes entry i. */
static int rehash(uint32_t **index, size_t *cap, size_t n, const profile_t *p,
                  uint64_t (*key)(const profile_t *, size_t))
{
    size_t c = *cap ? *cap * 2 : 1024;
    uint32_t *t = calloc(c, sizeof *t);
    if (!t)
        return -1;
    for (size_t i = 0; i < n; i++) {
        size_t j = key(p, i) & (c - 1);
        while (t[j])
            j = (j + 1) & (c - 1);
        t[j] = (uint32_t)i + 1;
    }
    free(*index);
    *index = t, *cap = c;
    return 0;
}

static uint64_t frame_key(const profile_t *p, size_t i)
{
    return fnv1a(p->frames[i], strlen(p->frames[i]), FNV1A_SEED);
}

uint32_t profile_frame(profile_t *p, const char *name)
{
    if (2 * (p->nframes + 1) > p->frame_index_cap &&
        rehash(&p->frame_index, &p->frame_index_cap, p->nframes, p, frame_key) != 0)
        return UINT32_MAX;
    size_t j = fnv1a(name, strlen(name), FNV1A_SEED) & (p->frame_index_cap - 1);
    for (; p->frame_index[j]; j = (j + 1) & (p->frame_index_cap - 1))
        if (strcmp(p->frames[p->frame_index[j] - 1], name) == 0)
            return p->frame_index[j] - 1;
    char *copy = strdup(name);
    if (!copy || reserve((void **)&p->frames, &p->frames_cap, p->nframes + 1, sizeof *p->frames)) {
        free(copy);
        return UINT32_MAX;
    }
    p->frames[p->nframes] = copy;
    p->frame_index[j] = (uint32_t)++p->nframes;
    return (uint32_t)p->nframes - 1;
}

int profile_thread(profile_t *p, uint64_t tid, const char *name)
{
    for (size_t i = 0; i < p->nthreads; i++)
        if (p->threads[i].tid == tid)
            return (int)i;
    char *copy = strdup(name ? name : "");
    if (!copy || reserve((void **)&p->threads, &p->threads_cap, p->nthreads + 1, sizeof *p->threads)) {
        free(copy);
        return -1;
    }
    p->threads[p->nthreads] = (profile_thread_t){tid, copy};
    return (int)p->nthreads++;
}

static uint64_t stack_hash(uint32_t thread, const uint32_t *f, uint32_t n)
{
    return fnv1a(f, n * sizeof *f, fnv1a(&thread, sizeof thread, FNV1A_SEED));
}

static uint64_t stack_key(const profile_t *p, size_t i)
{
    const profile_stack_t *s = &p->stacks[i];
    return stack_hash(s->thread, s->len ? p->arena + s->off : NULL, s->len); /* NULL arena */
}

/* profile_add that says which stack took the samples: its index, or -1. */
static long add_stack(profile_t *p, int thread, const uint32_t *frames, uint32_t n,
                      uint64_t count, uint64_t weight)
{
    if (thread < 0)
        return -1;
    if (2 * (p->nstacks + 1) > p->stack_index_cap &&
        rehash(&p->stack_index, &p->stack_index_cap, p->nstacks, p, stack_key) != 0)
        return -1;
    size_t j = stack_hash((uint32_t)thread, frames, n) & (p->stack_index_cap - 1);
    for (; p->stack_index[j]; j = (j + 1) & (p->stack_index_cap - 1)) {
        profile_stack_t *s = &p->stacks[p->stack_index[j] - 1];
        if (s->thread == (uint32_t)thread && s->len == n &&
            (n == 0 || memcmp(p->arena + s->off, frames, n * sizeof *frames) == 0)) {
            s->count += count, s->weight += weight;
            return (long)(s - p->stacks);
        }
    }
    if (reserve((void **)&p->arena, &p->arena_cap, p->arena_len + n, sizeof *p->arena) ||
        reserve((void **)&p->stacks, &p->stacks_cap, p->nstacks + 1, sizeof *p->stacks))
        return -1;
    if (n) /* a stack without frames (a drain's "S t c w") leaves the arena NULL */
        memcpy(p->arena + p->arena_len, frames, n * sizeof *frames);
    p->stacks[p->nstacks] = (profile_stack_t){(uint32_t)thread, (uint32_t)p->arena_len, n, count,
                                              weight};
    p->arena_len += n;
    p->stack_index[j] = (uint32_t)++p->nstacks;
    return (long)p->nstacks - 1;
}

int profile_add(profile_t *p, int thread, const uint32_t *frames, uint32_t n, uint64_t count,
                uint64_t weight)
{
    return add_stack(p, thread, frames, n, count, weight) < 0 ? -1 : 0;
}

/* Names to frames, then the stack; its index or -1. */
static long add_named(profile_t *p, uint64_t tid, const char *thread_name,
                      const char *const *names, uint32_t n, uint64_t weight)
{
    uint32_t small[256], *f = n <= 256 ? small : malloc(n * sizeof *f);
    int rc = f ? 0 : -1;
    for (uint32_t i = 0; i < n && !rc; i++)
        rc = (f[i] = profile_frame(p, names[i])) == UINT32_MAX ? -1 : 0;
    long stack = rc ? -1 : add_stack(p, profile_thread(p, tid, thread_name), f, n, 1, weight);
    if (f != small)
        free(f);
    return stack;
}

int profile_add_sample(profile_t *p, uint64_t tid, const char *thread_name,
                       const char *const *names, uint32_t n, uint64_t weight)
{
    return add_named(p, tid, thread_name, names, n, weight) < 0 ? -1 : 0;
}

/* One moment on the timeline; 0 or -1. */
static int add_moment(profile_t *p, long stack, uint64_t t_ns)
{
    if (stack >= 0 && p->untimed)
        return 0;
    if (stack < 0 || reserve((void **)&p->timeline, &p->timeline_cap, p->ntimeline + 1,
                             sizeof *p->timeline))
        return -1;
    p->timeline[p->ntimeline++] = (profile_moment_t){(uint32_t)stack, t_ns};
    return 0;
}

int profile_add_timed(profile_t *p, uint64_t tid, const char *thread_name,
                      const char *const *names, uint32_t n, uint64_t weight, uint64_t t_ns)
{
    return profile_add_timed_index(p, tid, thread_name, names, n, weight, t_ns) < 0 ? -1 : 0;
}

long profile_add_timed_index(profile_t *p, uint64_t tid, const char *thread_name,
                             const char *const *names, uint32_t n, uint64_t weight,
                             uint64_t t_ns)
{
    long stack = add_named(p, tid, thread_name, names, n, weight);
    return add_moment(p, stack, t_ns) ? -1 : stack;
}

int profile_repeat_timed(profile_t *p, uint32_t stack, uint64_t weight, uint64_t t_ns)
{
    if (stack >= p->nstacks)
        return -1;
    p->stacks[stack].count++;
    p->stacks[stack].weight += weight;
    return add_moment(p, stack, t_ns);
}

int profile_repeat_many(profile_t *p, uint32_t stack, uint64_t count, uint64_t weight)
{
    if (stack >= p->nstacks)
        return -1;
    p->stacks[stack].count += count;
    p->stacks[stack].weight += weight;
    return 0;
}

uint64_t profile_total_count(const profile_t *p)
{
    uint64_t t = 0;
    for (size_t i = 0; i < p->nstacks; i++)
        t += p->stacks[i].count;
    return t;
}

uint64_t profile_total_weight(const profile_t *p)
{
    uint64_t t = 0;
    for (size_t i = 0; i < p->nstacks; i++)
        t += p->stacks[i].weight;
    return t;
}

const char *profile_thread_label(const profile_t *p, uint32_t thread, char *buf, size_t cap)
{
    const profile_thread_t *t = &p->threads[thread];
    snprintf(buf, cap, "[thread %s %llu]", t->name[0] ? t->name : "?", (unsigned long long)t->tid);
    return buf;
}
