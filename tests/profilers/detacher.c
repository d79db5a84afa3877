/* detacher.c - a test profiler that drives every detach path of the SDK. Options:
 *   detach_in_attach   request detach inside InitializeForAttach (the runtime must refuse)
 *   detach_twice       request detach twice from a profiler thread (the second must be refused)
 *   rejit              also set COR_PRF_ENABLE_REJIT, which makes detaching impossible
 *   immutable          (startup only) also set COR_PRF_MONITOR_CODE_TRANSITIONS, an immutable flag
 *   slow_ms=N          make each ModuleLoadFinished take N ms, to move the detach estimate
 *   worker             run a profiler thread the SDK must join before detach completes
 */
#define _GNU_SOURCE
#include "clrprof/clrprof_profiler.h"
#include "clrprof/clrprof_util.h"

#include <time.h>

#define EVENTS (COR_PRF_MONITOR_MODULE_LOADS | COR_PRF_MONITOR_THREADS)

static int has(clrprof_profiler_t *p, const char *key)
{
    size_t len;
    const void *data = clrprof_options(p, &len);
    char value[32];
    return clrprof_option(data, len, key, value, sizeof value) == 1;
}

/* Adds flags to the mask the SDK set, logging the runtime's answer. */
static void add_events(clrprof_profiler_t *p, const char *what, DWORD extra)
{
    ICorProfilerInfo5 *info = CLRPROF_INFO(p, 5);
    HRESULT hr = info->lpVtbl->SetEventMask2(info, EVENTS | extra, 0);
    clrprof_log(p, "%s_mask hr=0x%08X", what, (unsigned)hr);
}

static HRESULT detacher_attach(clrprof_profiler_t *p, const void *data, size_t len)
{
    (void)data, (void)len;
    if (has(p, "detach_in_attach"))
        clrprof_log(p, "in_attach hr=0x%08X", (unsigned)clrprof_request_detach(p, "test: in attach"));
    if (has(p, "rejit"))
        add_events(p, "rejit", COR_PRF_ENABLE_REJIT);
    return S_OK;
}

static HRESULT detacher_startup(clrprof_profiler_t *p, const void *data, size_t len)
{
    (void)data, (void)len;
    if (has(p, "immutable"))
        add_events(p, "immutable", COR_PRF_MONITOR_CODE_TRANSITIONS);
    return S_OK;
}

/* A profiler thread that only stops when the SDK says so. */
static void worker(clrprof_profiler_t *p, void *arg)
{
    (void)arg;
    while (!clrprof_sleep(p, 50))
        ;
    clrprof_log(p, "worker stopped");
}

static void twice(clrprof_profiler_t *p, void *arg)
{
    (void)arg;
    HRESULT first = clrprof_request_detach(p, "test: first");
    HRESULT second = clrprof_request_detach(p, "test: second");
    clrprof_log(p, "twice first=0x%08X second=0x%08X", (unsigned)first, (unsigned)second);
}

static void detacher_attached(clrprof_profiler_t *p)
{
    if (has(p, "worker"))
        clrprof_thread_start(p, worker, NULL);
    if (has(p, "detach_twice"))
        clrprof_thread_start(p, twice, NULL);
    clrprof_log(p, "attached");
}

static HRESULT detacher_module_loaded(ICorProfilerCallback11 *This, ModuleID id, HRESULT status)
{
    clrprof_profiler_t *p = clrprof_of(This);
    size_t len;
    unsigned long ms = 0;
    const void *data = clrprof_options(p, &len);
    (void)id, (void)status;
    if (clrprof_option_ulong(data, len, "slow_ms", &ms) == 1)
        nanosleep(&(struct timespec){(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L}, NULL);
    clrprof_log(p, "module_loaded");
    return S_OK;
}

static void detacher_detached(clrprof_profiler_t *p)
{
    clrprof_log(p, "detached");
}

/* {E9A0ADA6-5416-4C4C-B96E-4895E33E99FF} */
static const clrprof_def_t detacher = {
    .name = "detacher",
    .clsid = {0xE9A0ADA6, 0x5416, 0x4C4C, {0xB9, 0x6E, 0x48, 0x95, 0xE3, 0x3E, 0x99, 0xFF}},
    .events = EVENTS,
    .attach = detacher_attach,
    .startup = detacher_startup,
    .attached = detacher_attached,
    .detached = detacher_detached,
    .callbacks = {.ModuleLoadFinished = detacher_module_loaded},
};
CLRPROF_DEFINE(detacher)
