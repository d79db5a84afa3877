/* timing.c - wrappers that time every callback a profiler provides.
 *
 * The detach estimate must cover the longest callback that may be running when detach is
 * requested, so the SDK measures them all: a wrapper per slot calls the profiler's function
 * between two clock reads. Slots the profiler did not provide keep the do-nothing stubs and
 * cost nothing.
 */
#define _GNU_SOURCE
#include "profiler_internal.h"
#include "common/mono_clock.h"

typedef ICorProfilerCallback11 Cb;

static uint64_t enter(clrprof_profiler_t *p)
{
    __atomic_add_fetch(&p->in_flight, 1, __ATOMIC_RELAXED);
    return mono__ns();
}

/* Folds one callback's duration into the totals; the maximum by compare-and-swap. */
static void leave(clrprof_profiler_t *p, uint64_t started)
{
    uint64_t took = mono__ns() - started;
    uint64_t seen = __atomic_load_n(&p->longest_ns, __ATOMIC_RELAXED);
    while (took > seen && !__atomic_compare_exchange_n(&p->longest_ns, &seen, took, 0,
                                                       __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
    __atomic_add_fetch(&p->calls, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&p->total_ns, took, __ATOMIC_RELAXED);
    __atomic_sub_fetch(&p->in_flight, 1, __ATOMIC_RELAXED);
}

#define TIMED(name, ...)                                                                          \
    clrprof_profiler_t *p = clrprof_of(This);                                                     \
    uint64_t t0 = enter(p);                                                                       \
    HRESULT hr = p->def->callbacks.name(This, __VA_ARGS__);                                       \
    leave(p, t0);                                                                                 \
    return hr;

#define CB0(name)                                                                                 \
    static HRESULT timed_##name(Cb *This)                                                         \
    {                                                                                             \
        clrprof_profiler_t *p = clrprof_of(This);                                                 \
        uint64_t t0 = enter(p);                                                                   \
        HRESULT hr = p->def->callbacks.name(This);                                                \
        leave(p, t0);                                                                             \
        return hr;                                                                                \
    }
#define CB1(name, T1) static HRESULT timed_##name(Cb *This, T1 a1) { TIMED(name, a1) }
#define CB2(name, T1, T2) static HRESULT timed_##name(Cb *This, T1 a1, T2 a2) { TIMED(name, a1, a2) }
#define CB3(name, T1, T2, T3)                                                                     \
    static HRESULT timed_##name(Cb *This, T1 a1, T2 a2, T3 a3) { TIMED(name, a1, a2, a3) }
#define CB4(name, T1, T2, T3, T4)                                                                 \
    static HRESULT timed_##name(Cb *This, T1 a1, T2 a2, T3 a3, T4 a4) { TIMED(name, a1, a2, a3, a4) }
#define CB5(name, T1, T2, T3, T4, T5)                                                             \
    static HRESULT timed_##name(Cb *This, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5)                      \
    {                                                                                             \
        TIMED(name, a1, a2, a3, a4, a5)                                                           \
    }
#define LIFECYCLE0(name)
#define LIFECYCLE1(name, ...)
#define LIFECYCLE3(name, ...)
CB2(JITCachedFunctionSearchStarted, FunctionID, BOOL *)
CB3(JITInlining, FunctionID, FunctionID, BOOL *)
#include "callback_list.h"

static HRESULT timed_EventPipeEventDelivered(Cb *This, EVENTPIPE_PROVIDER provider, DWORD eventId,
                                             DWORD eventVersion, ULONG cbMetadataBlob,
                                             LPCBYTE metadataBlob, ULONG cbEventData,
                                             LPCBYTE eventData, LPCGUID pActivityId,
                                             LPCGUID pRelatedActivityId, ThreadID eventThread,
                                             ULONG numStackFrames, UINT_PTR stackFrames[])
{
    TIMED(EventPipeEventDelivered, provider, eventId, eventVersion, cbMetadataBlob, metadataBlob,
          cbEventData, eventData, pActivityId, pRelatedActivityId, eventThread, numStackFrames,
          stackFrames)
}

void clrprof__install_callbacks(ICorProfilerCallback11Vtbl *vtbl, const ICorProfilerCallback11Vtbl *user)
{
#define SET(name)                                                                                 \
    if (user->name)                                                                               \
        vtbl->name = timed_##name;
#define CB0(name) SET(name)
#define CB1(name, ...) SET(name)
#define CB2(name, ...) SET(name)
#define CB3(name, ...) SET(name)
#define CB4(name, ...) SET(name)
#define CB5(name, ...) SET(name)
#define LIFECYCLE0(name)
#define LIFECYCLE1(name, ...)
#define LIFECYCLE3(name, ...)
#include "callback_list.h"
    SET(JITCachedFunctionSearchStarted)
    SET(JITInlining)
    SET(EventPipeEventDelivered)
#undef SET
}

void clrprof_callback_stats(clrprof_profiler_t *p, clrprof_callback_stats_t *out)
{
    out->calls = __atomic_load_n(&p->calls, __ATOMIC_RELAXED);
    out->total_ns = __atomic_load_n(&p->total_ns, __ATOMIC_RELAXED);
    out->longest_ns = __atomic_load_n(&p->longest_ns, __ATOMIC_RELAXED);
    out->in_flight = __atomic_load_n(&p->in_flight, __ATOMIC_RELAXED);
}

DWORD clrprof_expected_detach_ms(clrprof_profiler_t *p)
{
    uint64_t longest_ms = (__atomic_load_n(&p->longest_ns, __ATOMIC_RELAXED) + 999999) / 1000000;
    uint64_t want = longest_ms + longest_ms / 4 + 1; /* a margin over the longest seen */
    if (want < 300)
        want = 300; /* the runtime never sleeps less, so asking less gains nothing */
    return want > 0x7FFFFFFF ? 0x7FFFFFFF : (DWORD)want;
}
