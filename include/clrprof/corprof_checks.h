/* corprof_checks.h - compile-time proof that the C layout matches the runtime's ABI.
 *
 * Included at the end of clrprof/corprof.h; nothing here produces code. Slot numbers were
 * transcribed from docs/profiling-api.md (sections 1.1-1.10), independently of the order
 * in which the vtable macros declare the methods, so a method out of place, missing or
 * duplicated fails the build. Every method is checked in the highest vtable that has it;
 * lower levels are built from the same macros, so their sizes are enough.
 * IMetaDataImport's checks live at the end of cormeta.h.
 */
#ifndef CLRPROF_CORPROF_CHECKS_H
#define CLRPROF_CORPROF_CHECKS_H

#include <stddef.h>

#include "corprof_callback.h"
#include "corprof_info.h"
#include "corprof_misc.h"
#include "corprof_types.h"

/* Method m of vtable type vt sits in slot n (0-based, counting IUnknown's three). */
#define CLRPROF_SLOT(vt, m, n)                                                                    \
    CLRPROF_STATIC_ASSERT(offsetof(vt, m) == (n) * sizeof(void *), #vt "::" #m " is slot " #n)

/* Vtable type vt holds exactly k function pointers. */
#define CLRPROF_VTBL_SIZE(vt, k)                                                                  \
    CLRPROF_STATIC_ASSERT(sizeof(vt) == (k) * sizeof(void *), #vt " has " #k " slots")

#define CLRPROF_SIZE(t, n) CLRPROF_STATIC_ASSERT(sizeof(t) == (n), "sizeof(" #t ") == " #n)
#define CLRPROF_OFFSET(t, f, n)                                                                   \
    CLRPROF_STATIC_ASSERT(offsetof(t, f) == (n), "offsetof(" #t ", " #f ") == " #n)

/* ---- scalars (section 0): the same on every platform the PAL supports ------------------- */

CLRPROF_SIZE(HRESULT, 4);
CLRPROF_SIZE(ULONG, 4);
CLRPROF_SIZE(DWORD, 4);
CLRPROF_SIZE(BOOL, 4);
CLRPROF_SIZE(WCHAR, 2);
CLRPROF_SIZE(USHORT, 2);
CLRPROF_SIZE(BYTE, 1);
CLRPROF_SIZE(UINT64, 8);
CLRPROF_SIZE(mdToken, 4);
CLRPROF_SIZE(GUID, 16);
CLRPROF_SIZE(COR_PRF_MONITOR, 4);
CLRPROF_SIZE(COR_PRF_JIT_CACHE, 4);
CLRPROF_SIZE(COR_PRF_GC_GENERATION, 4);
CLRPROF_SIZE(CorElementType, 4);
CLRPROF_SIZE(EVENTPIPE_SESSION, 8);
CLRPROF_SIZE(COR_IL_MAP, 12);
CLRPROF_SIZE(COR_DEBUG_IL_TO_NATIVE_MAP, 12);
CLRPROF_SIZE(COR_FIELD_OFFSET, 8);
CLRPROF_SIZE(COR_PRF_EVENT_DATA, 16);
CLRPROF_SIZE(COR_PRF_FILTER_DATA, 16);
CLRPROF_STATIC_ASSERT(HRESULT_FROM_WIN32(ERROR_INSUFFICIENT_BUFFER) ==
                          CLRPROF_E_INSUFFICIENT_BUFFER, "HRESULT_FROM_WIN32(122)");
CLRPROF_STATIC_ASSERT(HRESULT_FROM_WIN32(ERROR_MOD_NOT_FOUND) == CLRPROF_E_MOD_NOT_FOUND,
                      "HRESULT_FROM_WIN32(126)");
CLRPROF_STATIC_ASSERT(HRESULT_FROM_WIN32(ERROR_PROC_NOT_FOUND) == CLRPROF_E_PROC_NOT_FOUND,
                      "HRESULT_FROM_WIN32(127)");

/* ---- pointer-sized types and structs: the LP64 numbers of section 0 ---------------------- */

#if UINTPTR_MAX == UINT64_MAX
CLRPROF_SIZE(UINT_PTR, 8);
CLRPROF_SIZE(FunctionID, 8);
CLRPROF_SIZE(ObjectHandleID, 8);
CLRPROF_SIZE(FunctionIDOrClientID, 8);
CLRPROF_SIZE(COR_PRF_CODE_INFO, 16);
CLRPROF_SIZE(COR_PRF_FUNCTION, 16);
CLRPROF_SIZE(COR_PRF_METHOD, 16);
CLRPROF_OFFSET(COR_PRF_METHOD, methodId, 8);
CLRPROF_SIZE(COR_PRF_FUNCTION_ARGUMENT_RANGE, 16);
CLRPROF_OFFSET(COR_PRF_FUNCTION_ARGUMENT_RANGE, length, 8);
CLRPROF_SIZE(COR_PRF_FUNCTION_ARGUMENT_INFO, 24);
CLRPROF_OFFSET(COR_PRF_FUNCTION_ARGUMENT_INFO, ranges, 8);
CLRPROF_SIZE(COR_PRF_GC_GENERATION_RANGE, 32);
CLRPROF_OFFSET(COR_PRF_GC_GENERATION_RANGE, rangeStart, 8);
CLRPROF_SIZE(COR_PRF_NONGC_HEAP_RANGE, 24);
CLRPROF_SIZE(COR_PRF_EX_CLAUSE_INFO, 32);
CLRPROF_OFFSET(COR_PRF_EX_CLAUSE_INFO, programCounter, 8);
CLRPROF_SIZE(COR_PRF_EVENTPIPE_PROVIDER_CONFIG, 32);
CLRPROF_OFFSET(COR_PRF_EVENTPIPE_PROVIDER_CONFIG, loggingLevel, 16);
CLRPROF_OFFSET(COR_PRF_EVENTPIPE_PROVIDER_CONFIG, filterData, 24);
CLRPROF_SIZE(COR_PRF_EVENTPIPE_PARAM_DESC, 16);
CLRPROF_OFFSET(COR_PRF_EVENTPIPE_PARAM_DESC, name, 8);
CLRPROF_SIZE(COR_PRF_ASSEMBLY_REFERENCE_INFO, 48);
CLRPROF_OFFSET(COR_PRF_ASSEMBLY_REFERENCE_INFO, szName, 16);
CLRPROF_OFFSET(COR_PRF_ASSEMBLY_REFERENCE_INFO, pbHashValue, 32);
CLRPROF_OFFSET(COR_PRF_ASSEMBLY_REFERENCE_INFO, dwAssemblyRefFlags, 44);
CLRPROF_SIZE(ASSEMBLYMETADATA, 56);
#endif

/* ---- ICorProfilerCallback11: every callback method, slots 0..97 ---------------------- */

CLRPROF_SLOT(ICorProfilerCallback11Vtbl, QueryInterface, 0);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, AddRef, 1);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, Release, 2);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, Initialize, 3);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, Shutdown, 4);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, AppDomainCreationStarted, 5);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, AppDomainCreationFinished, 6);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, AppDomainShutdownStarted, 7);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, AppDomainShutdownFinished, 8);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, AssemblyLoadStarted, 9);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, AssemblyLoadFinished, 10);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, AssemblyUnloadStarted, 11);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, AssemblyUnloadFinished, 12);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ModuleLoadStarted, 13);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ModuleLoadFinished, 14);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ModuleUnloadStarted, 15);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ModuleUnloadFinished, 16);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ModuleAttachedToAssembly, 17);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ClassLoadStarted, 18);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ClassLoadFinished, 19);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ClassUnloadStarted, 20);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ClassUnloadFinished, 21);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, FunctionUnloadStarted, 22);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, JITCompilationStarted, 23);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, JITCompilationFinished, 24);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, JITCachedFunctionSearchStarted, 25);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, JITCachedFunctionSearchFinished, 26);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, JITFunctionPitched, 27);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, JITInlining, 28);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ThreadCreated, 29);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ThreadDestroyed, 30);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ThreadAssignedToOSThread, 31);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RemotingClientInvocationStarted, 32);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RemotingClientSendingMessage, 33);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RemotingClientReceivingReply, 34);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RemotingClientInvocationFinished, 35);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RemotingServerReceivingMessage, 36);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RemotingServerInvocationStarted, 37);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RemotingServerInvocationReturned, 38);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RemotingServerSendingReply, 39);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, UnmanagedToManagedTransition, 40);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ManagedToUnmanagedTransition, 41);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RuntimeSuspendStarted, 42);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RuntimeSuspendFinished, 43);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RuntimeSuspendAborted, 44);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RuntimeResumeStarted, 45);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RuntimeResumeFinished, 46);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RuntimeThreadSuspended, 47);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RuntimeThreadResumed, 48);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, MovedReferences, 49);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ObjectAllocated, 50);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ObjectsAllocatedByClass, 51);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ObjectReferences, 52);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RootReferences, 53);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionThrown, 54);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionSearchFunctionEnter, 55);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionSearchFunctionLeave, 56);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionSearchFilterEnter, 57);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionSearchFilterLeave, 58);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionSearchCatcherFound, 59);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionOSHandlerEnter, 60);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionOSHandlerLeave, 61);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionUnwindFunctionEnter, 62);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionUnwindFunctionLeave, 63);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionUnwindFinallyEnter, 64);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionUnwindFinallyLeave, 65);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionCatcherEnter, 66);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionCatcherLeave, 67);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, COMClassicVTableCreated, 68);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, COMClassicVTableDestroyed, 69);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionCLRCatcherFound, 70);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ExceptionCLRCatcherExecute, 71);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ThreadNameChanged, 72);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, GarbageCollectionStarted, 73);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, SurvivingReferences, 74);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, GarbageCollectionFinished, 75);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, FinalizeableObjectQueued, 76);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, RootReferences2, 77);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, HandleCreated, 78);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, HandleDestroyed, 79);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, InitializeForAttach, 80);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ProfilerAttachComplete, 81);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ProfilerDetachSucceeded, 82);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ReJITCompilationStarted, 83);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, GetReJITParameters, 84);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ReJITCompilationFinished, 85);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ReJITError, 86);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, MovedReferences2, 87);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, SurvivingReferences2, 88);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ConditionalWeakTableElementReferences, 89);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, GetAssemblyReferences, 90);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, ModuleInMemorySymbolsUpdated, 91);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, DynamicMethodJITCompilationStarted, 92);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, DynamicMethodJITCompilationFinished, 93);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, DynamicMethodUnloaded, 94);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, EventPipeEventDelivered, 95);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, EventPipeProviderCreated, 96);
CLRPROF_SLOT(ICorProfilerCallback11Vtbl, LoadAsNotificationOnly, 97);

/* Each level is the one below plus its own methods (section 1.1). */
CLRPROF_VTBL_SIZE(ICorProfilerCallbackVtbl, 72);
CLRPROF_VTBL_SIZE(ICorProfilerCallback2Vtbl, 80);
CLRPROF_VTBL_SIZE(ICorProfilerCallback3Vtbl, 83);
CLRPROF_VTBL_SIZE(ICorProfilerCallback4Vtbl, 89);
CLRPROF_VTBL_SIZE(ICorProfilerCallback5Vtbl, 90);
CLRPROF_VTBL_SIZE(ICorProfilerCallback6Vtbl, 91);
CLRPROF_VTBL_SIZE(ICorProfilerCallback7Vtbl, 92);
CLRPROF_VTBL_SIZE(ICorProfilerCallback8Vtbl, 94);
CLRPROF_VTBL_SIZE(ICorProfilerCallback9Vtbl, 95);
CLRPROF_VTBL_SIZE(ICorProfilerCallback10Vtbl, 97);
CLRPROF_VTBL_SIZE(ICorProfilerCallback11Vtbl, 98);

/* ---- ICorProfilerInfo15: every info method, slots 0..114 ----------------------------- */

CLRPROF_SLOT(ICorProfilerInfo15Vtbl, QueryInterface, 0);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, AddRef, 1);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, Release, 2);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetClassFromObject, 3);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetClassFromToken, 4);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetCodeInfo, 5);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetEventMask, 6);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetFunctionFromIP, 7);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetFunctionFromToken, 8);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetHandleFromThread, 9);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetObjectSize, 10);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, IsArrayClass, 11);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetThreadInfo, 12);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetCurrentThreadID, 13);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetClassIDInfo, 14);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetFunctionInfo, 15);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, SetEventMask, 16);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, SetEnterLeaveFunctionHooks, 17);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, SetFunctionIDMapper, 18);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetTokenAndMetaDataFromFunction, 19);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetModuleInfo, 20);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetModuleMetaData, 21);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetILFunctionBody, 22);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetILFunctionBodyAllocator, 23);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, SetILFunctionBody, 24);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetAppDomainInfo, 25);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetAssemblyInfo, 26);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, SetFunctionReJIT, 27);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, ForceGC, 28);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, SetILInstrumentedCodeMap, 29);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetInprocInspectionInterface, 30);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetInprocInspectionIThisThread, 31);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetThreadContext, 32);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, BeginInprocDebugging, 33);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EndInprocDebugging, 34);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetILToNativeMapping, 35);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, DoStackSnapshot, 36);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, SetEnterLeaveFunctionHooks2, 37);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetFunctionInfo2, 38);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetStringLayout, 39);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetClassLayout, 40);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetClassIDInfo2, 41);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetCodeInfo2, 42);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetClassFromTokenAndTypeArgs, 43);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetFunctionFromTokenAndTypeArgs, 44);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EnumModuleFrozenObjects, 45);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetArrayObjectInfo, 46);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetBoxClassLayout, 47);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetThreadAppDomain, 48);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetRVAStaticAddress, 49);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetAppDomainStaticAddress, 50);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetThreadStaticAddress, 51);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetContextStaticAddress, 52);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetStaticFieldInfo, 53);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetGenerationBounds, 54);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetObjectGeneration, 55);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetNotifiedExceptionClauseInfo, 56);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EnumJITedFunctions, 57);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, RequestProfilerDetach, 58);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, SetFunctionIDMapper2, 59);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetStringLayout2, 60);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, SetEnterLeaveFunctionHooks3, 61);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, SetEnterLeaveFunctionHooks3WithInfo, 62);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetFunctionEnter3Info, 63);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetFunctionLeave3Info, 64);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetFunctionTailcall3Info, 65);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EnumModules, 66);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetRuntimeInformation, 67);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetThreadStaticAddress2, 68);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetAppDomainsContainingModule, 69);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetModuleInfo2, 70);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EnumThreads, 71);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, InitializeCurrentThread, 72);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, RequestReJIT, 73);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, RequestRevert, 74);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetCodeInfo3, 75);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetFunctionFromIP2, 76);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetReJITIDs, 77);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetILToNativeMapping2, 78);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EnumJITedFunctions2, 79);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetObjectSize2, 80);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetEventMask2, 81);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, SetEventMask2, 82);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EnumNgenModuleMethodsInliningThisMethod, 83);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, ApplyMetaData, 84);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetInMemorySymbolsLength, 85);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, ReadInMemorySymbols, 86);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, IsFunctionDynamic, 87);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetFunctionFromIP3, 88);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetDynamicFunctionInfo, 89);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetNativeCodeStartAddresses, 90);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetILToNativeMapping3, 91);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetCodeInfo4, 92);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EnumerateObjectReferences, 93);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, IsFrozenObject, 94);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetLOHObjectSizeThreshold, 95);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, RequestReJITWithInliners, 96);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, SuspendRuntime, 97);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, ResumeRuntime, 98);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetEnvironmentVariable, 99);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, SetEnvironmentVariable, 100);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EventPipeStartSession, 101);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EventPipeAddProviderToSession, 102);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EventPipeStopSession, 103);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EventPipeCreateProvider, 104);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EventPipeGetProviderInfo, 105);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EventPipeDefineEvent, 106);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EventPipeWriteEvent, 107);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, CreateHandle, 108);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, DestroyHandle, 109);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetObjectIDFromHandle, 110);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EnumerateNonGCObjects, 111);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, GetNonGCHeapBounds, 112);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EventPipeCreateProvider2, 113);
CLRPROF_SLOT(ICorProfilerInfo15Vtbl, EnumerateGCHeapObjects, 114);

CLRPROF_VTBL_SIZE(ICorProfilerInfoVtbl, 36);
CLRPROF_VTBL_SIZE(ICorProfilerInfo2Vtbl, 57);
CLRPROF_VTBL_SIZE(ICorProfilerInfo3Vtbl, 71);
CLRPROF_VTBL_SIZE(ICorProfilerInfo4Vtbl, 81);
CLRPROF_VTBL_SIZE(ICorProfilerInfo5Vtbl, 83);
CLRPROF_VTBL_SIZE(ICorProfilerInfo6Vtbl, 84);
CLRPROF_VTBL_SIZE(ICorProfilerInfo7Vtbl, 87);
CLRPROF_VTBL_SIZE(ICorProfilerInfo8Vtbl, 90);
CLRPROF_VTBL_SIZE(ICorProfilerInfo9Vtbl, 93);
CLRPROF_VTBL_SIZE(ICorProfilerInfo10Vtbl, 99);
CLRPROF_VTBL_SIZE(ICorProfilerInfo11Vtbl, 101);
CLRPROF_VTBL_SIZE(ICorProfilerInfo12Vtbl, 108);
CLRPROF_VTBL_SIZE(ICorProfilerInfo13Vtbl, 111);
CLRPROF_VTBL_SIZE(ICorProfilerInfo14Vtbl, 114);
CLRPROF_VTBL_SIZE(ICorProfilerInfo15Vtbl, 115);

/* ---- the small interfaces (section 1.2) ---------------------------------------------- */

CLRPROF_SLOT(IUnknownVtbl, QueryInterface, 0);
CLRPROF_SLOT(IUnknownVtbl, AddRef, 1);
CLRPROF_SLOT(IUnknownVtbl, Release, 2);
CLRPROF_VTBL_SIZE(IUnknownVtbl, 3);

CLRPROF_SLOT(IClassFactoryVtbl, QueryInterface, 0);
CLRPROF_SLOT(IClassFactoryVtbl, AddRef, 1);
CLRPROF_SLOT(IClassFactoryVtbl, Release, 2);
CLRPROF_SLOT(IClassFactoryVtbl, CreateInstance, 3);
CLRPROF_SLOT(IClassFactoryVtbl, LockServer, 4);
CLRPROF_VTBL_SIZE(IClassFactoryVtbl, 5);

CLRPROF_SLOT(ICorProfilerObjectEnumVtbl, QueryInterface, 0);
CLRPROF_SLOT(ICorProfilerObjectEnumVtbl, AddRef, 1);
CLRPROF_SLOT(ICorProfilerObjectEnumVtbl, Release, 2);
CLRPROF_SLOT(ICorProfilerObjectEnumVtbl, Skip, 3);
CLRPROF_SLOT(ICorProfilerObjectEnumVtbl, Reset, 4);
CLRPROF_SLOT(ICorProfilerObjectEnumVtbl, Clone, 5);
CLRPROF_SLOT(ICorProfilerObjectEnumVtbl, GetCount, 6);
CLRPROF_SLOT(ICorProfilerObjectEnumVtbl, Next, 7);
CLRPROF_VTBL_SIZE(ICorProfilerObjectEnumVtbl, 8);

CLRPROF_SLOT(ICorProfilerFunctionEnumVtbl, QueryInterface, 0);
CLRPROF_SLOT(ICorProfilerFunctionEnumVtbl, AddRef, 1);
CLRPROF_SLOT(ICorProfilerFunctionEnumVtbl, Release, 2);
CLRPROF_SLOT(ICorProfilerFunctionEnumVtbl, Skip, 3);
CLRPROF_SLOT(ICorProfilerFunctionEnumVtbl, Reset, 4);
CLRPROF_SLOT(ICorProfilerFunctionEnumVtbl, Clone, 5);
CLRPROF_SLOT(ICorProfilerFunctionEnumVtbl, GetCount, 6);
CLRPROF_SLOT(ICorProfilerFunctionEnumVtbl, Next, 7);
CLRPROF_VTBL_SIZE(ICorProfilerFunctionEnumVtbl, 8);

CLRPROF_SLOT(ICorProfilerModuleEnumVtbl, QueryInterface, 0);
CLRPROF_SLOT(ICorProfilerModuleEnumVtbl, AddRef, 1);
CLRPROF_SLOT(ICorProfilerModuleEnumVtbl, Release, 2);
CLRPROF_SLOT(ICorProfilerModuleEnumVtbl, Skip, 3);
CLRPROF_SLOT(ICorProfilerModuleEnumVtbl, Reset, 4);
CLRPROF_SLOT(ICorProfilerModuleEnumVtbl, Clone, 5);
CLRPROF_SLOT(ICorProfilerModuleEnumVtbl, GetCount, 6);
CLRPROF_SLOT(ICorProfilerModuleEnumVtbl, Next, 7);
CLRPROF_VTBL_SIZE(ICorProfilerModuleEnumVtbl, 8);

CLRPROF_SLOT(ICorProfilerThreadEnumVtbl, QueryInterface, 0);
CLRPROF_SLOT(ICorProfilerThreadEnumVtbl, AddRef, 1);
CLRPROF_SLOT(ICorProfilerThreadEnumVtbl, Release, 2);
CLRPROF_SLOT(ICorProfilerThreadEnumVtbl, Skip, 3);
CLRPROF_SLOT(ICorProfilerThreadEnumVtbl, Reset, 4);
CLRPROF_SLOT(ICorProfilerThreadEnumVtbl, Clone, 5);
CLRPROF_SLOT(ICorProfilerThreadEnumVtbl, GetCount, 6);
CLRPROF_SLOT(ICorProfilerThreadEnumVtbl, Next, 7);
CLRPROF_VTBL_SIZE(ICorProfilerThreadEnumVtbl, 8);

CLRPROF_SLOT(ICorProfilerMethodEnumVtbl, QueryInterface, 0);
CLRPROF_SLOT(ICorProfilerMethodEnumVtbl, AddRef, 1);
CLRPROF_SLOT(ICorProfilerMethodEnumVtbl, Release, 2);
CLRPROF_SLOT(ICorProfilerMethodEnumVtbl, Skip, 3);
CLRPROF_SLOT(ICorProfilerMethodEnumVtbl, Reset, 4);
CLRPROF_SLOT(ICorProfilerMethodEnumVtbl, Clone, 5);
CLRPROF_SLOT(ICorProfilerMethodEnumVtbl, GetCount, 6);
CLRPROF_SLOT(ICorProfilerMethodEnumVtbl, Next, 7);
CLRPROF_VTBL_SIZE(ICorProfilerMethodEnumVtbl, 8);

CLRPROF_SLOT(IMethodMallocVtbl, QueryInterface, 0);
CLRPROF_SLOT(IMethodMallocVtbl, AddRef, 1);
CLRPROF_SLOT(IMethodMallocVtbl, Release, 2);
CLRPROF_SLOT(IMethodMallocVtbl, Alloc, 3);
CLRPROF_VTBL_SIZE(IMethodMallocVtbl, 4);

CLRPROF_SLOT(ICorProfilerFunctionControlVtbl, QueryInterface, 0);
CLRPROF_SLOT(ICorProfilerFunctionControlVtbl, AddRef, 1);
CLRPROF_SLOT(ICorProfilerFunctionControlVtbl, Release, 2);
CLRPROF_SLOT(ICorProfilerFunctionControlVtbl, SetCodegenFlags, 3);
CLRPROF_SLOT(ICorProfilerFunctionControlVtbl, SetILFunctionBody, 4);
CLRPROF_SLOT(ICorProfilerFunctionControlVtbl, SetILInstrumentedCodeMap, 5);
CLRPROF_VTBL_SIZE(ICorProfilerFunctionControlVtbl, 6);

CLRPROF_SLOT(ICorProfilerAssemblyReferenceProviderVtbl, QueryInterface, 0);
CLRPROF_SLOT(ICorProfilerAssemblyReferenceProviderVtbl, AddRef, 1);
CLRPROF_SLOT(ICorProfilerAssemblyReferenceProviderVtbl, Release, 2);
CLRPROF_SLOT(ICorProfilerAssemblyReferenceProviderVtbl, AddAssemblyReference, 3);
CLRPROF_VTBL_SIZE(ICorProfilerAssemblyReferenceProviderVtbl, 4);

CLRPROF_SLOT(ICLRProfilingVtbl, QueryInterface, 0);
CLRPROF_SLOT(ICLRProfilingVtbl, AddRef, 1);
CLRPROF_SLOT(ICLRProfilingVtbl, Release, 2);
CLRPROF_SLOT(ICLRProfilingVtbl, AttachProfiler, 3);
CLRPROF_VTBL_SIZE(ICLRProfilingVtbl, 4);

#endif
