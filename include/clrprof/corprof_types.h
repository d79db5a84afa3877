/* corprof_types.h - scalar types, GUIDs, HRESULTs, event-mask flags, enums and structs of the
 * CoreCLR profiling API, laid out as the runtime's PAL defines them on LP64 Linux.
 *
 * Include clrprof/corprof.h rather than this file directly.
 *
 * Rules this file keeps (docs/profiling-api.md section 0):
 *   - ULONG and DWORD are 32 bits (not `unsigned long`), BOOL is a 32-bit int.
 *   - WCHAR is a 16-bit UTF-16 code unit; wchar_t (32 bits on Linux) never appears.
 *   - Every runtime enum is passed as 4 bytes. Each one is a typedef of a 32-bit integer with
 *     its values as constants; masks that reach bit 31 are unsigned #defines, never C enums.
 */
#ifndef CLRPROF_CORPROF_TYPES_H
#define CLRPROF_CORPROF_TYPES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Compile-time checks that work in both languages. */
#ifdef __cplusplus
#define CLRPROF_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define CLRPROF_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/* Marks header-defined constants (the IIDs) that a translation unit may not use. */
#define CLRPROF_UNUSED __attribute__((unused))

/* ---------------------------------------------------------------------------------------- */
/* Scalars (PAL, LP64)                                                                       */
/* ---------------------------------------------------------------------------------------- */

typedef int32_t HRESULT;
typedef int32_t LONG;
typedef int32_t INT;
typedef int32_t INT32;
typedef int32_t LONG32;
typedef uint32_t ULONG;
typedef uint32_t DWORD;
typedef uint32_t UINT;
typedef uint32_t ULONG32;
typedef uint32_t UINT32;
typedef int32_t BOOL;
typedef uint16_t USHORT;
typedef uint16_t WORD;
typedef uint8_t BYTE;
typedef uint8_t UINT8;
typedef uint16_t WCHAR; /* UTF-16 code unit; see the file comment */
typedef int64_t LONGLONG;
typedef uint64_t ULONGLONG;
typedef uint64_t UINT64;
typedef uintptr_t UINT_PTR;
typedef uintptr_t ULONG_PTR;
typedef size_t SIZE_T;
typedef void *LPVOID;
typedef void *HANDLE;
typedef WCHAR *LPWSTR;
typedef const WCHAR *LPCWSTR;
typedef BYTE *LPBYTE;
typedef const BYTE *LPCBYTE;

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

/* Metadata signatures are byte blobs. */
typedef BYTE COR_SIGNATURE;
typedef COR_SIGNATURE *PCOR_SIGNATURE;
typedef const COR_SIGNATURE *PCCOR_SIGNATURE;

/* Metadata tokens: the top byte is the table (see mdt* in cormeta.h), the rest the row. */
typedef uint32_t mdToken;
typedef ULONG RID;
typedef mdToken mdModule;
typedef mdToken mdTypeRef;
typedef mdToken mdTypeDef;
typedef mdToken mdFieldDef;
typedef mdToken mdMethodDef;
typedef mdToken mdParamDef;
typedef mdToken mdInterfaceImpl;
typedef mdToken mdMemberRef;
typedef mdToken mdCustomAttribute;
typedef mdToken mdPermission;
typedef mdToken mdSignature;
typedef mdToken mdEvent;
typedef mdToken mdProperty;
typedef mdToken mdModuleRef;
typedef mdToken mdTypeSpec;
typedef mdToken mdAssembly;
typedef mdToken mdAssemblyRef;
typedef mdToken mdFile;
typedef mdToken mdExportedType;
typedef mdToken mdManifestResource;
typedef mdToken mdGenericParam;
typedef mdToken mdMethodSpec;
typedef mdToken mdGenericParamConstraint;
typedef mdToken mdString;
typedef mdToken mdCPToken;

/* Runtime object identities: opaque pointer-sized values. */
typedef UINT_PTR ProcessID;
typedef UINT_PTR AssemblyID;
typedef UINT_PTR AppDomainID;
typedef UINT_PTR ModuleID;
typedef UINT_PTR ClassID;
typedef UINT_PTR ThreadID;
typedef UINT_PTR ContextID;
typedef UINT_PTR FunctionID;
typedef UINT_PTR ObjectID;
typedef UINT_PTR GCHandleID;
typedef UINT_PTR ReJITID;
typedef UINT_PTR COR_PRF_ELT_INFO;
typedef UINT_PTR COR_PRF_FRAME_INFO;
typedef UINT_PTR EVENTPIPE_PROVIDER;
typedef UINT_PTR EVENTPIPE_EVENT;
typedef UINT64 EVENTPIPE_SESSION;
/* Info13 handle; the runtime's IDL spells it void** (the reference says void*; same ABI). */
typedef void **ObjectHandleID;

/* What an enter/leave hook receives: the FunctionID, or what FunctionIDMapper returned. */
typedef union {
    FunctionID functionID;
    UINT_PTR clientID;
} FunctionIDOrClientID;

/* ---------------------------------------------------------------------------------------- */
/* GUIDs                                                                                     */
/* ---------------------------------------------------------------------------------------- */

#ifndef GUID_DEFINED
#define GUID_DEFINED
/* 16 bytes; Data1..Data3 are stored little-endian on x64, Data4 in textual order. */
typedef struct _GUID {
    uint32_t Data1;
    uint16_t Data2;
    uint16_t Data3;
    uint8_t Data4[8];
} GUID;
#endif

typedef GUID IID;
typedef GUID CLSID;
typedef const GUID *LPCGUID;
/* The C++ headers pass these by reference; at the ABI level that is a pointer. */
typedef const GUID *REFGUID;
typedef const IID *REFIID;
typedef const CLSID *REFCLSID;

/* ---------------------------------------------------------------------------------------- */
/* HRESULTs                                                                                  */
/* ---------------------------------------------------------------------------------------- */

#ifndef SUCCEEDED
#define SUCCEEDED(hr) (((HRESULT)(hr)) >= 0)
#endif
#ifndef FAILED
#define FAILED(hr) (((HRESULT)(hr)) < 0)
#endif

#ifndef S_OK
#define S_OK ((HRESULT)0x00000000)
#endif
#ifndef S_FALSE
#define S_FALSE ((HRESULT)0x00000001)
#endif
#ifndef E_NOTIMPL
#define E_NOTIMPL ((HRESULT)0x80004001)
#endif
#ifndef E_NOINTERFACE
#define E_NOINTERFACE ((HRESULT)0x80004002)
#endif
#ifndef E_POINTER
#define E_POINTER ((HRESULT)0x80004003)
#endif
#ifndef E_FAIL
#define E_FAIL ((HRESULT)0x80004005)
#endif
#ifndef E_UNEXPECTED
#define E_UNEXPECTED ((HRESULT)0x8000FFFF)
#endif
#ifndef E_OUTOFMEMORY
#define E_OUTOFMEMORY ((HRESULT)0x8007000E)
#endif
#ifndef E_INVALIDARG
#define E_INVALIDARG ((HRESULT)0x80070057)
#endif
#ifndef CLASS_E_NOAGGREGATION
#define CLASS_E_NOAGGREGATION ((HRESULT)0x80040110)
#endif
#ifndef CLASS_E_CLASSNOTAVAILABLE
#define CLASS_E_CLASSNOTAVAILABLE ((HRESULT)0x80040111)
#endif

/* Win32 error codes the runtime wraps into HRESULTs (dlopen/dlsym failures, short buffers). */
#ifndef ERROR_INSUFFICIENT_BUFFER
#define ERROR_INSUFFICIENT_BUFFER 122
#endif
#ifndef ERROR_MOD_NOT_FOUND
#define ERROR_MOD_NOT_FOUND 126
#endif
#ifndef ERROR_PROC_NOT_FOUND
#define ERROR_PROC_NOT_FOUND 127
#endif
#ifndef HRESULT_FROM_WIN32
/* Facility 7 (Win32), severity bit set; zero and negative values pass through. */
#define HRESULT_FROM_WIN32(x)                                                                     \
    ((HRESULT)(x) <= 0 ? (HRESULT)(x)                                                             \
                       : (HRESULT)((((uint32_t)(x)) & 0x0000FFFFu) | 0x00070000u | 0x80000000u))
#endif
/* The three wrapped values above, spelled out: 0x8007007A, 0x8007007E, 0x8007007F. */
#define CLRPROF_E_INSUFFICIENT_BUFFER ((HRESULT)0x8007007A)
#define CLRPROF_E_MOD_NOT_FOUND ((HRESULT)0x8007007E)
#define CLRPROF_E_PROC_NOT_FOUND ((HRESULT)0x8007007F)

/* Profiling API failures (facility URT, 0x8013....). */
#define CORPROF_E_FUNCTION_NOT_COMPILED ((HRESULT)0x80131350)
#define CORPROF_E_DATAINCOMPLETE ((HRESULT)0x80131351)
#define CORPROF_E_FUNCTION_NOT_IL ((HRESULT)0x80131354)
#define CORPROF_E_NOT_MANAGED_THREAD ((HRESULT)0x80131355)
#define CORPROF_E_CALL_ONLY_FROM_INIT ((HRESULT)0x80131356)
#define CORPROF_E_NOT_YET_AVAILABLE ((HRESULT)0x8013135B)
#define CORPROF_E_TYPE_IS_PARAMETERIZED ((HRESULT)0x8013135C)
#define CORPROF_E_FUNCTION_IS_PARAMETERIZED ((HRESULT)0x8013135D)
#define CORPROF_E_STACKSNAPSHOT_INVALID_TGT_THREAD ((HRESULT)0x8013135E)
#define CORPROF_E_STACKSNAPSHOT_UNMANAGED_CTX ((HRESULT)0x8013135F)
#define CORPROF_E_STACKSNAPSHOT_UNSAFE ((HRESULT)0x80131360)
#define CORPROF_E_STACKSNAPSHOT_ABORTED ((HRESULT)0x80131361)
#define CORPROF_E_LITERALS_HAVE_NO_ADDRESS ((HRESULT)0x80131362)
#define CORPROF_E_UNSUPPORTED_CALL_SEQUENCE ((HRESULT)0x80131363)
#define CORPROF_E_ASYNCHRONOUS_UNSAFE ((HRESULT)0x80131364)
#define CORPROF_E_CLASSID_IS_ARRAY ((HRESULT)0x80131365)
#define CORPROF_E_CLASSID_IS_COMPOSITE ((HRESULT)0x80131366)
#define CORPROF_E_PROFILER_DETACHING ((HRESULT)0x80131367)
#define CORPROF_E_PROFILER_NOT_ATTACHABLE ((HRESULT)0x80131368)
#define CORPROF_E_UNRECOGNIZED_PIPE_MSG_FORMAT ((HRESULT)0x80131369)
#define CORPROF_E_PROFILER_ALREADY_ACTIVE ((HRESULT)0x8013136A)
#define CORPROF_E_PROFILEE_INCOMPATIBLE_WITH_TRIGGER ((HRESULT)0x8013136B)
#define CORPROF_E_IPC_FAILED ((HRESULT)0x8013136C)
#define CORPROF_E_PROFILEE_PROCESS_NOT_FOUND ((HRESULT)0x8013136D)
#define CORPROF_E_CALLBACK3_REQUIRED ((HRESULT)0x8013136E)
#define CORPROF_E_UNSUPPORTED_FOR_ATTACHING_PROFILER ((HRESULT)0x8013136F)
#define CORPROF_E_IRREVERSIBLE_INSTRUMENTATION_PRESENT ((HRESULT)0x80131370)
#define CORPROF_E_RUNTIME_UNINITIALIZED ((HRESULT)0x80131371)
#define CORPROF_E_IMMUTABLE_FLAGS_SET ((HRESULT)0x80131372)
#define CORPROF_E_PROFILER_NOT_YET_INITIALIZED ((HRESULT)0x80131373)
#define CORPROF_E_INCONSISTENT_WITH_FLAGS ((HRESULT)0x80131374)
#define CORPROF_E_PROFILER_CANCEL_ACTIVATION ((HRESULT)0x80131375)
#define CORPROF_E_CONCURRENT_GC_NOT_PROFILABLE ((HRESULT)0x80131376)
#define CORPROF_E_DEBUGGING_DISABLED ((HRESULT)0x80131378)
#define CORPROF_E_TIMEOUT_WAITING_FOR_CONCURRENT_GC ((HRESULT)0x80131379)
#define CORPROF_E_MODULE_IS_DYNAMIC ((HRESULT)0x8013137A)
#define CORPROF_E_CALLBACK4_REQUIRED ((HRESULT)0x8013137B)
#define CORPROF_E_REJIT_NOT_ENABLED ((HRESULT)0x8013137C)
#define CORPROF_E_FUNCTION_IS_COLLECTIBLE ((HRESULT)0x8013137E)
#define CORPROF_E_CALLBACK6_REQUIRED ((HRESULT)0x80131380)
#define CORPROF_E_CALLBACK7_REQUIRED ((HRESULT)0x80131382)
#define CORPROF_E_REJIT_INLINING_DISABLED ((HRESULT)0x80131383)
#define CORPROF_E_SUSPENSION_IN_PROGRESS ((HRESULT)0x80131388)
#define CORPROF_E_NOT_GC_OBJECT ((HRESULT)0x80131389)

/* Diagnostics IPC server failures (the attach request itself was not understood). */
#define CORDIAGIPC_E_BAD_ENCODING ((HRESULT)0x80131384)
#define CORDIAGIPC_E_UNKNOWN_COMMAND ((HRESULT)0x80131385)
#define CORDIAGIPC_E_UNKNOWN_MAGIC ((HRESULT)0x80131386)
#define CORDIAGIPC_E_UNKNOWN_ERROR ((HRESULT)0x80131387)

/* ---------------------------------------------------------------------------------------- */
/* Event mask, low DWORD (SetEventMask / SetEventMask2 dwEventsLow)                          */
/* ---------------------------------------------------------------------------------------- */

typedef uint32_t COR_PRF_MONITOR;

#define COR_PRF_MONITOR_NONE 0x00000000u
#define COR_PRF_MONITOR_FUNCTION_UNLOADS 0x00000001u
#define COR_PRF_MONITOR_CLASS_LOADS 0x00000002u
#define COR_PRF_MONITOR_MODULE_LOADS 0x00000004u
#define COR_PRF_MONITOR_ASSEMBLY_LOADS 0x00000008u
#define COR_PRF_MONITOR_APPDOMAIN_LOADS 0x00000010u
#define COR_PRF_MONITOR_JIT_COMPILATION 0x00000020u
#define COR_PRF_MONITOR_EXCEPTIONS 0x00000040u
#define COR_PRF_MONITOR_GC 0x00000080u
#define COR_PRF_MONITOR_OBJECT_ALLOCATED 0x00000100u
#define COR_PRF_MONITOR_THREADS 0x00000200u
#define COR_PRF_MONITOR_REMOTING 0x00000400u
#define COR_PRF_MONITOR_CODE_TRANSITIONS 0x00000800u
#define COR_PRF_MONITOR_ENTERLEAVE 0x00001000u
#define COR_PRF_MONITOR_CCW 0x00002000u
#define COR_PRF_MONITOR_REMOTING_COOKIE 0x00004400u /* includes REMOTING */
#define COR_PRF_MONITOR_REMOTING_ASYNC 0x00008400u  /* includes REMOTING */
#define COR_PRF_MONITOR_SUSPENDS 0x00010000u
#define COR_PRF_MONITOR_CACHE_SEARCHES 0x00020000u
#define COR_PRF_ENABLE_REJIT 0x00040000u
#define COR_PRF_ENABLE_INPROC_DEBUGGING 0x00080000u
#define COR_PRF_ENABLE_JIT_MAPS 0x00100000u
#define COR_PRF_DISABLE_INLINING 0x00200000u
#define COR_PRF_DISABLE_OPTIMIZATIONS 0x00400000u
#define COR_PRF_ENABLE_OBJECT_ALLOCATED 0x00800000u
#define COR_PRF_MONITOR_CLR_EXCEPTIONS 0x01000000u
#define COR_PRF_ENABLE_FUNCTION_ARGS 0x02000000u
#define COR_PRF_ENABLE_FUNCTION_RETVAL 0x04000000u
#define COR_PRF_ENABLE_FRAME_INFO 0x08000000u
#define COR_PRF_ENABLE_STACK_SNAPSHOT 0x10000000u
#define COR_PRF_USE_PROFILE_IMAGES 0x20000000u
#define COR_PRF_DISABLE_TRANSPARENCY_CHECKS_UNDER_FULL_TRUST 0x40000000u
#define COR_PRF_DISABLE_ALL_NGEN_IMAGES 0x80000000u

/* Composites, with CoreCLR's values (the .NET Framework SDK header differs for two of them).
 * Written as numbers so the unit tests can check them against the OR of their members. */
#define COR_PRF_MONITOR_ALL 0x0107FFFFu
#define COR_PRF_ALL 0x8FFFFFFFu
/* USE_PROFILE_IMAGES | CODE_TRANSITIONS | ENTERLEAVE */
#define COR_PRF_REQUIRE_PROFILE_IMAGE 0x20001800u
/* What an attach-loaded profiler may set; any other bit fails with
 * CORPROF_E_UNSUPPORTED_FOR_ATTACHING_PROFILER. */
#define COR_PRF_ALLOWABLE_AFTER_ATTACH 0x106502FEu
/* What a notification-only profiler (Callback11) may set. */
#define COR_PRF_ALLOWABLE_NOTIFICATION_PROFILER 0xB1E32B7Fu
/* Settable only inside the startup Initialize; a profiler holding any of them cannot detach. */
#define COR_PRF_MONITOR_IMMUTABLE 0xEE98CC00u

/* ---------------------------------------------------------------------------------------- */
/* Event mask, high DWORD (SetEventMask2 dwEventsHigh)                                       */
/* ---------------------------------------------------------------------------------------- */

typedef uint32_t COR_PRF_HIGH_MONITOR;

#define COR_PRF_HIGH_MONITOR_NONE 0x00000000u
#define COR_PRF_HIGH_ADD_ASSEMBLY_REFERENCES 0x00000001u /* needs Callback6; unused by CoreCLR */
#define COR_PRF_HIGH_IN_MEMORY_SYMBOLS_UPDATED 0x00000002u /* needs Callback7 */
#define COR_PRF_HIGH_MONITOR_DYNAMIC_FUNCTION_UNLOADS 0x00000004u
#define COR_PRF_HIGH_DISABLE_TIERED_COMPILATION 0x00000008u
#define COR_PRF_HIGH_BASIC_GC 0x00000010u
#define COR_PRF_HIGH_MONITOR_GC_MOVED_OBJECTS 0x00000020u
#define COR_PRF_HIGH_REQUIRE_PROFILE_IMAGE 0x00000000u
#define COR_PRF_HIGH_MONITOR_LARGEOBJECT_ALLOCATED 0x00000040u
#define COR_PRF_HIGH_MONITOR_EVENT_PIPE 0x00000080u
#define COR_PRF_HIGH_MONITOR_PINNEDOBJECT_ALLOCATED 0x00000100u

/* Not in ALLOWABLE_AFTER_ATTACH: ADD_ASSEMBLY_REFERENCES, DISABLE_TIERED_COMPILATION and
 * MONITOR_PINNEDOBJECT_ALLOCATED. */
#define COR_PRF_HIGH_ALLOWABLE_AFTER_ATTACH 0x000000F6u
#define COR_PRF_HIGH_ALLOWABLE_NOTIFICATION_PROFILER 0x000000FEu
#define COR_PRF_HIGH_MONITOR_IMMUTABLE 0x00000008u

/* ---------------------------------------------------------------------------------------- */
/* Other enumerations (each passed as 4 bytes)                                               */
/* ---------------------------------------------------------------------------------------- */

/* Special IDs (COR_PRF_MISC); they do not fit a signed int, hence #defines. */
#define PROFILER_PARENT_UNKNOWN 0xFFFFFFFDu
#define PROFILER_GLOBAL_CLASS 0xFFFFFFFEu
#define PROFILER_GLOBAL_MODULE 0xFFFFFFFFu

/* Callback JITCachedFunctionSearchFinished: FOUND is 0, so this is not a boolean. */
typedef int32_t COR_PRF_JIT_CACHE;
enum {
    COR_PRF_CACHED_FUNCTION_FOUND = 0,
    COR_PRF_CACHED_FUNCTION_NOT_FOUND = 1
};

/* Callback Managed/UnmanagedToManagedTransition. */
typedef int32_t COR_PRF_TRANSITION_REASON;
enum {
    COR_PRF_TRANSITION_CALL = 0,
    COR_PRF_TRANSITION_RETURN = 1
};

/* Callback RuntimeSuspendStarted. */
typedef int32_t COR_PRF_SUSPEND_REASON;
enum {
    COR_PRF_SUSPEND_OTHER = 0,
    COR_PRF_SUSPEND_FOR_GC = 1,
    COR_PRF_SUSPEND_FOR_APPDOMAIN_SHUTDOWN = 2,
    COR_PRF_SUSPEND_FOR_CODE_PITCHING = 3,
    COR_PRF_SUSPEND_FOR_SHUTDOWN = 4,
    COR_PRF_SUSPEND_FOR_INPROC_DEBUGGER = 6,
    COR_PRF_SUSPEND_FOR_GC_PREP = 7,
    COR_PRF_SUSPEND_FOR_REJIT = 8,
    COR_PRF_SUSPEND_FOR_PROFILER = 9 /* Info10::SuspendRuntime */
};

/* Callback2 GarbageCollectionStarted. */
typedef int32_t COR_PRF_GC_REASON;
enum {
    COR_PRF_GC_OTHER = 0,
    COR_PRF_GC_INDUCED = 1
};

/* Callback2 RootReferences2: the kind of each root ... */
typedef int32_t COR_PRF_GC_ROOT_KIND;
enum {
    COR_PRF_GC_ROOT_OTHER = 0,
    COR_PRF_GC_ROOT_STACK = 1,
    COR_PRF_GC_ROOT_FINALIZER = 2,
    COR_PRF_GC_ROOT_HANDLE = 3
};

/* ... and its flags (bit set). */
typedef uint32_t COR_PRF_GC_ROOT_FLAGS;
enum {
    COR_PRF_GC_ROOT_PINNING = 0x1,
    COR_PRF_GC_ROOT_WEAKREF = 0x2,
    COR_PRF_GC_ROOT_INTERIOR = 0x4,
    COR_PRF_GC_ROOT_REFCOUNTED = 0x8
};

/* Info2 GetGenerationBounds / GetObjectGeneration. */
typedef int32_t COR_PRF_GC_GENERATION;
enum {
    COR_PRF_GC_GEN_0 = 0,
    COR_PRF_GC_GEN_1 = 1,
    COR_PRF_GC_GEN_2 = 2,
    COR_PRF_GC_LARGE_OBJECT_HEAP = 3,
    COR_PRF_GC_PINNED_OBJECT_HEAP = 4
};

/* Info2 GetStaticFieldInfo (bit set). */
typedef uint32_t COR_PRF_STATIC_TYPE;
enum {
    COR_PRF_FIELD_NOT_A_STATIC = 0x0,
    COR_PRF_FIELD_APP_DOMAIN_STATIC = 0x1,
    COR_PRF_FIELD_THREAD_STATIC = 0x2,
    COR_PRF_FIELD_CONTEXT_STATIC = 0x4,
    COR_PRF_FIELD_RVA_STATIC = 0x8
};

/* Info3 GetRuntimeInformation. */
typedef int32_t COR_PRF_RUNTIME_TYPE;
enum {
    COR_PRF_DESKTOP_CLR = 0x1,
    COR_PRF_CORE_CLR = 0x2
};

/* Info13 CreateHandle. */
typedef int32_t COR_PRF_HANDLE_TYPE;
enum {
    COR_PRF_HANDLE_TYPE_WEAK = 0x1,
    COR_PRF_HANDLE_TYPE_STRONG = 0x2,
    COR_PRF_HANDLE_TYPE_PINNED = 0x3
};

/* Info2 DoStackSnapshot infoFlags. X86_OPTIMIZED applies to x86 Windows only. */
typedef uint32_t COR_PRF_SNAPSHOT_INFO;
enum {
    COR_PRF_SNAPSHOT_DEFAULT = 0x0,
    COR_PRF_SNAPSHOT_REGISTER_CONTEXT = 0x1,
    COR_PRF_SNAPSHOT_X86_OPTIMIZED = 0x2
};

/* ICorProfilerFunctionControl::SetCodegenFlags. DEBUG_INFO is 3 in the runtime's IDL (it is
 * tested as a bit mask there, so it overlaps the other two). */
typedef uint32_t COR_PRF_CODEGEN_FLAGS;
enum {
    COR_PRF_CODEGEN_DISABLE_INLINING = 0x0001,
    COR_PRF_CODEGEN_DISABLE_ALL_OPTIMIZATIONS = 0x0002,
    COR_PRF_CODEGEN_DEBUG_INFO = 0x0003
};

/* Info10 RequestReJITWithInliners dwRejitFlags. */
typedef uint32_t COR_PRF_REJIT_FLAGS;
enum {
    COR_PRF_REJIT_BLOCK_INLINING = 0x1,
    COR_PRF_REJIT_INLINING_CALLBACKS = 0x2
};

/* COR_PRF_EX_CLAUSE_INFO.clauseType. */
typedef int32_t COR_PRF_CLAUSE_TYPE;
enum {
    COR_PRF_CLAUSE_NONE = 0,
    COR_PRF_CLAUSE_FILTER = 1,
    COR_PRF_CLAUSE_CATCH = 2,
    COR_PRF_CLAUSE_FINALLY = 3
};

/* Callback2 FinalizeableObjectQueued finalizerFlags. */
typedef uint32_t COR_PRF_FINALIZER_FLAGS;
enum { COR_PRF_FINALIZER_CRITICAL = 0x1 };

/* Info3 GetModuleInfo2 pdwModuleFlags (bit set). */
typedef uint32_t COR_PRF_MODULE_FLAGS;
enum {
    COR_PRF_MODULE_DISK = 0x1,
    COR_PRF_MODULE_NGEN = 0x2,
    COR_PRF_MODULE_DYNAMIC = 0x4,
    COR_PRF_MODULE_COLLECTIBLE = 0x8,
    COR_PRF_MODULE_RESOURCE = 0x10,
    COR_PRF_MODULE_FLAT_LAYOUT = 0x20,
    COR_PRF_MODULE_WINDOWS_RUNTIME = 0x40
};

/* Info12 EventPipe event parameter types (COR_PRF_EVENTPIPE_PARAM_DESC.type). */
typedef uint32_t COR_PRF_EVENTPIPE_PARAM_TYPE;
enum {
    COR_PRF_EVENTPIPE_OBJECT = 1,
    COR_PRF_EVENTPIPE_BOOLEAN = 3,
    COR_PRF_EVENTPIPE_CHAR = 4,
    COR_PRF_EVENTPIPE_SBYTE = 5,
    COR_PRF_EVENTPIPE_BYTE = 6,
    COR_PRF_EVENTPIPE_INT16 = 7,
    COR_PRF_EVENTPIPE_UINT16 = 8,
    COR_PRF_EVENTPIPE_INT32 = 9,
    COR_PRF_EVENTPIPE_UINT32 = 10,
    COR_PRF_EVENTPIPE_INT64 = 11,
    COR_PRF_EVENTPIPE_UINT64 = 12,
    COR_PRF_EVENTPIPE_SINGLE = 13,
    COR_PRF_EVENTPIPE_DOUBLE = 14,
    COR_PRF_EVENTPIPE_DECIMAL = 15,
    COR_PRF_EVENTPIPE_DATETIME = 16,
    COR_PRF_EVENTPIPE_GUID = 17,
    COR_PRF_EVENTPIPE_STRING = 18,
    COR_PRF_EVENTPIPE_ARRAY = 19
};

/* Info12 EventPipe levels (COR_PRF_EVENTPIPE_PROVIDER_CONFIG.loggingLevel). */
typedef uint32_t COR_PRF_EVENTPIPE_LEVEL;
enum {
    COR_PRF_EVENTPIPE_LOGALWAYS = 0,
    COR_PRF_EVENTPIPE_CRITICAL = 1,
    COR_PRF_EVENTPIPE_ERROR = 2,
    COR_PRF_EVENTPIPE_WARNING = 3,
    COR_PRF_EVENTPIPE_INFORMATIONAL = 4,
    COR_PRF_EVENTPIPE_VERBOSE = 5
};

/* Element type codes of ECMA-335 signatures (Info::IsArrayClass reports one). */
typedef uint32_t CorElementType;
enum {
    ELEMENT_TYPE_END = 0x00,
    ELEMENT_TYPE_VOID = 0x01,
    ELEMENT_TYPE_BOOLEAN = 0x02,
    ELEMENT_TYPE_CHAR = 0x03,
    ELEMENT_TYPE_I1 = 0x04,
    ELEMENT_TYPE_U1 = 0x05,
    ELEMENT_TYPE_I2 = 0x06,
    ELEMENT_TYPE_U2 = 0x07,
    ELEMENT_TYPE_I4 = 0x08,
    ELEMENT_TYPE_U4 = 0x09,
    ELEMENT_TYPE_I8 = 0x0a,
    ELEMENT_TYPE_U8 = 0x0b,
    ELEMENT_TYPE_R4 = 0x0c,
    ELEMENT_TYPE_R8 = 0x0d,
    ELEMENT_TYPE_STRING = 0x0e,
    ELEMENT_TYPE_PTR = 0x0f,
    ELEMENT_TYPE_BYREF = 0x10,
    ELEMENT_TYPE_VALUETYPE = 0x11,
    ELEMENT_TYPE_CLASS = 0x12,
    ELEMENT_TYPE_VAR = 0x13,
    ELEMENT_TYPE_ARRAY = 0x14,
    ELEMENT_TYPE_GENERICINST = 0x15,
    ELEMENT_TYPE_TYPEDBYREF = 0x16,
    ELEMENT_TYPE_I = 0x18,
    ELEMENT_TYPE_U = 0x19,
    ELEMENT_TYPE_FNPTR = 0x1b,
    ELEMENT_TYPE_OBJECT = 0x1c,
    ELEMENT_TYPE_SZARRAY = 0x1d,
    ELEMENT_TYPE_MVAR = 0x1e,
    ELEMENT_TYPE_CMOD_REQD = 0x1f,
    ELEMENT_TYPE_CMOD_OPT = 0x20,
    ELEMENT_TYPE_INTERNAL = 0x21,
    ELEMENT_TYPE_MAX = 0x22,
    ELEMENT_TYPE_MODIFIER = 0x40,
    ELEMENT_TYPE_SENTINEL = 0x41,
    ELEMENT_TYPE_PINNED = 0x45
};

/* Special COR_DEBUG_IL_TO_NATIVE_MAP.ilOffset values. They are negative while ilOffset is a
 * ULONG32, so compare as `map.ilOffset == (ULONG32)NO_MAPPING`. */
typedef int32_t CorDebugIlToNativeMappingTypes;
enum {
    NO_MAPPING = -1,
    PROLOG = -2,
    EPILOG = -3
};

/* ---------------------------------------------------------------------------------------- */
/* Structures (natural alignment; sizes are asserted in corprof_checks.h)                    */
/* ---------------------------------------------------------------------------------------- */

/* One entry of an IL offset remapping (SetILInstrumentedCodeMap). */
typedef struct COR_IL_MAP {
    ULONG32 oldOffset;
    ULONG32 newOffset;
    BOOL fAccurate;
} COR_IL_MAP;

/* One IL range to native range entry (GetILToNativeMapping*). */
typedef struct COR_DEBUG_IL_TO_NATIVE_MAP {
    ULONG32 ilOffset;
    ULONG32 nativeStartOffset;
    ULONG32 nativeEndOffset;
} COR_DEBUG_IL_TO_NATIVE_MAP;

/* A field and its offset from the ObjectID (GetClassLayout). */
typedef struct COR_FIELD_OFFSET {
    mdFieldDef ridOfField;
    ULONG ulOffset;
} COR_FIELD_OFFSET;

/* One contiguous block of native code. */
typedef struct COR_PRF_CODE_INFO {
    UINT_PTR startAddress;
    SIZE_T size;
} COR_PRF_CODE_INFO;

/* A function version: FunctionID plus ReJIT version (FunctionEnum element). */
typedef struct COR_PRF_FUNCTION {
    FunctionID functionId;
    ReJITID reJitId;
} COR_PRF_FUNCTION;

/* A method by module and token (MethodEnum element). */
typedef struct COR_PRF_METHOD {
    ModuleID moduleId;
    mdMethodDef methodId;
} COR_PRF_METHOD;

/* A run of argument bytes in memory. */
typedef struct COR_PRF_FUNCTION_ARGUMENT_RANGE {
    UINT_PTR startAddress;
    ULONG length;
} COR_PRF_FUNCTION_ARGUMENT_RANGE;

/* Argument layout; `ranges` really has numRanges entries (size with GetFunctionEnter3Info). */
typedef struct COR_PRF_FUNCTION_ARGUMENT_INFO {
    ULONG numRanges;
    ULONG totalArgumentSize;
    COR_PRF_FUNCTION_ARGUMENT_RANGE ranges[1];
} COR_PRF_FUNCTION_ARGUMENT_INFO;

/* One address range of a GC generation. */
typedef struct COR_PRF_GC_GENERATION_RANGE {
    COR_PRF_GC_GENERATION generation;
    ObjectID rangeStart;
    UINT_PTR rangeLength;
    UINT_PTR rangeLengthReserved;
} COR_PRF_GC_GENERATION_RANGE;

/* One address range of the non-GC (frozen) heap (Info14). */
typedef struct COR_PRF_NONGC_HEAP_RANGE {
    ObjectID rangeStart;
    UINT_PTR rangeLength;
    UINT_PTR rangeLengthReserved;
} COR_PRF_NONGC_HEAP_RANGE;

/* The exception clause being notified (GetNotifiedExceptionClauseInfo). */
typedef struct COR_PRF_EX_CLAUSE_INFO {
    COR_PRF_CLAUSE_TYPE clauseType;
    UINT_PTR programCounter;
    UINT_PTR framePointer;
    UINT_PTR shadowStackPointer;
} COR_PRF_EX_CLAUSE_INFO;

/* One provider of an EventPipe session (Info12). filterData: "key=value;..." or NULL. */
typedef struct COR_PRF_EVENTPIPE_PROVIDER_CONFIG {
    const WCHAR *providerName;
    UINT64 keywords;
    UINT32 loggingLevel;
    const WCHAR *filterData;
} COR_PRF_EVENTPIPE_PROVIDER_CONFIG;

/* One parameter of an event defined with EventPipeDefineEvent; elementType for arrays. */
typedef struct COR_PRF_EVENTPIPE_PARAM_DESC {
    UINT32 type;
    UINT32 elementType;
    const WCHAR *name;
} COR_PRF_EVENTPIPE_PARAM_DESC;

/* One payload piece of EventPipeWriteEvent. */
typedef struct COR_PRF_EVENT_DATA {
    UINT64 ptr;
    UINT32 size;
    UINT32 reserved;
} COR_PRF_EVENT_DATA;

/* Filter data handed to an EventPipeProviderCallback. */
typedef struct COR_PRF_FILTER_DATA {
    UINT64 Ptr;
    UINT32 Size;
    UINT32 Type;
} COR_PRF_FILTER_DATA;

/* Assembly metadata as cor.h lays it out (used through COR_PRF_ASSEMBLY_REFERENCE_INFO). */
typedef struct OSINFO {
    DWORD dwOSPlatformId;
    DWORD dwOSMajorVersion;
    DWORD dwOSMinorVersion;
} OSINFO;

typedef struct ASSEMBLYMETADATA {
    USHORT usMajorVersion;
    USHORT usMinorVersion;
    USHORT usBuildNumber;
    USHORT usRevisionNumber;
    LPWSTR szLocale;
    ULONG cbLocale;
    DWORD *rProcessor;
    ULONG ulProcessor;
    OSINFO *rOS;
    ULONG ulOS;
} ASSEMBLYMETADATA;

/* An extra assembly reference a profiler declares (Callback6; not raised by CoreCLR). */
typedef struct COR_PRF_ASSEMBLY_REFERENCE_INFO {
    void *pbPublicKeyOrToken;
    ULONG cbPublicKeyOrToken;
    LPCWSTR szName;
    const ASSEMBLYMETADATA *pMetaData;
    void *pbHashValue;
    ULONG cbHashValue;
    DWORD dwAssemblyRefFlags;
} COR_PRF_ASSEMBLY_REFERENCE_INFO;

/* ---------------------------------------------------------------------------------------- */
/* Callback function types the profiler implements (plain C convention on Linux)            */
/* ---------------------------------------------------------------------------------------- */
/* As in the runtime's IDL, most are function types (methods take `Name *`); ObjectCallback is
 * the exception, a pointer type passed by value. */

/* Info2 DoStackSnapshot: once per managed frame (funcId 0 = a run of native frames). Any
 * result but S_OK stops the walk. */
typedef HRESULT StackSnapshotCallback(FunctionID funcId, UINT_PTR ip,
                                      COR_PRF_FRAME_INFO frameInfo, ULONG32 contextSize,
                                      BYTE context[], void *clientData);

/* Info10 EnumerateObjectReferences: return FALSE to stop. */
typedef BOOL ObjectReferenceCallback(ObjectID root, ObjectID *reference, void *clientData);

/* Info15 EnumerateGCHeapObjects: return FALSE to stop. */
typedef BOOL (*ObjectCallback)(ObjectID object, void *callbackState);

/* Info SetFunctionIDMapper / Info3 SetFunctionIDMapper2: the value returned reaches the
 * enter/leave hooks as FunctionIDOrClientID. */
typedef UINT_PTR FunctionIDMapper(FunctionID funcId, BOOL *pbHookFunction);
typedef UINT_PTR FunctionIDMapper2(FunctionID funcId, void *clientData, BOOL *pbHookFunction);

/* Enter/leave/tailcall hooks. None may be set by an attach-loaded profiler. The v1 and v2
 * signatures are not in the reference; these are the documented ones. */
typedef void FunctionEnter(FunctionID funcId);
typedef void FunctionLeave(FunctionID funcId);
typedef void FunctionTailcall(FunctionID funcId);
typedef void FunctionEnter2(FunctionID funcId, UINT_PTR clientData, COR_PRF_FRAME_INFO func,
                            COR_PRF_FUNCTION_ARGUMENT_INFO *argumentInfo);
typedef void FunctionLeave2(FunctionID funcId, UINT_PTR clientData, COR_PRF_FRAME_INFO func,
                            COR_PRF_FUNCTION_ARGUMENT_RANGE *retvalRange);
typedef void FunctionTailcall2(FunctionID funcId, UINT_PTR clientData, COR_PRF_FRAME_INFO func);
typedef void FunctionEnter3(FunctionIDOrClientID functionIDOrClientID);
typedef void FunctionLeave3(FunctionIDOrClientID functionIDOrClientID);
typedef void FunctionTailcall3(FunctionIDOrClientID functionIDOrClientID);
typedef void FunctionEnter3WithInfo(FunctionIDOrClientID functionIDOrClientID,
                                    COR_PRF_ELT_INFO eltInfo);
typedef void FunctionLeave3WithInfo(FunctionIDOrClientID functionIDOrClientID,
                                    COR_PRF_ELT_INFO eltInfo);
typedef void FunctionTailcall3WithInfo(FunctionIDOrClientID functionIDOrClientID,
                                       COR_PRF_ELT_INFO eltInfo);

/* Info14 EventPipeCreateProvider2: called when a session enables or disables the provider. */
typedef void EventPipeProviderCallback(const UINT8 *sourceId, UINT32 isEnabled, UINT8 level,
                                       UINT64 matchAnyKeywords, UINT64 matchAllKeywords,
                                       COR_PRF_FILTER_DATA *filterData, void *callbackContext);

#ifdef __cplusplus
}
#endif

#endif
