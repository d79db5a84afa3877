/* profile.h - the in-memory profile every writer renders: frames interned by name, threads,
 * stacks (leaf first) with a sample count and a weight. `clrattach profile` fills it from the
 * sampler's drains; a trace converter fills it from any list of (thread, frame names) samples
 * with profile_add_sample. The writers (writers.h) read it; format.h picks one by name. */
#ifndef CLRA_CLI_RENDER_PROFILE_H
#define CLRA_CLI_RENDER_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct profile_thread {
    uint64_t tid;
    char *name;
} profile_thread_t;

typedef struct profile_stack {
    uint32_t thread, off, len; /* frames at arena[off..off+len), leaf first */
    uint64_t count, weight;
} profile_stack_t;

/* One sample in time, for the writers that draw a timeline (chromium): which stack, when. */
typedef struct profile_moment {
    uint32_t stack; /* index into stacks (which names the thread) */
    uint64_t t_ns;  /* since the profile's start */
} profile_moment_t;

typedef struct profile {
    char **frames; /* interned names */
    size_t nframes, frames_cap;
    uint32_t *frame_index; /* open addressing: frame index + 1, 0 empty */
    size_t frame_index_cap;
    profile_thread_t *threads;
    size_t nthreads, threads_cap;
    profile_stack_t *stacks;
    size_t nstacks, stacks_cap;
    uint32_t *stack_index; /* open addressing: stack index + 1, 0 empty */
    size_t stack_index_cap;
    uint32_t *arena;
    size_t arena_len, arena_cap;
    const char *weight_unit; /* "nanoseconds" (CPU or wall time) */
    const char *weight_name; /* what the weight measures: "cpu" or "wall" */
    const char *title;       /* e.g. "clrattach profile 1234 (cpu, 99 Hz)" */
    uint64_t duration_ns;
    profile_moment_t *timeline; /* the samples in time (profile_add_timed), in any order */
    size_t ntimeline, timeline_cap;
    uint64_t period_ns;         /* the sampling period the timeline's samples stand for */
    int untimed;                /* keep no timeline (no chromium output): 16 bytes a sample */
    uint32_t pid;               /* the profiled process (0 unknown) */
    int folded_weights;         /* folded lines end in the weight, not the sample count (the
                                 * event modes: bytes, nanoseconds waited, throws) */
} profile_t;

void profile_init(profile_t *p);
void profile_free(profile_t *p);
/* A frame's index, interned by name; UINT32_MAX when memory ran out. */
uint32_t profile_frame(profile_t *p, const char *name);
/* A thread's index by OS thread id (the name is taken the first time); -1 out of memory. */
int profile_thread(profile_t *p, uint64_t tid, const char *name);
/* Adds count samples of weight in total to the stack (frames leaf first) of a thread, merging
 * with an equal stack of the same thread. 0 or -1 (out of memory). */
int profile_add(profile_t *p, int thread, const uint32_t *frames, uint32_t n, uint64_t count,
                uint64_t weight);
/* The convenience for decoders: one sample of weight, frame names leaf first. 0 or -1. */
int profile_add_sample(profile_t *p, uint64_t tid, const char *thread_name,
                       const char *const *names, uint32_t n, uint64_t weight);
/* profile_add_sample that also keeps the sample's time t_ns on the timeline. 0 or -1. */
int profile_add_timed(profile_t *p, uint64_t tid, const char *thread_name,
                      const char *const *names, uint32_t n, uint64_t weight, uint64_t t_ns);
/* profile_add_timed giving the stack's index (-1 out of memory), so that a caller whose
 * samples share interned stacks (clra_cpu_samples_t) names each stack once and repeats it with
 * profile_repeat_timed: one more sample of weight on stack, at t_ns. 0 or -1. */
long profile_add_timed_index(profile_t *p, uint64_t tid, const char *thread_name,
                             const char *const *names, uint32_t n, uint64_t weight,
                             uint64_t t_ns);
int profile_repeat_timed(profile_t *p, uint32_t stack, uint64_t weight, uint64_t t_ns);
/* count more samples of total weight on stack, off the timeline (untimed profiles, whose
 * callers merged them before: clra_cpu_samples_weight). 0 or -1. */
int profile_repeat_many(profile_t *p, uint32_t stack, uint64_t count, uint64_t weight);
/* Sums over all stacks. */
uint64_t profile_total_count(const profile_t *p);
uint64_t profile_total_weight(const profile_t *p);

/* The name of the root frame for a thread in the --threads views (caller's buffer). */
const char *profile_thread_label(const profile_t *p, uint32_t thread, char *buf, size_t cap);

#endif
