/* corprof_info.h - ICorProfilerInfo .. ICorProfilerInfo15: the interface the runtime implements
 * and the profiler calls.
 *
 * Include clrprof/corprof.h rather than this file directly.
 *
 * The runtime passes an IUnknown to Initialize/InitializeForAttach; QueryInterface it for the
 * highest ICorProfilerInfoN you use and fall back on E_NOINTERFACE (older runtimes). As with
 * the callbacks, each level's methods are declared once in CLRPROF_INFO_METHODS_Vn(T) and
 * ICorProfilerInfoNVtbl is IUnknown + V1 + ... + VN. The pointer is invalid after
 * ProfilerDetachSucceeded: never cache it past detach.
 *
 * String out-parameters follow the (cchName, pcchName, name[]) pattern: counts are UTF-16
 * code units and include the terminating NUL. Slot numbers are in corprof_checks.h.
 */
#ifndef CLRPROF_CORPROF_INFO_H
#define CLRPROF_CORPROF_INFO_H

#include "corprof_misc.h"
#include "corprof_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ICorProfilerInfo: slots 3..35. */
#define CLRPROF_INFO_METHODS_V1(T)                                                                \
    HRESULT (*GetClassFromObject)(T *This, ObjectID objectId, ClassID *pClassId);                 \
    HRESULT (*GetClassFromToken)(T *This, ModuleID moduleId, mdTypeDef typeDef,                   \
                                 ClassID *pClassId);                                              \
    HRESULT (*GetCodeInfo)(T *This, FunctionID functionId, LPCBYTE *pStart, ULONG *pcSize);       \
    HRESULT (*GetEventMask)(T *This, DWORD *pdwEvents);                                           \
    HRESULT (*GetFunctionFromIP)(T *This, LPCBYTE ip, FunctionID *pFunctionId);                   \
    HRESULT (*GetFunctionFromToken)(T *This, ModuleID moduleId, mdToken token,                    \
                                    FunctionID *pFunctionId);                                     \
    HRESULT (*GetHandleFromThread)(T *This, ThreadID threadId, HANDLE *phThread);                 \
    HRESULT (*GetObjectSize)(T *This, ObjectID objectId, ULONG *pcSize);                          \
    HRESULT (*IsArrayClass)(T *This, ClassID classId, CorElementType *pBaseElemType,              \
                            ClassID *pBaseClassId, ULONG *pcRank);                                \
    HRESULT (*GetThreadInfo)(T *This, ThreadID threadId, DWORD *pdwWin32ThreadId);                \
    HRESULT (*GetCurrentThreadID)(T *This, ThreadID *pThreadId);                                  \
    HRESULT (*GetClassIDInfo)(T *This, ClassID classId, ModuleID *pModuleId,                      \
                              mdTypeDef *pTypeDefToken);                                          \
    HRESULT (*GetFunctionInfo)(T *This, FunctionID functionId, ClassID *pClassId,                 \
                               ModuleID *pModuleId, mdToken *pToken);                             \
    HRESULT (*SetEventMask)(T *This, DWORD dwEvents);                                             \
    HRESULT (*SetEnterLeaveFunctionHooks)(T *This, FunctionEnter *pFuncEnter,                     \
                                          FunctionLeave *pFuncLeave,                              \
                                          FunctionTailcall *pFuncTailcall);                       \
    HRESULT (*SetFunctionIDMapper)(T *This, FunctionIDMapper *pFunc);                             \
    HRESULT (*GetTokenAndMetaDataFromFunction)(T *This, FunctionID functionId, REFIID riid,       \
                                               IUnknown **ppImport, mdToken *pToken);             \
    HRESULT (*GetModuleInfo)(T *This, ModuleID moduleId, LPCBYTE *ppBaseLoadAddress,              \
                             ULONG cchName, ULONG *pcchName, WCHAR szName[],                      \
                             AssemblyID *pAssemblyId);                                            \
    HRESULT (*GetModuleMetaData)(T *This, ModuleID moduleId, DWORD dwOpenFlags, REFIID riid,      \
                                 IUnknown **ppOut);                                               \
    HRESULT (*GetILFunctionBody)(T *This, ModuleID moduleId, mdMethodDef methodId,                \
                                 LPCBYTE *ppMethodHeader, ULONG *pcbMethodSize);                  \
    HRESULT (*GetILFunctionBodyAllocator)(T *This, ModuleID moduleId,                             \
                                          IMethodMalloc **ppMalloc);                              \
    HRESULT (*SetILFunctionBody)(T *This, ModuleID moduleId, mdMethodDef methodId,                \
                                 LPCBYTE pbNewILMethodHeader);                                    \
    HRESULT (*GetAppDomainInfo)(T *This, AppDomainID appDomainId, ULONG cchName,                  \
                                ULONG *pcchName, WCHAR szName[], ProcessID *pProcessId);          \
    HRESULT (*GetAssemblyInfo)(T *This, AssemblyID assemblyId, ULONG cchName,                     \
                               ULONG *pcchName, WCHAR szName[], AppDomainID *pAppDomainId,        \
                               ModuleID *pModuleId);                                              \
    /* E_NOTIMPL in CoreCLR. */                                                                   \
    HRESULT (*SetFunctionReJIT)(T *This, FunctionID functionId);                                  \
    HRESULT (*ForceGC)(T *This);                                                                  \
    HRESULT (*SetILInstrumentedCodeMap)(T *This, FunctionID functionId, BOOL fStartJit,           \
                                        ULONG cILMapEntries, COR_IL_MAP rgILMapEntries[]);        \
    /* E_NOTIMPL in CoreCLR. */                                                                   \
    HRESULT (*GetInprocInspectionInterface)(T *This, IUnknown **ppicd);                           \
    /* E_NOTIMPL in CoreCLR. */                                                                   \
    HRESULT (*GetInprocInspectionIThisThread)(T *This, IUnknown **ppicd);                         \
    HRESULT (*GetThreadContext)(T *This, ThreadID threadId, ContextID *pContextId);               \
    /* E_NOTIMPL in CoreCLR. */                                                                   \
    HRESULT (*BeginInprocDebugging)(T *This, BOOL fThisThreadOnly, DWORD *pdwProfilerContext);    \
    /* E_NOTIMPL in CoreCLR. */                                                                   \
    HRESULT (*EndInprocDebugging)(T *This, DWORD dwProfilerContext);                              \
    HRESULT (*GetILToNativeMapping)(T *This, FunctionID functionId, ULONG32 cMap,                 \
                                    ULONG32 *pcMap, COR_DEBUG_IL_TO_NATIVE_MAP map[]);

/* ICorProfilerInfo2: slots 36..56. */
#define CLRPROF_INFO_METHODS_V2(T)                                                                \
    HRESULT (*DoStackSnapshot)(T *This, ThreadID thread, StackSnapshotCallback *callback,         \
                               ULONG32 infoFlags, void *clientData, BYTE context[],               \
                               ULONG32 contextSize);                                              \
    HRESULT (*SetEnterLeaveFunctionHooks2)(T *This, FunctionEnter2 *pFuncEnter,                   \
                                           FunctionLeave2 *pFuncLeave,                            \
                                           FunctionTailcall2 *pFuncTailcall);                     \
    HRESULT (*GetFunctionInfo2)(T *This, FunctionID funcId, COR_PRF_FRAME_INFO frameInfo,         \
                                ClassID *pClassId, ModuleID *pModuleId, mdToken *pToken,          \
                                ULONG32 cTypeArgs, ULONG32 *pcTypeArgs, ClassID typeArgs[]);      \
    HRESULT (*GetStringLayout)(T *This, ULONG *pBufferLengthOffset,                               \
                               ULONG *pStringLengthOffset, ULONG *pBufferOffset);                 \
    HRESULT (*GetClassLayout)(T *This, ClassID classID, COR_FIELD_OFFSET rFieldOffset[],          \
                              ULONG cFieldOffset, ULONG *pcFieldOffset,                           \
                              ULONG *pulClassSize);                                               \
    HRESULT (*GetClassIDInfo2)(T *This, ClassID classId, ModuleID *pModuleId,                     \
                               mdTypeDef *pTypeDefToken, ClassID *pParentClassId,                 \
                               ULONG32 cNumTypeArgs, ULONG32 *pcNumTypeArgs,                      \
                               ClassID typeArgs[]);                                               \
    HRESULT (*GetCodeInfo2)(T *This, FunctionID functionID, ULONG32 cCodeInfos,                   \
                            ULONG32 *pcCodeInfos, COR_PRF_CODE_INFO codeInfos[]);                 \
    HRESULT (*GetClassFromTokenAndTypeArgs)(T *This, ModuleID moduleID, mdTypeDef typeDef,        \
                                            ULONG32 cTypeArgs, ClassID typeArgs[],                \
                                            ClassID *pClassID);                                   \
    HRESULT (*GetFunctionFromTokenAndTypeArgs)(T *This, ModuleID moduleID,                        \
                                               mdMethodDef funcDef, ClassID classId,              \
                                               ULONG32 cTypeArgs, ClassID typeArgs[],             \
                                               FunctionID *pFunctionID);                          \
    HRESULT (*EnumModuleFrozenObjects)(T *This, ModuleID moduleID,                                \
                                       ICorProfilerObjectEnum **ppEnum);                          \
    HRESULT (*GetArrayObjectInfo)(T *This, ObjectID objectId, ULONG32 cDimensions,                \
                                  ULONG32 pDimensionSizes[], int pDimensionLowerBounds[],         \
                                  BYTE **ppData);                                                 \
    HRESULT (*GetBoxClassLayout)(T *This, ClassID classId, ULONG32 *pBufferOffset);               \
    HRESULT (*GetThreadAppDomain)(T *This, ThreadID threadId, AppDomainID *pAppDomainId);         \
    HRESULT (*GetRVAStaticAddress)(T *This, ClassID classId, mdFieldDef fieldToken,               \
                                   void **ppAddress);                                             \
    HRESULT (*GetAppDomainStaticAddress)(T *This, ClassID classId, mdFieldDef fieldToken,         \
                                         AppDomainID appDomainId, void **ppAddress);              \
    HRESULT (*GetThreadStaticAddress)(T *This, ClassID classId, mdFieldDef fieldToken,            \
                                      ThreadID threadId, void **ppAddress);                       \
    /* E_NOTIMPL in CoreCLR. */                                                                   \
    HRESULT (*GetContextStaticAddress)(T *This, ClassID classId, mdFieldDef fieldToken,           \
                                       ContextID contextId, void **ppAddress);                    \
    HRESULT (*GetStaticFieldInfo)(T *This, ClassID classId, mdFieldDef fieldToken,                \
                                  COR_PRF_STATIC_TYPE *pFieldInfo);                               \
    HRESULT (*GetGenerationBounds)(T *This, ULONG cObjectRanges, ULONG *pcObjectRanges,           \
                                   COR_PRF_GC_GENERATION_RANGE ranges[]);                         \
    HRESULT (*GetObjectGeneration)(T *This, ObjectID objectId,                                    \
                                   COR_PRF_GC_GENERATION_RANGE *range);                           \
    HRESULT (*GetNotifiedExceptionClauseInfo)(T *This, COR_PRF_EX_CLAUSE_INFO *pinfo);

/* ICorProfilerInfo3: slots 57..70 - detach, ELT3, module and runtime enumeration. */
#define CLRPROF_INFO_METHODS_V3(T)                                                                \
    HRESULT (*EnumJITedFunctions)(T *This, ICorProfilerFunctionEnum **ppEnum);                    \
    /* Async-safe; 0 means the default expectation (2500 ms in CoreCLR). */                       \
    HRESULT (*RequestProfilerDetach)(T *This, DWORD dwExpectedCompletionMilliseconds);            \
    HRESULT (*SetFunctionIDMapper2)(T *This, FunctionIDMapper2 *pFunc, void *clientData);         \
    HRESULT (*GetStringLayout2)(T *This, ULONG *pStringLengthOffset, ULONG *pBufferOffset);       \
    HRESULT (*SetEnterLeaveFunctionHooks3)(T *This, FunctionEnter3 *pFuncEnter3,                  \
                                           FunctionLeave3 *pFuncLeave3,                           \
                                           FunctionTailcall3 *pFuncTailcall3);                    \
    HRESULT (*SetEnterLeaveFunctionHooks3WithInfo)(                                               \
        T *This, FunctionEnter3WithInfo *pFuncEnter3WithInfo,                                     \
        FunctionLeave3WithInfo *pFuncLeave3WithInfo,                                              \
        FunctionTailcall3WithInfo *pFuncTailcall3WithInfo);                                       \
    HRESULT (*GetFunctionEnter3Info)(T *This, FunctionID functionId,                              \
                                     COR_PRF_ELT_INFO eltInfo, COR_PRF_FRAME_INFO *pFrameInfo,    \
                                     ULONG *pcbArgumentInfo,                                      \
                                     COR_PRF_FUNCTION_ARGUMENT_INFO *pArgumentInfo);              \
    HRESULT (*GetFunctionLeave3Info)(T *This, FunctionID functionId,                              \
                                     COR_PRF_ELT_INFO eltInfo, COR_PRF_FRAME_INFO *pFrameInfo,    \
                                     COR_PRF_FUNCTION_ARGUMENT_RANGE *pRetvalRange);              \
    HRESULT (*GetFunctionTailcall3Info)(T *This, FunctionID functionId,                           \
                                        COR_PRF_ELT_INFO eltInfo,                                 \
                                        COR_PRF_FRAME_INFO *pFrameInfo);                          \
    HRESULT (*EnumModules)(T *This, ICorProfilerModuleEnum **ppEnum);                             \
    HRESULT (*GetRuntimeInformation)(T *This, USHORT *pClrInstanceId,                             \
                                     COR_PRF_RUNTIME_TYPE *pRuntimeType,                          \
                                     USHORT *pMajorVersion, USHORT *pMinorVersion,                \
                                     USHORT *pBuildNumber, USHORT *pQFEVersion,                   \
                                     ULONG cchVersionString, ULONG *pcchVersionString,            \
                                     WCHAR szVersionString[]);                                    \
    HRESULT (*GetThreadStaticAddress2)(T *This, ClassID classId, mdFieldDef fieldToken,           \
                                       AppDomainID appDomainId, ThreadID threadId,                \
                                       void **ppAddress);                                         \
    HRESULT (*GetAppDomainsContainingModule)(T *This, ModuleID moduleId,                          \
                                             ULONG32 cAppDomainIds, ULONG32 *pcAppDomainIds,      \
                                             AppDomainID appDomainIds[]);                         \
    /* pdwModuleFlags: COR_PRF_MODULE_FLAGS bits. */                                              \
    HRESULT (*GetModuleInfo2)(T *This, ModuleID moduleId, LPCBYTE *ppBaseLoadAddress,             \
                              ULONG cchName, ULONG *pcchName, WCHAR szName[],                     \
                              AssemblyID *pAssemblyId, DWORD *pdwModuleFlags);

/* ICorProfilerInfo4: slots 71..80 - threads, ReJIT. */
#define CLRPROF_INFO_METHODS_V4(T)                                                                \
    HRESULT (*EnumThreads)(T *This, ICorProfilerThreadEnum **ppEnum);                             \
    HRESULT (*InitializeCurrentThread)(T *This);                                                  \
    HRESULT (*RequestReJIT)(T *This, ULONG cFunctions, ModuleID moduleIds[],                      \
                            mdMethodDef methodIds[]);                                             \
    HRESULT (*RequestRevert)(T *This, ULONG cFunctions, ModuleID moduleIds[],                     \
                             mdMethodDef methodIds[], HRESULT status[]);                          \
    HRESULT (*GetCodeInfo3)(T *This, FunctionID functionID, ReJITID reJitId,                      \
                            ULONG32 cCodeInfos, ULONG32 *pcCodeInfos,                             \
                            COR_PRF_CODE_INFO codeInfos[]);                                       \
    HRESULT (*GetFunctionFromIP2)(T *This, LPCBYTE ip, FunctionID *pFunctionId,                   \
                                  ReJITID *pReJitId);                                             \
    HRESULT (*GetReJITIDs)(T *This, FunctionID functionId, ULONG cReJitIds,                       \
                           ULONG *pcReJitIds, ReJITID reJitIds[]);                                \
    HRESULT (*GetILToNativeMapping2)(T *This, FunctionID functionId, ReJITID reJitId,             \
                                     ULONG32 cMap, ULONG32 *pcMap,                                \
                                     COR_DEBUG_IL_TO_NATIVE_MAP map[]);                           \
    HRESULT (*EnumJITedFunctions2)(T *This, ICorProfilerFunctionEnum **ppEnum);                   \
    HRESULT (*GetObjectSize2)(T *This, ObjectID objectId, SIZE_T *pcSize);

/* ICorProfilerInfo5: slots 81..82 - the 64-bit event mask. */
#define CLRPROF_INFO_METHODS_V5(T)                                                                \
    HRESULT (*GetEventMask2)(T *This, DWORD *pdwEventsLow, DWORD *pdwEventsHigh);                 \
    HRESULT (*SetEventMask2)(T *This, DWORD dwEventsLow, DWORD dwEventsHigh);

/* ICorProfilerInfo6: slot 83. */
#define CLRPROF_INFO_METHODS_V6(T)                                                                \
    HRESULT (*EnumNgenModuleMethodsInliningThisMethod)(T *This, ModuleID inlinersModuleId,        \
                                                       ModuleID inlineeModuleId,                  \
                                                       mdMethodDef inlineeMethodId,               \
                                                       BOOL *incompleteData,                      \
                                                       ICorProfilerMethodEnum **ppEnum);

/* ICorProfilerInfo7: slots 84..86 - in-memory symbols. */
#define CLRPROF_INFO_METHODS_V7(T)                                                                \
    HRESULT (*ApplyMetaData)(T *This, ModuleID moduleId);                                         \
    HRESULT (*GetInMemorySymbolsLength)(T *This, ModuleID moduleId,                               \
                                        DWORD *pCountSymbolBytes);                                \
    HRESULT (*ReadInMemorySymbols)(T *This, ModuleID moduleId, DWORD symbolsReadOffset,           \
                                   BYTE *pSymbolBytes, DWORD countSymbolBytes,                    \
                                   DWORD *pCountSymbolBytesRead);

/* ICorProfilerInfo8: slots 87..89 - dynamic methods. */
#define CLRPROF_INFO_METHODS_V8(T)                                                                \
    HRESULT (*IsFunctionDynamic)(T *This, FunctionID functionId, BOOL *isDynamic);                \
    HRESULT (*GetFunctionFromIP3)(T *This, LPCBYTE ip, FunctionID *functionId,                    \
                                  ReJITID *pReJitId);                                             \
    HRESULT (*GetDynamicFunctionInfo)(T *This, FunctionID functionId, ModuleID *moduleId,         \
                                      PCCOR_SIGNATURE *ppvSig, ULONG *pbSig, ULONG cchName,       \
                                      ULONG *pcchName, WCHAR wszName[]);

/* ICorProfilerInfo9: slots 90..92 - code versions. */
#define CLRPROF_INFO_METHODS_V9(T)                                                                \
    HRESULT (*GetNativeCodeStartAddresses)(T *This, FunctionID functionID, ReJITID reJitId,       \
                                           ULONG32 cCodeStartAddresses,                           \
                                           ULONG32 *pcCodeStartAddresses,                         \
                                           UINT_PTR codeStartAddresses[]);                        \
    HRESULT (*GetILToNativeMapping3)(T *This, UINT_PTR pNativeCodeStartAddress,                   \
                                     ULONG32 cMap, ULONG32 *pcMap,                                \
                                     COR_DEBUG_IL_TO_NATIVE_MAP map[]);                           \
    HRESULT (*GetCodeInfo4)(T *This, UINT_PTR pNativeCodeStartAddress, ULONG32 cCodeInfos,        \
                            ULONG32 *pcCodeInfos, COR_PRF_CODE_INFO codeInfos[]);

/* ICorProfilerInfo10: slots 93..98 - object walking, suspension. */
#define CLRPROF_INFO_METHODS_V10(T)                                                               \
    HRESULT (*EnumerateObjectReferences)(T *This, ObjectID objectId,                              \
                                         ObjectReferenceCallback *callback,                       \
                                         void *clientData);                                       \
    HRESULT (*IsFrozenObject)(T *This, ObjectID objectId, BOOL *pbFrozen);                        \
    HRESULT (*GetLOHObjectSizeThreshold)(T *This, DWORD *pThreshold);                             \
    /* dwRejitFlags: COR_PRF_REJIT_FLAGS bits. */                                                 \
    HRESULT (*RequestReJITWithInliners)(T *This, DWORD dwRejitFlags, ULONG cFunctions,            \
                                        ModuleID moduleIds[], mdMethodDef methodIds[]);           \
    HRESULT (*SuspendRuntime)(T *This);                                                           \
    HRESULT (*ResumeRuntime)(T *This);

/* ICorProfilerInfo11: slots 99..100 - the target's environment. */
#define CLRPROF_INFO_METHODS_V11(T)                                                               \
    HRESULT (*GetEnvironmentVariable)(T *This, const WCHAR *szName, ULONG cchValue,               \
                                      ULONG *pcchValue, WCHAR szValue[]);                         \
    HRESULT (*SetEnvironmentVariable)(T *This, const WCHAR *szName, const WCHAR *szValue);

/* ICorProfilerInfo12: slots 101..107 - EventPipe sessions and providers. */
#define CLRPROF_INFO_METHODS_V12(T)                                                               \
    HRESULT (*EventPipeStartSession)(T *This, UINT32 cProviderConfigs,                            \
                                     COR_PRF_EVENTPIPE_PROVIDER_CONFIG pProviderConfigs[],        \
                                     BOOL requestRundown, EVENTPIPE_SESSION *pSession);           \
    /* providerConfig is passed by value, as in the runtime's C++ (same ABI). */                  \
    HRESULT (*EventPipeAddProviderToSession)(T *This, EVENTPIPE_SESSION session,                  \
                                             COR_PRF_EVENTPIPE_PROVIDER_CONFIG providerConfig);   \
    HRESULT (*EventPipeStopSession)(T *This, EVENTPIPE_SESSION session);                          \
    HRESULT (*EventPipeCreateProvider)(T *This, const WCHAR *providerName,                        \
                                       EVENTPIPE_PROVIDER *pProvider);                            \
    HRESULT (*EventPipeGetProviderInfo)(T *This, EVENTPIPE_PROVIDER provider,                     \
                                        ULONG cchName, ULONG *pcchName,                           \
                                        WCHAR providerName[]);                                    \
    HRESULT (*EventPipeDefineEvent)(T *This, EVENTPIPE_PROVIDER provider,                         \
                                    const WCHAR *eventName, UINT32 eventID, UINT64 keywords,      \
                                    UINT32 eventVersion, UINT32 level, UINT8 opcode,              \
                                    BOOL needStack, UINT32 cParamDescs,                           \
                                    COR_PRF_EVENTPIPE_PARAM_DESC pParamDescs[],                   \
                                    EVENTPIPE_EVENT *pEvent);                                     \
    HRESULT (*EventPipeWriteEvent)(T *This, EVENTPIPE_EVENT event, UINT32 cData,                  \
                                   COR_PRF_EVENT_DATA data[], LPCGUID pActivityId,                \
                                   LPCGUID pRelatedActivityId);

/* ICorProfilerInfo13: slots 108..110 - GC handles. */
#define CLRPROF_INFO_METHODS_V13(T)                                                               \
    HRESULT (*CreateHandle)(T *This, ObjectID object, COR_PRF_HANDLE_TYPE type,                   \
                            ObjectHandleID *pHandle);                                             \
    HRESULT (*DestroyHandle)(T *This, ObjectHandleID handle);                                     \
    HRESULT (*GetObjectIDFromHandle)(T *This, ObjectHandleID handle, ObjectID *pObject);

/* ICorProfilerInfo14: slots 111..113 - non-GC heap, provider callbacks. */
#define CLRPROF_INFO_METHODS_V14(T)                                                               \
    HRESULT (*EnumerateNonGCObjects)(T *This, ICorProfilerObjectEnum **ppEnum);                   \
    HRESULT (*GetNonGCHeapBounds)(T *This, ULONG cObjectRanges, ULONG *pcObjectRanges,            \
                                  COR_PRF_NONGC_HEAP_RANGE ranges[]);                             \
    HRESULT (*EventPipeCreateProvider2)(T *This, const WCHAR *providerName,                       \
                                        EventPipeProviderCallback *pCallback,                     \
                                        EVENTPIPE_PROVIDER *pProvider);

/* ICorProfilerInfo15: slot 114 - heap walk. */
#define CLRPROF_INFO_METHODS_V15(T)                                                               \
    HRESULT (*EnumerateGCHeapObjects)(T *This, ObjectCallback callback, void *callbackState);

/* ---- the fifteen levels ----------------------------------------------------------------- */

CLRPROF_UNUSED static const IID IID_ICorProfilerInfo =
    {0x28B5557D, 0x3F3F, 0x48B4, {0x90, 0xB2, 0x5F, 0x9E, 0xEA, 0x2F, 0x6C, 0x48}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerInfo)
typedef struct ICorProfilerInfoVtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerInfo)
    CLRPROF_INFO_METHODS_V1(ICorProfilerInfo)
} ICorProfilerInfoVtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerInfo2 =
    {0xCC0935CD, 0xA518, 0x487D, {0xB0, 0xBB, 0xA9, 0x32, 0x14, 0xE6, 0x54, 0x78}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerInfo2)
typedef struct ICorProfilerInfo2Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerInfo2)
    CLRPROF_INFO_METHODS_V1(ICorProfilerInfo2)
    CLRPROF_INFO_METHODS_V2(ICorProfilerInfo2)
} ICorProfilerInfo2Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerInfo3 =
    {0xB555ED4F, 0x452A, 0x4E54, {0x8B, 0x39, 0xB5, 0x36, 0x0B, 0xAD, 0x32, 0xA0}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerInfo3)
typedef struct ICorProfilerInfo3Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerInfo3)
    CLRPROF_INFO_METHODS_V1(ICorProfilerInfo3)
    CLRPROF_INFO_METHODS_V2(ICorProfilerInfo3)
    CLRPROF_INFO_METHODS_V3(ICorProfilerInfo3)
} ICorProfilerInfo3Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerInfo4 =
    {0x0D8FDCAA, 0x6257, 0x47BF, {0xB1, 0xBF, 0x94, 0xDA, 0xC8, 0x84, 0x66, 0xEE}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerInfo4)
typedef struct ICorProfilerInfo4Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerInfo4)
    CLRPROF_INFO_METHODS_V1(ICorProfilerInfo4)
    CLRPROF_INFO_METHODS_V2(ICorProfilerInfo4)
    CLRPROF_INFO_METHODS_V3(ICorProfilerInfo4)
    CLRPROF_INFO_METHODS_V4(ICorProfilerInfo4)
} ICorProfilerInfo4Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerInfo5 =
    {0x07602928, 0xCE38, 0x4B83, {0x81, 0xE7, 0x74, 0xAD, 0xAF, 0x78, 0x12, 0x14}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerInfo5)
typedef struct ICorProfilerInfo5Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerInfo5)
    CLRPROF_INFO_METHODS_V1(ICorProfilerInfo5)
    CLRPROF_INFO_METHODS_V2(ICorProfilerInfo5)
    CLRPROF_INFO_METHODS_V3(ICorProfilerInfo5)
    CLRPROF_INFO_METHODS_V4(ICorProfilerInfo5)
    CLRPROF_INFO_METHODS_V5(ICorProfilerInfo5)
} ICorProfilerInfo5Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerInfo6 =
    {0xF30A070D, 0xBFFB, 0x46A7, {0xB1, 0xD8, 0x87, 0x81, 0xEF, 0x7B, 0x69, 0x8A}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerInfo6)
typedef struct ICorProfilerInfo6Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerInfo6)
    CLRPROF_INFO_METHODS_V1(ICorProfilerInfo6)
    CLRPROF_INFO_METHODS_V2(ICorProfilerInfo6)
    CLRPROF_INFO_METHODS_V3(ICorProfilerInfo6)
    CLRPROF_INFO_METHODS_V4(ICorProfilerInfo6)
    CLRPROF_INFO_METHODS_V5(ICorProfilerInfo6)
    CLRPROF_INFO_METHODS_V6(ICorProfilerInfo6)
} ICorProfilerInfo6Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerInfo7 =
    {0x9AEECC0D, 0x63E0, 0x4187, {0x8C, 0x00, 0xE3, 0x12, 0xF5, 0x03, 0xF6, 0x63}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerInfo7)
typedef struct ICorProfilerInfo7Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerInfo7)
    CLRPROF_INFO_METHODS_V1(ICorProfilerInfo7)
    CLRPROF_INFO_METHODS_V2(ICorProfilerInfo7)
    CLRPROF_INFO_METHODS_V3(ICorProfilerInfo7)
    CLRPROF_INFO_METHODS_V4(ICorProfilerInfo7)
    CLRPROF_INFO_METHODS_V5(ICorProfilerInfo7)
    CLRPROF_INFO_METHODS_V6(ICorProfilerInfo7)
    CLRPROF_INFO_METHODS_V7(ICorProfilerInfo7)
} ICorProfilerInfo7Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerInfo8 =
    {0xC5AC80A6, 0x782E, 0x4716, {0x80, 0x44, 0x39, 0x59, 0x8C, 0x60, 0xCF, 0xBF}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerInfo8)
typedef struct ICorProfilerInfo8Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerInfo8)
    CLRPROF_INFO_METHODS_V1(ICorProfilerInfo8)
    CLRPROF_INFO_METHODS_V2(ICorProfilerInfo8)
    CLRPROF_INFO_METHODS_V3(ICorProfilerInfo8)
    CLRPROF_INFO_METHODS_V4(ICorProfilerInfo8)
    CLRPROF_INFO_METHODS_V5(ICorProfilerInfo8)
    CLRPROF_INFO_METHODS_V6(ICorProfilerInfo8)
    CLRPROF_INFO_METHODS_V7(ICorProfilerInfo8)
    CLRPROF_INFO_METHODS_V8(ICorProfilerInfo8)
} ICorProfilerInfo8Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerInfo9 =
    {0x008170DB, 0xF8CC, 0x4796, {0x9A, 0x51, 0xDC, 0x8A, 0xA0, 0xB4, 0x70, 0x12}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerInfo9)
typedef struct ICorProfilerInfo9Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerInfo9)
    CLRPROF_INFO_METHODS_V1(ICorProfilerInfo9)
    CLRPROF_INFO_METHODS_V2(ICorProfilerInfo9)
    CLRPROF_INFO_METHODS_V3(ICorProfilerInfo9)
    CLRPROF_INFO_METHODS_V4(ICorProfilerInfo9)
    CLRPROF_INFO_METHODS_V5(ICorProfilerInfo9)
    CLRPROF_INFO_METHODS_V6(ICorProfilerInfo9)
    CLRPROF_INFO_METHODS_V7(ICorProfilerInfo9)
    CLRPROF_INFO_METHODS_V8(ICorProfilerInfo9)
    CLRPROF_INFO_METHODS_V9(ICorProfilerInfo9)
} ICorProfilerInfo9Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerInfo10 =
    {0x2F1B5152, 0xC869, 0x40C9, {0xAA, 0x5F, 0x3A, 0xBE, 0x02, 0x6B, 0xD7, 0x20}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerInfo10)
typedef struct ICorProfilerInfo10Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerInfo10)
    CLRPROF_INFO_METHODS_V1(ICorProfilerInfo10)
    CLRPROF_INFO_METHODS_V2(ICorProfilerInfo10)
    CLRPROF_INFO_METHODS_V3(ICorProfilerInfo10)
    CLRPROF_INFO_METHODS_V4(ICorProfilerInfo10)
    CLRPROF_INFO_METHODS_V5(ICorProfilerInfo10)
    CLRPROF_INFO_METHODS_V6(ICorProfilerInfo10)
    CLRPROF_INFO_METHODS_V7(ICorProfilerInfo10)
    CLRPROF_INFO_METHODS_V8(ICorProfilerInfo10)
    CLRPROF_INFO_METHODS_V9(ICorProfilerInfo10)
    CLRPROF_INFO_METHODS_V10(ICorProfilerInfo10)
} ICorProfilerInfo10Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerInfo11 =
    {0x06398876, 0x8987, 0x4154, {0xB6, 0x21, 0x40, 0xA0, 0x0D, 0x6E, 0x4D, 0x04}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerInfo11)
typedef struct ICorProfilerInfo11Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerInfo11)
    CLRPROF_INFO_METHODS_V1(ICorProfilerInfo11)
    CLRPROF_INFO_METHODS_V2(ICorProfilerInfo11)
    CLRPROF_INFO_METHODS_V3(ICorProfilerInfo11)
    CLRPROF_INFO_METHODS_V4(ICorProfilerInfo11)
    CLRPROF_INFO_METHODS_V5(ICorProfilerInfo11)
    CLRPROF_INFO_METHODS_V6(ICorProfilerInfo11)
    CLRPROF_INFO_METHODS_V7(ICorProfilerInfo11)
    CLRPROF_INFO_METHODS_V8(ICorProfilerInfo11)
    CLRPROF_INFO_METHODS_V9(ICorProfilerInfo11)
    CLRPROF_INFO_METHODS_V10(ICorProfilerInfo11)
    CLRPROF_INFO_METHODS_V11(ICorProfilerInfo11)
} ICorProfilerInfo11Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerInfo12 =
    {0x27B24CCD, 0x1CB1, 0x47C5, {0x96, 0xEE, 0x98, 0x19, 0x0D, 0xC3, 0x09, 0x59}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerInfo12)
typedef struct ICorProfilerInfo12Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerInfo12)
    CLRPROF_INFO_METHODS_V1(ICorProfilerInfo12)
    CLRPROF_INFO_METHODS_V2(ICorProfilerInfo12)
    CLRPROF_INFO_METHODS_V3(ICorProfilerInfo12)
    CLRPROF_INFO_METHODS_V4(ICorProfilerInfo12)
    CLRPROF_INFO_METHODS_V5(ICorProfilerInfo12)
    CLRPROF_INFO_METHODS_V6(ICorProfilerInfo12)
    CLRPROF_INFO_METHODS_V7(ICorProfilerInfo12)
    CLRPROF_INFO_METHODS_V8(ICorProfilerInfo12)
    CLRPROF_INFO_METHODS_V9(ICorProfilerInfo12)
    CLRPROF_INFO_METHODS_V10(ICorProfilerInfo12)
    CLRPROF_INFO_METHODS_V11(ICorProfilerInfo12)
    CLRPROF_INFO_METHODS_V12(ICorProfilerInfo12)
} ICorProfilerInfo12Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerInfo13 =
    {0x6E6C7EE2, 0x0701, 0x4EC2, {0x9D, 0x29, 0x2E, 0x87, 0x33, 0xB6, 0x69, 0x34}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerInfo13)
typedef struct ICorProfilerInfo13Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerInfo13)
    CLRPROF_INFO_METHODS_V1(ICorProfilerInfo13)
    CLRPROF_INFO_METHODS_V2(ICorProfilerInfo13)
    CLRPROF_INFO_METHODS_V3(ICorProfilerInfo13)
    CLRPROF_INFO_METHODS_V4(ICorProfilerInfo13)
    CLRPROF_INFO_METHODS_V5(ICorProfilerInfo13)
    CLRPROF_INFO_METHODS_V6(ICorProfilerInfo13)
    CLRPROF_INFO_METHODS_V7(ICorProfilerInfo13)
    CLRPROF_INFO_METHODS_V8(ICorProfilerInfo13)
    CLRPROF_INFO_METHODS_V9(ICorProfilerInfo13)
    CLRPROF_INFO_METHODS_V10(ICorProfilerInfo13)
    CLRPROF_INFO_METHODS_V11(ICorProfilerInfo13)
    CLRPROF_INFO_METHODS_V12(ICorProfilerInfo13)
    CLRPROF_INFO_METHODS_V13(ICorProfilerInfo13)
} ICorProfilerInfo13Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerInfo14 =
    {0xF460E352, 0xD76D, 0x4FE9, {0x83, 0x5F, 0xF6, 0xAF, 0x9D, 0x6E, 0x86, 0x2D}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerInfo14)
typedef struct ICorProfilerInfo14Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerInfo14)
    CLRPROF_INFO_METHODS_V1(ICorProfilerInfo14)
    CLRPROF_INFO_METHODS_V2(ICorProfilerInfo14)
    CLRPROF_INFO_METHODS_V3(ICorProfilerInfo14)
    CLRPROF_INFO_METHODS_V4(ICorProfilerInfo14)
    CLRPROF_INFO_METHODS_V5(ICorProfilerInfo14)
    CLRPROF_INFO_METHODS_V6(ICorProfilerInfo14)
    CLRPROF_INFO_METHODS_V7(ICorProfilerInfo14)
    CLRPROF_INFO_METHODS_V8(ICorProfilerInfo14)
    CLRPROF_INFO_METHODS_V9(ICorProfilerInfo14)
    CLRPROF_INFO_METHODS_V10(ICorProfilerInfo14)
    CLRPROF_INFO_METHODS_V11(ICorProfilerInfo14)
    CLRPROF_INFO_METHODS_V12(ICorProfilerInfo14)
    CLRPROF_INFO_METHODS_V13(ICorProfilerInfo14)
    CLRPROF_INFO_METHODS_V14(ICorProfilerInfo14)
} ICorProfilerInfo14Vtbl;

CLRPROF_UNUSED static const IID IID_ICorProfilerInfo15 =
    {0xB446462D, 0xBD22, 0x41DD, {0x87, 0x2D, 0xDC, 0x71, 0x4C, 0x49, 0xEB, 0x56}};
CLRPROF_DECLARE_INTERFACE(ICorProfilerInfo15)
typedef struct ICorProfilerInfo15Vtbl {
    CLRPROF_IUNKNOWN_METHODS(ICorProfilerInfo15)
    CLRPROF_INFO_METHODS_V1(ICorProfilerInfo15)
    CLRPROF_INFO_METHODS_V2(ICorProfilerInfo15)
    CLRPROF_INFO_METHODS_V3(ICorProfilerInfo15)
    CLRPROF_INFO_METHODS_V4(ICorProfilerInfo15)
    CLRPROF_INFO_METHODS_V5(ICorProfilerInfo15)
    CLRPROF_INFO_METHODS_V6(ICorProfilerInfo15)
    CLRPROF_INFO_METHODS_V7(ICorProfilerInfo15)
    CLRPROF_INFO_METHODS_V8(ICorProfilerInfo15)
    CLRPROF_INFO_METHODS_V9(ICorProfilerInfo15)
    CLRPROF_INFO_METHODS_V10(ICorProfilerInfo15)
    CLRPROF_INFO_METHODS_V11(ICorProfilerInfo15)
    CLRPROF_INFO_METHODS_V12(ICorProfilerInfo15)
    CLRPROF_INFO_METHODS_V13(ICorProfilerInfo15)
    CLRPROF_INFO_METHODS_V14(ICorProfilerInfo15)
    CLRPROF_INFO_METHODS_V15(ICorProfilerInfo15)
} ICorProfilerInfo15Vtbl;

#ifdef __cplusplus
}
#endif

#endif
