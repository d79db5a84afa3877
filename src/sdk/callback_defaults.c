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

/* ICorProfilerCallback (slots 3..71). */
STUB1(Initialize, IUnknown *)
STUB0(Shutdown)
STUB1(AppDomainCreationStarted, AppDomainID)
STUB2(AppDomainCreationFinished, AppDomainID, HRESULT)
STUB1(AppDomainShutdownStarted, AppDomainID)
STUB2(AppDomainShutdownFinished, AppDomainID, HRESULT)
STUB1(AssemblyLoadStarted, AssemblyID)
STUB2(AssemblyLoadFinished, AssemblyID, HRESULT)
STUB1(AssemblyUnloadStarted, AssemblyID)
STUB2(AssemblyUnloadFinished, AssemblyID, HRESULT)
STUB1(ModuleLoadStarted, ModuleID)
STUB2(ModuleLoadFinished, ModuleID, HRESULT)
STUB1(ModuleUnloadStarted, ModuleID)
STUB2(ModuleUnloadFinished, ModuleID, HRESULT)
STUB2(ModuleAttachedToAssembly, ModuleID, AssemblyID)
STUB1(ClassLoadStarted, ClassID)
STUB2(ClassLoadFinished, ClassID, HRESULT)
STUB1(ClassUnloadStarted, ClassID)
STUB2(ClassUnloadFinished, ClassID, HRESULT)
STUB1(FunctionUnloadStarted, FunctionID)
STUB2(JITCompilationStarted, FunctionID, BOOL)
STUB3(JITCompilationFinished, FunctionID, HRESULT, BOOL)
STUB2(JITCachedFunctionSearchFinished, FunctionID, COR_PRF_JIT_CACHE)
STUB1(JITFunctionPitched, FunctionID)
STUB1(ThreadCreated, ThreadID)
STUB1(ThreadDestroyed, ThreadID)
STUB2(ThreadAssignedToOSThread, ThreadID, DWORD)
STUB0(RemotingClientInvocationStarted)
STUB2(RemotingClientSendingMessage, GUID *, BOOL)
STUB2(RemotingClientReceivingReply, GUID *, BOOL)
STUB0(RemotingClientInvocationFinished)
STUB2(RemotingServerReceivingMessage, GUID *, BOOL)
STUB0(RemotingServerInvocationStarted)
STUB0(RemotingServerInvocationReturned)
STUB2(RemotingServerSendingReply, GUID *, BOOL)
STUB2(UnmanagedToManagedTransition, FunctionID, COR_PRF_TRANSITION_REASON)
STUB2(ManagedToUnmanagedTransition, FunctionID, COR_PRF_TRANSITION_REASON)
STUB1(RuntimeSuspendStarted, COR_PRF_SUSPEND_REASON)
STUB0(RuntimeSuspendFinished)
STUB0(RuntimeSuspendAborted)
STUB0(RuntimeResumeStarted)
STUB0(RuntimeResumeFinished)
STUB1(RuntimeThreadSuspended, ThreadID)
STUB1(RuntimeThreadResumed, ThreadID)
STUB4(MovedReferences, ULONG, ObjectID *, ObjectID *, ULONG *)
STUB2(ObjectAllocated, ObjectID, ClassID)
STUB3(ObjectsAllocatedByClass, ULONG, ClassID *, ULONG *)
STUB4(ObjectReferences, ObjectID, ClassID, ULONG, ObjectID *)
STUB2(RootReferences, ULONG, ObjectID *)
STUB1(ExceptionThrown, ObjectID)
STUB1(ExceptionSearchFunctionEnter, FunctionID)
STUB0(ExceptionSearchFunctionLeave)
STUB1(ExceptionSearchFilterEnter, FunctionID)
STUB0(ExceptionSearchFilterLeave)
STUB1(ExceptionSearchCatcherFound, FunctionID)
STUB1(ExceptionOSHandlerEnter, UINT_PTR)
STUB1(ExceptionOSHandlerLeave, UINT_PTR)
STUB1(ExceptionUnwindFunctionEnter, FunctionID)
STUB0(ExceptionUnwindFunctionLeave)
STUB1(ExceptionUnwindFinallyEnter, FunctionID)
STUB0(ExceptionUnwindFinallyLeave)
STUB2(ExceptionCatcherEnter, FunctionID, ObjectID)
STUB0(ExceptionCatcherLeave)
STUB4(COMClassicVTableCreated, ClassID, REFGUID, void *, ULONG)
STUB3(COMClassicVTableDestroyed, ClassID, REFGUID, void *)
STUB0(ExceptionCLRCatcherFound)
STUB0(ExceptionCLRCatcherExecute)

/* ICorProfilerCallback2 (72..79). */
STUB3(ThreadNameChanged, ThreadID, ULONG, WCHAR *)
STUB3(GarbageCollectionStarted, int, BOOL *, COR_PRF_GC_REASON)
STUB3(SurvivingReferences, ULONG, ObjectID *, ULONG *)
STUB0(GarbageCollectionFinished)
STUB2(FinalizeableObjectQueued, DWORD, ObjectID)
STUB5(RootReferences2, ULONG, ObjectID *, COR_PRF_GC_ROOT_KIND *, COR_PRF_GC_ROOT_FLAGS *,
      UINT_PTR *)
STUB2(HandleCreated, GCHandleID, ObjectID)
STUB1(HandleDestroyed, GCHandleID)

/* ICorProfilerCallback3 (80..82). */
STUB3(InitializeForAttach, IUnknown *, void *, UINT)
STUB0(ProfilerAttachComplete)
STUB0(ProfilerDetachSucceeded)

/* ICorProfilerCallback4..9 (83..94). */
STUB3(ReJITCompilationStarted, FunctionID, ReJITID, BOOL)
STUB3(GetReJITParameters, ModuleID, mdMethodDef, ICorProfilerFunctionControl *)
STUB4(ReJITCompilationFinished, FunctionID, ReJITID, HRESULT, BOOL)
STUB4(ReJITError, ModuleID, mdMethodDef, FunctionID, HRESULT)
STUB4(MovedReferences2, ULONG, ObjectID *, ObjectID *, SIZE_T *)
STUB3(SurvivingReferences2, ULONG, ObjectID *, SIZE_T *)
STUB4(ConditionalWeakTableElementReferences, ULONG, ObjectID *, ObjectID *, GCHandleID *)
STUB2(GetAssemblyReferences, const WCHAR *, ICorProfilerAssemblyReferenceProvider *)
STUB1(ModuleInMemorySymbolsUpdated, ModuleID)
STUB4(DynamicMethodJITCompilationStarted, FunctionID, BOOL, LPCBYTE, ULONG)
STUB3(DynamicMethodJITCompilationFinished, FunctionID, HRESULT, BOOL)
STUB1(DynamicMethodUnloaded, FunctionID)

/* ICorProfilerCallback10 (95..96). */
STUB1(EventPipeProviderCreated, EVENTPIPE_PROVIDER)

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
    /* ICorProfilerCallback */
    SET(Initialize);
    SET(Shutdown);
    SET(AppDomainCreationStarted);
    SET(AppDomainCreationFinished);
    SET(AppDomainShutdownStarted);
    SET(AppDomainShutdownFinished);
    SET(AssemblyLoadStarted);
    SET(AssemblyLoadFinished);
    SET(AssemblyUnloadStarted);
    SET(AssemblyUnloadFinished);
    SET(ModuleLoadStarted);
    SET(ModuleLoadFinished);
    SET(ModuleUnloadStarted);
    SET(ModuleUnloadFinished);
    SET(ModuleAttachedToAssembly);
    SET(ClassLoadStarted);
    SET(ClassLoadFinished);
    SET(ClassUnloadStarted);
    SET(ClassUnloadFinished);
    SET(FunctionUnloadStarted);
    SET(JITCompilationStarted);
    SET(JITCompilationFinished);
    SET(JITCachedFunctionSearchStarted);
    SET(JITCachedFunctionSearchFinished);
    SET(JITFunctionPitched);
    SET(JITInlining);
    SET(ThreadCreated);
    SET(ThreadDestroyed);
    SET(ThreadAssignedToOSThread);
    SET(RemotingClientInvocationStarted);
    SET(RemotingClientSendingMessage);
    SET(RemotingClientReceivingReply);
    SET(RemotingClientInvocationFinished);
    SET(RemotingServerReceivingMessage);
    SET(RemotingServerInvocationStarted);
    SET(RemotingServerInvocationReturned);
    SET(RemotingServerSendingReply);
    SET(UnmanagedToManagedTransition);
    SET(ManagedToUnmanagedTransition);
    SET(RuntimeSuspendStarted);
    SET(RuntimeSuspendFinished);
    SET(RuntimeSuspendAborted);
    SET(RuntimeResumeStarted);
    SET(RuntimeResumeFinished);
    SET(RuntimeThreadSuspended);
    SET(RuntimeThreadResumed);
    SET(MovedReferences);
    SET(ObjectAllocated);
    SET(ObjectsAllocatedByClass);
    SET(ObjectReferences);
    SET(RootReferences);
    SET(ExceptionThrown);
    SET(ExceptionSearchFunctionEnter);
    SET(ExceptionSearchFunctionLeave);
    SET(ExceptionSearchFilterEnter);
    SET(ExceptionSearchFilterLeave);
    SET(ExceptionSearchCatcherFound);
    SET(ExceptionOSHandlerEnter);
    SET(ExceptionOSHandlerLeave);
    SET(ExceptionUnwindFunctionEnter);
    SET(ExceptionUnwindFunctionLeave);
    SET(ExceptionUnwindFinallyEnter);
    SET(ExceptionUnwindFinallyLeave);
    SET(ExceptionCatcherEnter);
    SET(ExceptionCatcherLeave);
    SET(COMClassicVTableCreated);
    SET(COMClassicVTableDestroyed);
    SET(ExceptionCLRCatcherFound);
    SET(ExceptionCLRCatcherExecute);
    /* ICorProfilerCallback2 */
    SET(ThreadNameChanged);
    SET(GarbageCollectionStarted);
    SET(SurvivingReferences);
    SET(GarbageCollectionFinished);
    SET(FinalizeableObjectQueued);
    SET(RootReferences2);
    SET(HandleCreated);
    SET(HandleDestroyed);
    /* ICorProfilerCallback3 */
    SET(InitializeForAttach);
    SET(ProfilerAttachComplete);
    SET(ProfilerDetachSucceeded);
    /* ICorProfilerCallback4..11 */
    SET(ReJITCompilationStarted);
    SET(GetReJITParameters);
    SET(ReJITCompilationFinished);
    SET(ReJITError);
    SET(MovedReferences2);
    SET(SurvivingReferences2);
    SET(ConditionalWeakTableElementReferences);
    SET(GetAssemblyReferences);
    SET(ModuleInMemorySymbolsUpdated);
    SET(DynamicMethodJITCompilationStarted);
    SET(DynamicMethodJITCompilationFinished);
    SET(DynamicMethodUnloaded);
    SET(EventPipeEventDelivered);
    SET(EventPipeProviderCreated);
    SET(LoadAsNotificationOnly);
#undef SET
}
