/* floor_profiler.c - the attach floor: how long the runtime needs for an attach, from inside.
 *
 * The runtime runs the whole attach on its diagnostics thread and replies only after
 * ProfilerAttachComplete returns (docs/profiling-api.md §2.2). This profiler stamps
 * CLOCK_MONOTONIC, the clock bench_client stamps the trigger's call with, at three points: its
 * ELF constructor (dlopen has mapped and relocated it), InitializeForAttach, and the end of
 * ProfilerAttachComplete. It detaches itself (detach_after_ms in the client data) and, once
 * the runtime has detached it, appends "ctor init complete accept dlopen" in ns to
 * $CLRA_BENCH_FLOOR_OUT (the last two from bench/floor_stamps.c when it is preloaded, else 0),
 * so nothing is written while the trigger waits for its reply.
 */
#define _GNU_SOURCE
#include "clrprof/clrprof_profiler.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long stamp_ctor, stamp_init, stamp_complete;

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The first code of ours that runs on dlopen: the floor starts here. */
__attribute__((constructor)) static void floor_loaded(void)
{
    stamp_ctor = now_ns();
}

static HRESULT floor_attach(clrprof_profiler_t *p, const void *data, size_t len)
{
    (void)p, (void)data, (void)len;
    stamp_init = now_ns();
    return S_OK;
}

/* The last thing before the runtime sends its reply. */
static void floor_attached(clrprof_profiler_t *p)
{
    (void)p;
    stamp_complete = now_ns();
}

/* Reported only now, long after the trigger had its answer. */
static void floor_detached(clrprof_profiler_t *p)
{
    (void)p;
    const char *path = getenv("CLRA_BENCH_FLOOR_OUT");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (!f)
        return;
    /* bench/floor_stamps.c, when preloaded into the target: accept and dlopen stamps. */
    const long long *runtime = dlsym(RTLD_DEFAULT, "clra_bench_stamps");
    fprintf(f, "%lld %lld %lld %lld %lld\n", stamp_ctor, stamp_init, stamp_complete,
            runtime ? runtime[0] : 0, runtime ? runtime[1] : 0);
    fclose(f);
}

/* {C1A7B3E4-0F10-4B5E-9A2C-3D4E5F607182} */
static const clrprof_def_t floor_def = {
    .name = "floor",
    .clsid = {0xC1A7B3E4, 0x0F10, 0x4B5E, {0x9A, 0x2C, 0x3D, 0x4E, 0x5F, 0x60, 0x71, 0x82}},
    .attach = floor_attach,
    .attached = floor_attached,
    .detached = floor_detached,
};
CLRPROF_DEFINE(floor_def)
