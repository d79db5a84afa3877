/* callback_defaults.c - do-nothing implementations of every ICorProfilerCallback11 method.
 *
 * The runtime may call any slot up to the highest callback level a profiler admits to in
 * QueryInterface, whatever its event mask says (attach and detach callbacks, Shutdown, ...),
 * so a NULL slot is a crash waiting to happen. Each stub below has exactly the type of its
 * slot: the assignments in clrprof_fill_default_callbacks() compile without casts, so a
 * signature that drifts from the header is a build error, not a corrupted call.
 */
#include "clrprof/clrprof.h"

#include <stddef.h>

typedef ICorProfilerCallback11 Cb;

/* Stubs by arity: each ignores This and its arguments and reports success. Array
 * parameters are spelled as pointers, which is the type they adjust to. */
#define STUB0(name)                                                                               \
    static HRESULT stub_##name(Cb *This)                                                          \
    {                                                                                             \
        (void)This;                                                                               \
        return S_OK;                                                                              \
    }
#define STUB1(name, T1)                                                                           \
    static HRESULT stub_##name(Cb *This, T1 a1)                                                   \
    {                                                                                             \
        (void)This, (void)a1;                                                                     \
        return S_OK;                                                                              \
    }
#define STUB2(name, T1, T2)                                                                       \
    static HRESULT stub_##name(Cb *This, T1 a1, T2 a2)                                            \
    {                                                                                             \
        (void)This, (void)a1, (void)a2;                                                           \
        return S_OK;                                                                              \
    }
#define STUB3(name, T1, T2, T3)                                                                   \
    static HRESULT stub_##name(Cb *This, T1 a1, T2 a2, T3 a3)                                     \
    {                                                                                             \
        (void)This, (void)a1, (void)a2, (void)a3;                                                 \
        return S_OK;                                                                              \
    }
#define STUB4(name, T1, T2, T3, T4)                                                               \
    static HRESULT stub_##name(Cb *This, T1 a1, T2 a2, T3 a3, T4 a4)                              \
    {                                                                                             \
        (void)This, (void)a1, (void)a2, (void)a3, (void)a4;                                       \
        return S_OK;                                                                              \
    }
#define STUB5(name, T1, T2, T3, T4, T5)                                                           \
    static HRESULT stub_##name(Cb *This, T1 a1, T2 a2, T3 a3, T4 a4, T5 a5)                       \
    {                                                                                             \
        (void)This, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5;                             \
        return S_OK;                                                                              \
    }

#define CB0 STUB0
#define CB1 STUB1
#define CB2 STUB2
#define CB3 STUB3
#define CB4 STUB4
#define CB5 STUB5
#define LIFECYCLE0 STUB0
#define LIFECYCLE1 STUB1
#define LIFECYCLE3 STUB3
#include "callback_list.h"

/* The one twelve-argument callback; too wide for the STUBn macros. */
static HRESULT stub_EventPipeEventDelivered(Cb *This, EVENTPIPE_PROVIDER provider,
                                            DWORD eventId, DWORD eventVersion,
                                            ULONG cbMetadataBlob, LPCBYTE metadataBlob,
                                            ULONG cbEventData, LPCBYTE eventData,
                                            LPCGUID pActivityId, LPCGUID pRelatedActivityId,
                                            ThreadID eventThread, ULONG numStackFrames,
                                            UINT_PTR stackFrames[])
{
    (void)This, (void)provider, (void)eventId, (void)eventVersion, (void)cbMetadataBlob;
    (void)metadataBlob, (void)cbEventData, (void)eventData, (void)pActivityId;
    (void)pRelatedActivityId, (void)eventThread, (void)numStackFrames, (void)stackFrames;
    return S_OK;
}

/* Keep using precompiled (ReadyToRun) code: searching the cache is the runtime's default. */
static HRESULT stub_JITCachedFunctionSearchStarted(Cb *This, FunctionID functionId,
                                                   BOOL *pbUseCachedFunction)
{
    (void)This, (void)functionId;
    if (pbUseCachedFunction != NULL)
        *pbUseCachedFunction = TRUE;
    return S_OK;
}

/* Allow the inline: a profiler that does not care must not change the generated code. */
static HRESULT stub_JITInlining(Cb *This, FunctionID callerId, FunctionID calleeId,
                                BOOL *pfShouldInline)
{
    (void)This, (void)callerId, (void)calleeId;
    if (pfShouldInline != NULL)
        *pfShouldInline = TRUE;
    return S_OK;
}

/* Ask to be the main profiler: notification-only is an explicit choice (section 2.4). */
static HRESULT stub_LoadAsNotificationOnly(Cb *This, BOOL *pbNotificationOnly)
{
    (void)This;
    if (pbNotificationOnly != NULL)
        *pbNotificationOnly = FALSE;
    return S_OK;
}

/* Points every callback slot at its stub; the IUnknown slots stay the caller's. */
void clrprof_fill_default_callbacks(ICorProfilerCallback11Vtbl *vtbl)
{
    if (vtbl == NULL)
        return;
#define SET(name) vtbl->name = stub_##name
#define CB0(name) SET(name);
#define CB1(name, ...) SET(name);
#define CB2(name, ...) SET(name);
#define CB3(name, ...) SET(name);
#define CB4(name, ...) SET(name);
#define CB5(name, ...) SET(name);
#define LIFECYCLE0(name) SET(name);
#define LIFECYCLE1(name, ...) SET(name);
#define LIFECYCLE3(name, ...) SET(name);
#include "callback_list.h"
    SET(JITCachedFunctionSearchStarted);
    SET(JITInlining);
    SET(EventPipeEventDelivered);
    SET(LoadAsNotificationOnly);
#undef SET
}
