/* sampler.h - the sampling profiler's shared state: options, the threads it knows, and the
 * aggregate of samples (interned frames, stack -> count and weight) the trigger drains.
 *
 * Mechanism (docs/profiling.md): one profiler thread ticks at hz; each tick it may stop the
 * runtime (ICorProfilerInfo10::SuspendRuntime), walk the chosen managed threads with
 * DoStackSnapshot, and resume. In cpu mode a tick first reads every known thread's CPU clock and
 * walks only threads that ran since the last tick (weighted by the CPU they used); a tick in
 * which no managed thread ran does not stop the runtime at all.
 */
#ifndef SAMPLER_H
#define SAMPLER_H

#include "clrprof/clrprof.h"

#include <pthread.h>
#include <stdint.h>

enum sampler_mode { MODE_CPU, MODE_WALL, MODE_STACK };
/* walk: suspend the runtime each tick and DoStackSnapshot (safe points only); signal: a CPU
 * timer signal per thread and a frame-pointer walk where the thread is (signal_sampler.h). */
enum sampler_method { METHOD_WALK, METHOD_SIGNAL };

/* Frames with a fixed index: markers the walk produces itself. */
enum {
    FRAME_NATIVE = 0,    /* a run of native frames (runtime, libc, P/Invoke targets) */
    FRAME_TRUNCATED = 1, /* the stack was deeper than max_frames; the root side is cut */
    FRAME_BLOCKED = 2,   /* wall mode: the thread used no CPU since the last tick */
    FRAME_UNKNOWN = 3,   /* a managed function whose metadata could not be read */
    FRAME_FIXED = 4
};

/* method=signal refused: every real-time signal a sampler could take is handled already
 * (HRESULT_FROM_WIN32(ERROR_SIGNAL_REFUSED); the trigger names it). */
#define SAMPLER_E_NO_SIGNAL ((HRESULT)0x8007009CL)

#define SAMPLER_MAX_THREADS 1024
#define SAMPLER_MAX_DEPTH_LIMIT 8192

typedef struct sampler_thread {
    ThreadID id;
    DWORD tid;
    uint64_t last_cpu_ns;
    int64_t delta_ns; /* CPU used since the last tick, -1 unknown (new or gone) */
    int index;        /* in the store's thread list */
    int seen;         /* found by the last enumeration */
} sampler_thread_t;

/* One thread's walk during a suspension: raw FunctionIDs, leaf first. */
typedef struct sampler_walk {
    FunctionID *ids;
    unsigned len, cap;
    int cut;
    HRESULT hr; /* DoStackSnapshot's answer */
} sampler_walk_t;

typedef struct sampler_store sampler_store_t;
struct sig_sampler;

typedef struct sampler {
    clrprof_profiler_t *p;
    int mode, method;
    int auto_method;      /* method=auto: signal, falling back to walk when it is refused */
    const char *fallback; /* why method=auto samples by walk (a token), NULL when it does not */
    struct sig_sampler *sig; /* method=signal's state */
    unsigned hz, max_depth;
    int threads_changed; /* ThreadCreated/Destroyed since the last enumeration (atomic) */
    int detaching;       /* a detach is under way or accepted: no more ticks (under gate) */
    sampler_thread_t threads[SAMPLER_MAX_THREADS];
    int nthreads;
    FunctionID *walk_ids;    /* SAMPLER_MAX_THREADS walks of max_depth, reused every tick */
    sampler_walk_t *walks;
    pthread_mutex_t lock; /* the store, ticks and suspend statistics */
    pthread_mutex_t gate; /* held for a whole tick: a detach waits for it, see before_detach */
    sampler_store_t *store;
    uint64_t ticks, suspensions, suspend_ns, longest_suspend_ns, walk_failures;
    int snapshot_done;
    unsigned long startup_hold_ms; /* startup: detach unless drained within this (0: never) */
    uint64_t started_ns;
    int drained;                   /* a trigger asked for samples (atomic) */
    char final_path[512]; /* startup: where Shutdown writes the last samples ("" none) */
    HRESULT last_error;
    HRESULT resume_error; /* a failed ResumeRuntime: the runtime may be left stopped */
} sampler_t;

/* One tick: reads CPU clocks, maybe suspends and walks, records the samples. */
void sampler_tick(sampler_t *s);

/* Writes a FunctionID's name: Namespace.Type.Method, nested types Outer+Inner, generic
 * arguments in [] where the runtime knows them (frame_names.c). */
HRESULT sampler_frame_name(clrprof_profiler_t *p, FunctionID id, char *out, size_t cap);
/* The same as module!name(params), dotnet-stack's spelling: "hot!ClrAttach.Hot.Work.Burn(float64)". */
HRESULT sampler_frame_signed_name(clrprof_profiler_t *p, FunctionID id, char *out, size_t cap);

/* The store: frames interned by FunctionID, threads, stacks aggregated, bounded in memory. */
sampler_store_t *store_new(size_t max_bytes);
/* Names frames as sampler_frame_signed_name does from now on (the `signatures` option). */
void store_name_signatures(sampler_store_t *st, int on);
void store_free(sampler_store_t *st);
/* The frame index for a FunctionID, naming it through the metadata the first time. */
uint32_t store_frame(sampler_store_t *st, clrprof_profiler_t *p, FunctionID id);
/* A new frame with a name of its own (a native symbol); FRAME_UNKNOWN when memory ran out. */
uint32_t store_name(sampler_store_t *st, const char *name);
/* A thread's index, with its OS id and name, added the first time. */
int store_thread(sampler_store_t *st, DWORD tid, const char *name);
/* Adds one sample (frames leaf first); 0, or -1 when the memory bound dropped it. */
int store_add(sampler_store_t *st, int thread, const uint32_t *frames, unsigned n,
              uint64_t count, uint64_t weight);
/* Writes what is new since the last drain (frames, threads, stacks) to fd with send (the
 * control socket's clrprof_control_send, or a file writer), then forgets the stacks; info is
 * one line of sampler statistics. 0 or -1 when the peer went away. */
typedef int (*store_send_fn)(int fd, const void *data, size_t len);
int store_drain(sampler_store_t *st, int fd, const char *info, store_send_fn send);

#endif
