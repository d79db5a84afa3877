/* corprof_callback.h - ICorProfilerCallback .. ICorProfilerCallback11: the interface a profiler
 * implements and the runtime calls.
 *
 * Include clrprof/corprof.h rather than this file directly.
 *
 * Each level's own methods are declared once, in CLRPROF_CALLBACK_METHODS_Vn(T), and every
 * vtable is IUnknown + V1 + ... + Vn, so a higher vtable is a slot-for-slot extension of every
 * lower one. The runtime uses the highest level the profiler's QueryInterface admits and
 * reaches the lower levels through the same pointer: a profiler exposes one vtable of the
 * highest level it answers for, with every slot filled (clrprof_fill_default_callbacks()).
 *
 * Every method returns HRESULT; the runtime ignores most results. Slot numbers are in
 * corprof_checks.h.
 */
#ifndef CLRPROF_CORPROF_CALLBACK_H
#define CLRPROF_CORPROF_CALLBACK_H

#include "corprof_misc.h"
#include "corprof_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ICorProfilerCallback: slots 3..71. */
#define CLRPROF_CALLBACK_METHODS_V1(T)                                                            \
    HRESULT (*Initialize)(T *This, IUnknown *pICorProfilerInfoUnk);                               \
    HRESULT (*Shutdown)(T *This);                                                                 \
    HRESULT (*AppDomainCreationStarted)(T *This, AppDomainID appDomainId);                        \
    HRESULT (*AppDomainCreationFinished)(T *This, AppDomainID appDomainId, HRESULT hrStatus);     \
    HRESULT (*AppDomainShutdownStarted)(T *This, AppDomainID appDomainId);                        \
    HRESULT (*AppDomainShutdownFinished)(T *This, AppDomainID appDomainId, HRESULT hrStatus);     \
    HRESULT (*AssemblyLoadStarted)(T *This, AssemblyID assemblyId);                               \
    HRESULT (*AssemblyLoadFinished)(T *This, AssemblyID assemblyId, HRESULT hrStatus);            \
    HRESULT (*AssemblyUnloadStarted)(T *This, AssemblyID assemblyId);                             \
    HRESULT (*AssemblyUnloadFinished)(T *This, AssemblyID assemblyId, HRESULT hrStatus);          \
    HRESULT (*ModuleLoadStarted)(T *This, ModuleID moduleId);                                     \
    HRESULT (*ModuleLoadFinished)(T *This, ModuleID moduleId, HRESULT hrStatus);                  \
    HRESULT (*ModuleUnloadStarted)(T *This, ModuleID moduleId);                                   \
    HRESULT (*ModuleUnloadFinished)(T *This, ModuleID moduleId, HRESULT hrStatus);                \
    HRESULT (*ModuleAttachedToAssembly)(T *This, ModuleID moduleId, AssemblyID assemblyId);       \
    HRESULT (*ClassLoadStarted)(T *This, ClassID classId);                                        \
    HRESULT (*ClassLoadFinished)(T *This, ClassID classId, HRESULT hrStatus);                     \
    HRESULT (*ClassUnloadStarted)(T *This, ClassID classId);                                      \
    HRESULT (*ClassUnloadFinished)(T *This, ClassID classId, HRESULT hrStatus);                   \
    HRESULT (*FunctionUnloadStarted)(T *This, FunctionID functionId);                             \
    HRESULT (*JITCompilationStarted)(T *This, FunctionID functionId, BOOL fIsSafeToBlock);        \
    HRESULT (*JITCompilationFinished)(T *This, FunctionID functionId, HRESULT hrStatus,           \
                                      BOOL fIsSafeToBlock);                                       \
    HRESULT (*JITCachedFunctionSearchStarted)(T *This, FunctionID functionId,                     \
                                              BOOL *pbUseCachedFunction);                         \
    HRESULT (*JITCachedFunctionSearchFinished)(T *This, FunctionID functionId,                    \
                                               COR_PRF_JIT_CACHE result);                         \
    HRESULT (*JITFunctionPitched)(T *This, FunctionID functionId);                                \
    HRESULT (*JITInlining)(T *This, FunctionID callerId, FunctionID calleeId,                     \
                           BOOL *pfShouldInline);                                                 \
    HRESULT (*ThreadCreated)(T *This, ThreadID threadId);                                         \
    HRESULT (*ThreadDestroyed)(T *This, ThreadID threadId);                                       \
    HRESULT (*ThreadAssignedToOSThread)(T *This, ThreadID managedThreadId, DWORD osThreadId);     \
    HRESULT (*RemotingClientInvocationStarted)(T *This);                                          \
    HRESULT (*RemotingClientSendingMessage)(T *This, GUID *pCookie, BOOL fIsAsync);               \
    HRESULT (*RemotingClientReceivingReply)(T *This, GUID *pCookie, BOOL fIsAsync);               \
    HRESULT (*RemotingClientInvocationFinished)(T *This);                                         \
    HRESULT (*RemotingServerReceivingMessage)(T *This, GUID *pCookie, BOOL fIsAsync);             \
    HRESULT (*RemotingServerInvocationStarted)(T *This);                                          \
    HRESULT (*RemotingServerInvocationReturned)(T *This);                                         \
    HRESULT (*RemotingServerSendingReply)(T *This, GUID *pCookie, BOOL fIsAsync);                 \
    HRESULT (*UnmanagedToManagedTransition)(T *This, FunctionID functionId,                       \
                                            COR_PRF_TRANSITION_REASON reason);                    \
    HRESULT (*ManagedToUnmanagedTransition)(T *This, FunctionID functionId,                       \
                                            COR_PRF_TRANSITION_REASON reason);                    \
    HRESULT (*RuntimeSuspendStarted)(T *This, COR_PRF_SUSPEND_REASON suspendReason);              \
    HRESULT (*RuntimeSuspendFinished)(T *This);                                                   \
    HRESULT (*RuntimeSuspendAborted)(T *This);                                                    \
    HRESULT (*RuntimeResumeStarted)(T *This);                                                     \
    HRESULT (*RuntimeResumeFinished)(T *This);                                                    \
    HRESULT (*RuntimeThreadSuspended)(T *This, ThreadID threadId);                                \
    HRESULT (*RuntimeThreadResumed)(T *This, ThreadID threadId);                                  \
    /* The length[] entries are 32-bit; Callback4 MovedReferences2 has SIZE_T lengths. */         \
    HRESULT (*MovedReferences)(T *This, ULONG cMovedObjectIDRanges,                               \
                               ObjectID oldObjectIDRangeStart[],                                  \
                               ObjectID newObjectIDRangeStart[],                                  \
                               ULONG cObjectIDRangeLength[]);                                     \
    HRESULT (*ObjectAllocated)(T *This, ObjectID objectId, ClassID classId);                      \
    HRESULT (*ObjectsAllocatedByClass)(T *This, ULONG cClassCount, ClassID classIds[],            \
                                       ULONG cObjects[]);                                         \
    HRESULT (*ObjectReferences)(T *This, ObjectID objectId, ClassID classId,                      \
                                ULONG cObjectRefs, ObjectID objectRefIds[]);                      \
    HRESULT (*RootReferences)(T *This, ULONG cRootRefs, ObjectID rootRefIds[]);                   \
    HRESULT (*ExceptionThrown)(T *This, ObjectID thrownObjectId);                                 \
    HRESULT (*ExceptionSearchFunctionEnter)(T *This, FunctionID functionId);                      \
    HRESULT (*ExceptionSearchFunctionLeave)(T *This);                                             \
    HRESULT (*ExceptionSearchFilterEnter)(T *This, FunctionID functionId);                        \
    HRESULT (*ExceptionSearchFilterLeave)(T *This);                                               \
    HRESULT (*ExceptionSearchCatcherFound)(T *This, FunctionID functionId);                       \
    HRESULT (*ExceptionOSHandlerEnter)(T *This, UINT_PTR unused);                                 \
    HRESULT (*ExceptionOSHandlerLeave)(T *This, UINT_PTR unused);                                 \
    HRESULT (*ExceptionUnwindFunctionEnter)(T *This, FunctionID functionId);                      \
    HRESULT (*ExceptionUnwindFunctionLeave)(T *This);                                             \
    HRESULT (*ExceptionUnwindFinallyEnter)(T *This, FunctionID functionId);                       \
    HRESULT (*ExceptionUnwindFinallyLeave)(T *This);                                              \
    HRESULT (*ExceptionCatcherEnter)(T *This, FunctionID functionId, ObjectID objectId);          \
    HRESULT (*ExceptionCatcherLeave)(T *This);                                                    \
    HRESULT (*COMClassicVTableCreated)(T *This, ClassID wrappedClassId,                           \
                                       REFGUID implementedIID, void *pVTable, ULONG cSlots);      \
    HRESULT (*COMClassicVTableDestroyed)(T *This, ClassID wrappedClassId,                         \
                                         REFGUID implementedIID, void *pVTable);                  \
    HRESULT (*ExceptionCLRCatcherFound)(T *This);                                                 \
    HRESULT (*ExceptionCLRCatcherExecute)(T *This);

/* ICorProfilerCallback2: slots 72..79. */
#define CLRPROF_CALLBACK_METHODS_V2(T)                                                            \
    /* name is not NUL-terminated: it holds exactly cchName code units. */                        \
    HRESULT (*ThreadNameChanged)(T *This, ThreadID threadId, ULONG cchName, WCHAR name[]);        \
    HRESULT (*GarbageCollectionStarted)(T *This, int cGenerations,                                \
                                        BOOL generationCollected[],                               \
                                        COR_PRF_GC_REASON reason);                                \
    HRESULT (*SurvivingReferences)(T *This, ULONG cSurvivingObjectIDRanges,                       \
                                   ObjectID objectIDRangeStart[],                                 \
                                   ULONG cObjectIDRangeLength[]);                                 \
    HRESULT (*GarbageCollectionFinished)(T *This);                                                \
    HRESULT (*FinalizeableObjectQueued)(T *This, DWORD finalizerFlags, ObjectID objectId);        \
    HRESULT (*RootReferences2)(T *This, ULONG cRootRefs, ObjectID rootRefIds[],                   \
                               COR_PRF_GC_ROOT_KIND rootKinds[],                                  \
                               COR_PRF_GC_ROOT_FLAGS rootFlags[], UINT_PTR rootIds[]);            \
    HRESULT (*HandleCreated)(T *This, GCHandleID handleId, ObjectID initialObjectId);             \
    HRESULT (*HandleDestroyed)(T *This, GCHandleID handleId);

/* ICorProfilerCallback3: slots 80..82 - the attach/detach methods. */
#define CLRPROF_CALLBACK_METHODS_V3(T)                                                            \
    /* pvClientData is the trigger's bytes (NULL/0 if none), valid only during the call. */       \
    HRESULT (*InitializeForAttach)(T *This, IUnknown *pCorProfilerInfoUnk,                        \
                                   void *pvClientData, UINT cbClientData);                        \
    HRESULT (*ProfilerAttachComplete)(T *This);                                                   \
    HRESULT (*ProfilerDetachSucceeded)(T *This);

/* ICorProfilerCallback4: slots 83..88 - ReJIT and 64-bit-safe GC range reports. */
#define CLRPROF_CALLBACK_METHODS_V4(T)                                                            \
    HRESULT (*ReJITCompilationStarted)(T *This, FunctionID functionId, ReJITID rejitId,           \
                                       BOOL fIsSafeToBlock);                                      \
    HRESULT (*GetReJITParameters)(T *This, ModuleID moduleId, mdMethodDef methodId,               \
                                  ICorProfilerFunctionControl *pFunctionControl);                 \
    HRESULT (*ReJITCompilationFinished)(T *This, FunctionID functionId, ReJITID rejitId,          \
                                        HRESULT hrStatus, BOOL fIsSafeToBlock);                   \
    HRESULT (*ReJITError)(T *This, ModuleID moduleId, mdMethodDef methodId,                       \
                          FunctionID functionId, HRESULT hrStatus);                               \
    HRESULT (*MovedReferences2)(T *This, ULONG cMovedObjectIDRanges,                              \
                                ObjectID oldObjectIDRangeStart[],                                 \
                                ObjectID newObjectIDRangeStart[],                                 \
                                SIZE_T cObjectIDRangeLength[]);                                   \
    HRESULT (*SurvivingReferences2)(T *This, ULONG cSurvivingObjectIDRanges,                      \
                                    ObjectID objectIDRangeStart[],                                \
                                    SIZE_T cObjectIDRangeLength[]);

/* ICorProfilerCallback5: slot 89. */
#define CLRPROF_CALLBACK_METHODS_V5(T)                                                            \
    HRESULT (*ConditionalWeakTableElementReferences)(T *This, ULONG cRootRefs,                    \
                                                     ObjectID keyRefIds[],                        \
                                                     ObjectID valueRefIds[],                      \
                                                     GCHandleID rootIds[]);

/* ICorProfilerCallback6: slot 90 (never raised by CoreCLR). */
#define CLRPROF_CALLBACK_METHODS_V6(T)                                                            \
    HRESULT (*GetAssemblyReferences)(T *This, const WCHAR *wszAssemblyPath,                       \
                                     ICorProfilerAssemblyReferenceProvider *pAsmRefProvider);

/* ICorProfilerCallback7: slot 91. */
#define CLRPROF_CALLBACK_METHODS_V7(T)                                                            \
    HRESULT (*ModuleInMemorySymbolsUpdated)(T *This, ModuleID moduleId);

/* ICorProfilerCallback8: slots 92..93 - dynamic (LCG, IL stub) methods. */
#define CLRPROF_CALLBACK_METHODS_V8(T)                                                            \
    HRESULT (*DynamicMethodJITCompilationStarted)(T *This, FunctionID functionId,                 \
                                                  BOOL fIsSafeToBlock, LPCBYTE pILHeader,         \
                                                  ULONG cbILHeader);                              \
    HRESULT (*DynamicMethodJITCompilationFinished)(T *This, FunctionID functionId,                \
                                                   HRESULT hrStatus, BOOL fIsSafeToBlock);

/* ICorProfilerCallback9: slot 94. */
#define CLRPROF_CALLBACK_METHODS_V9(T)                                                            \
    HRESULT (*DynamicMethodUnloaded)(T *This, FunctionID functionId);

/* ICorProfilerCallback10: slots 95..96 - EventPipe. All pointers are valid during the call. */
#define CLRPROF_CALLBACK_METHODS_V10(T)                                                           \
    HRESULT (*EventPipeEventDelivered)(T *This, EVENTPIPE_PROVIDER provider, DWORD eventId,       \
                                       DWORD eventVersion, ULONG cbMetadataBlob,                  \
                                       LPCBYTE metadataBlob, ULONG cbEventData,                   \
                                       LPCBYTE eventData, LPCGUID pActivityId,                    \
                                       LPCGUID pRelatedActivityId, ThreadID eventThread,          \
                                       ULONG numStackFrames, UINT_PTR stackFrames[]);             \
    HRESULT (*EventPipeProviderCreated)(T *This, EVENTPIPE_PROVIDER provider);

/* ICorProfilerCallback11: slot 97. TRUE asks to be loaded as a notification-only profiler. */
#define CLRPROF_CALLBACK_METHODS_V11(T)                                                           \
    HRESULT (*LoadAsNotificationOnly)(T *This, BOOL *pbNotificationOnly);

/* ---- the eleven levels ------------------------------------------------------------------ */

CLRPROF_UNUSED static const IID IID_ICorProfilerCallback =
    {0x176FBED1, 0xA55C, 0x4796, {0x98, 0xCA, 0xA9, 0xDA, 0x0E, 0xF8, 0x83, 0xE7}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerCallback)
typedef struct ICorProfilerCallbackVtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerCallback)
    CLRPROF_CALLBACK_METHODS_V1(ICorProfilerCallback)
} ICorProfilerCallbackVtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerCallback2 =
    {0x8A8CC829, 0xCCF2, 0x49FE, {0xBB, 0xAE, 0x0F, 0x02, 0x22, 0x28, 0x07, 0x1A}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerCallback2)
typedef struct ICorProfilerCallback2Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerCallback2)
    CLRPROF_CALLBACK_METHODS_V1(ICorProfilerCallback2)
    CLRPROF_CALLBACK_METHODS_V2(ICorProfilerCallback2)
} ICorProfilerCallback2Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerCallback3 =
    {0x4FD2ED52, 0x7731, 0x4B8D, {0x94, 0x69, 0x03, 0xD2, 0xCC, 0x30, 0x86, 0xC5}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerCallback3)
typedef struct ICorProfilerCallback3Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerCallback3)
    CLRPROF_CALLBACK_METHODS_V1(ICorProfilerCallback3)
    CLRPROF_CALLBACK_METHODS_V2(ICorProfilerCallback3)
    CLRPROF_CALLBACK_METHODS_V3(ICorProfilerCallback3)
} ICorProfilerCallback3Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerCallback4 =
    {0x7B63B2E3, 0x107D, 0x4D48, {0xB2, 0xF6, 0xF6, 0x1E, 0x22, 0x94, 0x70, 0xD2}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerCallback4)
typedef struct ICorProfilerCallback4Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerCallback4)
    CLRPROF_CALLBACK_METHODS_V1(ICorProfilerCallback4)
    CLRPROF_CALLBACK_METHODS_V2(ICorProfilerCallback4)
    CLRPROF_CALLBACK_METHODS_V3(ICorProfilerCallback4)
    CLRPROF_CALLBACK_METHODS_V4(ICorProfilerCallback4)
} ICorProfilerCallback4Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerCallback5 =
    {0x8DFBA405, 0x8C9F, 0x45F8, {0xBF, 0xFA, 0x83, 0xB1, 0x4C, 0xEF, 0x78, 0xB5}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerCallback5)
typedef struct ICorProfilerCallback5Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerCallback5)
    CLRPROF_CALLBACK_METHODS_V1(ICorProfilerCallback5)
    CLRPROF_CALLBACK_METHODS_V2(ICorProfilerCallback5)
    CLRPROF_CALLBACK_METHODS_V3(ICorProfilerCallback5)
    CLRPROF_CALLBACK_METHODS_V4(ICorProfilerCallback5)
    CLRPROF_CALLBACK_METHODS_V5(ICorProfilerCallback5)
} ICorProfilerCallback5Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerCallback6 =
    {0xFC13DF4B, 0x4448, 0x4F4F, {0x95, 0x0C, 0xBA, 0x8D, 0x19, 0xD0, 0x0C, 0x36}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerCallback6)
typedef struct ICorProfilerCallback6Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerCallback6)
    CLRPROF_CALLBACK_METHODS_V1(ICorProfilerCallback6)
    CLRPROF_CALLBACK_METHODS_V2(ICorProfilerCallback6)
    CLRPROF_CALLBACK_METHODS_V3(ICorProfilerCallback6)
    CLRPROF_CALLBACK_METHODS_V4(ICorProfilerCallback6)
    CLRPROF_CALLBACK_METHODS_V5(ICorProfilerCallback6)
    CLRPROF_CALLBACK_METHODS_V6(ICorProfilerCallback6)
} ICorProfilerCallback6Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerCallback7 =
    {0xF76A2DBA, 0x1D52, 0x4539, {0x86, 0x6C, 0x2A, 0xA5, 0x18, 0xF9, 0xEF, 0xC3}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerCallback7)
typedef struct ICorProfilerCallback7Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerCallback7)
    CLRPROF_CALLBACK_METHODS_V1(ICorProfilerCallback7)
    CLRPROF_CALLBACK_METHODS_V2(ICorProfilerCallback7)
    CLRPROF_CALLBACK_METHODS_V3(ICorProfilerCallback7)
    CLRPROF_CALLBACK_METHODS_V4(ICorProfilerCallback7)
    CLRPROF_CALLBACK_METHODS_V5(ICorProfilerCallback7)
    CLRPROF_CALLBACK_METHODS_V6(ICorProfilerCallback7)
    CLRPROF_CALLBACK_METHODS_V7(ICorProfilerCallback7)
} ICorProfilerCallback7Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerCallback8 =
    {0x5BED9B15, 0xC079, 0x4D47, {0xBF, 0xE2, 0x21, 0x5A, 0x14, 0x0C, 0x07, 0xE0}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerCallback8)
typedef struct ICorProfilerCallback8Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerCallback8)
    CLRPROF_CALLBACK_METHODS_V1(ICorProfilerCallback8)
    CLRPROF_CALLBACK_METHODS_V2(ICorProfilerCallback8)
    CLRPROF_CALLBACK_METHODS_V3(ICorProfilerCallback8)
    CLRPROF_CALLBACK_METHODS_V4(ICorProfilerCallback8)
    CLRPROF_CALLBACK_METHODS_V5(ICorProfilerCallback8)
    CLRPROF_CALLBACK_METHODS_V6(ICorProfilerCallback8)
    CLRPROF_CALLBACK_METHODS_V7(ICorProfilerCallback8)
    CLRPROF_CALLBACK_METHODS_V8(ICorProfilerCallback8)
} ICorProfilerCallback8Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerCallback9 =
    {0x27583EC3, 0xC8F5, 0x482F, {0x80, 0x52, 0x19, 0x4B, 0x8C, 0xE4, 0x70, 0x5A}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerCallback9)
typedef struct ICorProfilerCallback9Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerCallback9)
    CLRPROF_CALLBACK_METHODS_V1(ICorProfilerCallback9)
    CLRPROF_CALLBACK_METHODS_V2(ICorProfilerCallback9)
    CLRPROF_CALLBACK_METHODS_V3(ICorProfilerCallback9)
    CLRPROF_CALLBACK_METHODS_V4(ICorProfilerCallback9)
    CLRPROF_CALLBACK_METHODS_V5(ICorProfilerCallback9)
    CLRPROF_CALLBACK_METHODS_V6(ICorProfilerCallback9)
    CLRPROF_CALLBACK_METHODS_V7(ICorProfilerCallback9)
    CLRPROF_CALLBACK_METHODS_V8(ICorProfilerCallback9)
    CLRPROF_CALLBACK_METHODS_V9(ICorProfilerCallback9)
} ICorProfilerCallback9Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerCallback10 =
    {0xCEC5B60E, 0xC69C, 0x495F, {0x87, 0xF6, 0x84, 0xD2, 0x8E, 0xE1, 0x6F, 0xFB}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerCallback10)
typedef struct ICorProfilerCallback10Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerCallback10)
    CLRPROF_CALLBACK_METHODS_V1(ICorProfilerCallback10)
    CLRPROF_CALLBACK_METHODS_V2(ICorProfilerCallback10)
    CLRPROF_CALLBACK_METHODS_V3(ICorProfilerCallback10)
    CLRPROF_CALLBACK_METHODS_V4(ICorProfilerCallback10)
    CLRPROF_CALLBACK_METHODS_V5(ICorProfilerCallback10)
    CLRPROF_CALLBACK_METHODS_V6(ICorProfilerCallback10)
    CLRPROF_CALLBACK_METHODS_V7(ICorProfilerCallback10)
    CLRPROF_CALLBACK_METHODS_V8(ICorProfilerCallback10)
    CLRPROF_CALLBACK_METHODS_V9(ICorProfilerCallback10)
    CLRPROF_CALLBACK_METHODS_V10(ICorProfilerCallback10)
} ICorProfilerCallback10Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerCallback11 =
    {0x42350846, 0xAAED, 0x47F7, {0xB1, 0x28, 0xFD, 0x0C, 0x98, 0x88, 0x1C, 0xDE}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerCallback11)
typedef struct ICorProfilerCallback11Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerCallback11)
    CLRPROF_CALLBACK_METHODS_V1(ICorProfilerCallback11)
    CLRPROF_CALLBACK_METHODS_V2(ICorProfilerCallback11)
    CLRPROF_CALLBACK_METHODS_V3(ICorProfilerCallback11)
    CLRPROF_CALLBACK_METHODS_V4(ICorProfilerCallback11)
    CLRPROF_CALLBACK_METHODS_V5(ICorProfilerCallback11)
    CLRPROF_CALLBACK_METHODS_V6(ICorProfilerCallback11)
    CLRPROF_CALLBACK_METHODS_V7(ICorProfilerCallback11)
    CLRPROF_CALLBACK_METHODS_V8(ICorProfilerCallback11)
    CLRPROF_CALLBACK_METHODS_V9(ICorProfilerCallback11)
    CLRPROF_CALLBACK_METHODS_V10(ICorProfilerCallback11)
    CLRPROF_CALLBACK_METHODS_V11(ICorProfilerCallback11)
} ICorProfilerCallback11Vtbl;

#ifdef __cplusplus
}
#endif

#endif
