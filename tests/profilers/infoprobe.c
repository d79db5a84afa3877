/* infoprobe.c - a test profiler that calls methods of every ICorProfilerInfo level, 1 to 15,
 * through their vtable slots in the live runtime it is attached to, and checks each answer.
 *
 * On ProfilerAttachComplete it starts one profiler thread (SuspendRuntime, ForceGC and the heap
 * walk must not run inside a callback). That thread logs one line per probe,
 *     probe infoN Method ok hr=0x........ key=value ...
 *     probe infoN Method FAIL hr=0x........ key=value ...
 * then "probe_done passed=N failed=M", and asks the runtime to detach the profiler. Values the
 * end-to-end test compares with what the app reports are logged as key=value.
 *
 * Client data options (each is required by the probes that use it):
 *   function=NAME   a method of the app that has been JIT-compiled (Namespace.Type.Method)
 *   array_len=N     the length of the byte arrays the app holds (its "keep" command)
 *   literal=TEXT    a string literal of the app's compiled code, looked for on the frozen heap
 *   env_in=NAME     a variable the app was started with, read through Info11
 *   env_out=NAME    a variable set in the app through Info11, to "infoprobe:" + env_in's value
 */
#define _GNU_SOURCE
#include "clrprof/clrprof_profiler.h"
#include "clrprof/clrprof_util.h"
#include "clrprof/cormeta.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_MODULES 1024
#define MAX_THREADS 256
#define NAME_UNITS 1024 /* UTF-16 units for a module path or a type name */
#define TEXT_CAP 1024
#define PROVIDER_NAME u"ClrAttach-InfoProbe"
#define EVENT_ID 7

/* A UTF-16 literal as the runtime's WCHAR (both are 16-bit code units). */
#define W(lit) ((const WCHAR *)(lit))
/* Calls a method through the interface's vtable. */
#define CALL(itf, method, ...) ((itf)->lpVtbl->method((itf), __VA_ARGS__))
#define CALL0(itf, method) ((itf)->lpVtbl->method(itf))

typedef struct probe {
    clrprof_profiler_t *p;
    int passed, failed;
    /* options */
    char function_name[TEXT_CAP], literal[256], env_in[128], env_out[128];
    unsigned long array_len;
    /* what earlier probes found, for later ones */
    ModuleID modules[MAX_MODULES];
    ULONG module_count;
    ModuleID corelib, sample;
    AssemblyID sample_assembly;
    AppDomainID domain;
    ThreadID main_thread;
    FunctionID function;
    LPCBYTE code_start;
    ULONG code_size;
    ClassID string_class;
    ULONG string_length_offset, string_buffer_offset;
    ObjectID held_array;
    ObjectHandleID handle;
    /* EventPipe deliveries, written by the callbacks on the writing thread */
    EVENTPIPE_PROVIDER provider, created_provider;
    int delivered;
    DWORD delivered_id;
    ULONG delivered_bytes;
    UINT32 delivered_value;
} probe_t;

/* One heap walk: what the ObjectCallback saw. */
typedef struct walk {
    probe_t *s;
    ICorProfilerInfo4 *info;
    ClassID byte_array;
    long objects, strings, arrays, class_failures, array_failures;
    ObjectID first;    /* the first byte[array_len] met */
    SIZE_T first_size; /* its GetObjectSize2 */
    BYTE *first_data;  /* its GetArrayObjectInfo data pointer */
    ObjectID target;   /* an object to look at when met */
    int target_seen;
    ULONG32 target_length;
} walk_t;

/* Logs one probe and counts it; ok means the call behaved as documented and its answer held. */
__attribute__((format(printf, 6, 7))) static void report(probe_t *s, int level, const char *method,
                                                         HRESULT hr, int ok, const char *fmt, ...)
{
    char detail[TEXT_CAP];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    if (ok)
        s->passed++;
    else
        s->failed++;
    clrprof_log(s->p, "probe info%d %s %s hr=0x%08X %s", level, method, ok ? "ok" : "FAIL",
                (unsigned)hr, detail);
}

/* The Info at level N, typed; level 1 has no number in its name, so it is spelled out. */
static ICorProfilerInfo *info1(probe_t *s)
{
    return (ICorProfilerInfo *)(void *)clrprof_info(s->p);
}
#define INFO(s, N) CLRPROF_INFO((s)->p, N)

/* UTF-16 (at most n units, stopping at a NUL) as UTF-8 in out. */
static const char *utf8(const WCHAR *w, size_t n, char *out, size_t cap)
{
    clrprof_utf16_to_utf8(w, n, out, cap);
    return out;
}

/* Whether s ends with tail (module paths are compared by their file name). */
static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && strcmp(s + a - b, tail) == 0;
}

/* Reads the client data options the probes compare against. */
static void read_options(probe_t *s)
{
    size_t len = 0;
    const void *data = clrprof_options(s->p, &len);
    clrprof_option(data, len, "function", s->function_name, sizeof s->function_name);
    clrprof_option(data, len, "literal", s->literal, sizeof s->literal);
    clrprof_option(data, len, "env_in", s->env_in, sizeof s->env_in);
    clrprof_option(data, len, "env_out", s->env_out, sizeof s->env_out);
    clrprof_option_ulong(data, len, "array_len", &s->array_len);
}

/* ---- event masks: Info1 SetEventMask/GetEventMask, Info5 SetEventMask2/GetEventMask2 ---- */

/* Info1: a low-only mask round-trips; SetEventMask also clears the high half (it passes 0). */
static void probe_event_mask(probe_t *s)
{
    ICorProfilerInfo *i1 = info1(s);
    ICorProfilerInfo5 *i5 = INFO(s, 5);
    DWORD want = COR_PRF_ENABLE_STACK_SNAPSHOT | COR_PRF_MONITOR_APPDOMAIN_LOADS, got = 0;
    DWORD low = 0, high = ~0u;
    HRESULT hr = CALL(i1, SetEventMask, want);
    if (SUCCEEDED(hr))
        hr = CALL(i1, GetEventMask, &got);
    if (SUCCEEDED(hr))
        hr = CALL(i5, GetEventMask2, &low, &high);
    report(s, 1, "SetEventMask+GetEventMask", hr,
           SUCCEEDED(hr) && got == want && low == want && high == 0,
           "set=0x%08X got=0x%08X high_after=0x%08X", (unsigned)want, (unsigned)got,
           (unsigned)high);
}

/* Info5: a high flag allowed after attach round-trips; one that is not is refused with
 * CORPROF_E_UNSUPPORTED_FOR_ATTACHING_PROFILER and leaves the mask as it was. */
static void probe_event_mask2(probe_t *s)
{
    ICorProfilerInfo5 *i5 = INFO(s, 5);
    const clrprof_def_t *def = clrprof_definition(s->p);
    DWORD want_low = COR_PRF_ENABLE_STACK_SNAPSHOT;
    DWORD want_high =
        COR_PRF_HIGH_MONITOR_EVENT_PIPE | COR_PRF_HIGH_MONITOR_DYNAMIC_FUNCTION_UNLOADS;
    DWORD low = 0, high = 0, low2 = 0, high2 = 0;
    HRESULT hr = CALL(i5, SetEventMask2, want_low, want_high);
    if (SUCCEEDED(hr))
        hr = CALL(i5, GetEventMask2, &low, &high);
    report(s, 5, "SetEventMask2+GetEventMask2", hr,
           SUCCEEDED(hr) && low == want_low && high == want_high,
           "set_high=0x%08X got_low=0x%08X got_high=0x%08X", (unsigned)want_high, (unsigned)low,
           (unsigned)high);
    hr = CALL(i5, SetEventMask2, want_low, want_high | COR_PRF_HIGH_MONITOR_PINNEDOBJECT_ALLOCATED);
    HRESULT hr2 = CALL(i5, GetEventMask2, &low2, &high2);
    report(s, 5, "SetEventMask2(PINNEDOBJECT_ALLOCATED)", hr,
           hr == CORPROF_E_UNSUPPORTED_FOR_ATTACHING_PROFILER && SUCCEEDED(hr2) &&
               high2 == want_high,
           "refused_for_attach=%d high_after=0x%08X",
           hr == CORPROF_E_UNSUPPORTED_FOR_ATTACHING_PROFILER, (unsigned)high2);
    hr = CALL(i5, SetEventMask2, def->events, def->events_high);
    if (FAILED(hr))
        report(s, 5, "SetEventMask2(restore)", hr, 0, "could not restore the definition's mask");
}

/* ---- runtime, modules, assemblies, domains, threads ------------------------------------- */

/* Info3 GetRuntimeInformation: CoreCLR and a version the test compares with the app's. */
static void probe_runtime(probe_t *s)
{
    ICorProfilerInfo3 *i3 = INFO(s, 3);
    USHORT id = 0, major = 0, minor = 0, build = 0, qfe = 0;
    COR_PRF_RUNTIME_TYPE type = 0;
    WCHAR version[128] = {0};
    ULONG n = 0;
    char text[256];
    HRESULT hr =
        CALL(i3, GetRuntimeInformation, &id, &type, &major, &minor, &build, &qfe, 128, &n, version);
    report(s, 3, "GetRuntimeInformation", hr,
           SUCCEEDED(hr) && type == COR_PRF_CORE_CLR && major >= 5,
           "type=%s major=%u minor=%u build=%u version=%s",
           type == COR_PRF_CORE_CLR ? "CoreCLR" : "other", major, minor, build,
           utf8(version, n, text, sizeof text));
}

/* The file name the runtime gives a module (Info1 GetModuleInfo), or "" with the failure. */
static HRESULT module_path(probe_t *s, ModuleID m, char *out, size_t cap, LPCBYTE *base,
                           AssemblyID *assembly)
{
    WCHAR name[NAME_UNITS];
    ULONG n = 0;
    out[0] = '\0';
    HRESULT hr = CALL(info1(s), GetModuleInfo, m, base, NAME_UNITS, &n, name, assembly);
    if (SUCCEEDED(hr) || hr == CORPROF_E_DATAINCOMPLETE)
        utf8(name, n, out, cap);
    return hr;
}

/* Info3 EnumModules: System.Private.CoreLib and the app's own sample.dll are loaded. */
static void probe_modules(probe_t *s)
{
    ICorProfilerModuleEnum *e = NULL;
    char path[TEXT_CAP], sample_path[TEXT_CAP] = "";
    ULONG fetched = 0;
    HRESULT hr = CALL(INFO(s, 3), EnumModules, &e);
    if (SUCCEEDED(hr)) {
        hr = CALL(e, Next, MAX_MODULES, s->modules, &fetched);
        CALL0(e, Release);
    }
    s->module_count = SUCCEEDED(hr) ? fetched : 0;
    for (ULONG i = 0; i < s->module_count; i++) {
        module_path(s, s->modules[i], path, sizeof path, NULL, NULL);
        if (ends_with(path, "/System.Private.CoreLib.dll"))
            s->corelib = s->modules[i];
        if (ends_with(path, "/sample.dll")) {
            s->sample = s->modules[i];
            snprintf(sample_path, sizeof sample_path, "%s", path);
        }
    }
    report(s, 3, "EnumModules", hr, SUCCEEDED(hr) && s->corelib && s->sample,
           "count=%u corelib=%d sample=%s", (unsigned)s->module_count, s->corelib != 0,
           sample_path);
}

/* Info1 GetModuleInfo on the app's module (base address, path, assembly) and Info3
 * GetModuleInfo2's flags on CoreLib, which is a ReadyToRun image ("NGEN") on disk. */
static void probe_module_info(probe_t *s)
{
    char path[TEXT_CAP];
    LPCBYTE base = NULL;
    DWORD flags = 0;
    HRESULT hr = module_path(s, s->sample, path, sizeof path, &base, &s->sample_assembly);
    report(s, 1, "GetModuleInfo", hr, SUCCEEDED(hr) && base && s->sample_assembly,
           "path=%s base=%p assembly=%d", path, (const void *)base, s->sample_assembly != 0);
    hr = CALL(INFO(s, 3), GetModuleInfo2, s->corelib, NULL, 0, NULL, NULL, NULL, &flags);
    report(s, 3, "GetModuleInfo2", hr,
           SUCCEEDED(hr) && (flags & COR_PRF_MODULE_DISK) && (flags & COR_PRF_MODULE_NGEN) &&
               !(flags & COR_PRF_MODULE_DYNAMIC),
           "corelib_flags=0x%X", (unsigned)flags);
}

/* Info1 GetAssemblyInfo and GetAppDomainInfo: the app's assembly is "sample", its module is
 * the one EnumModules found, and the domain belongs to this process. */
static void probe_assembly_and_domain(probe_t *s)
{
    WCHAR name[NAME_UNITS];
    char text[TEXT_CAP];
    ULONG n = 0;
    ModuleID manifest = 0;
    ProcessID pid = 0;
    HRESULT hr = CALL(info1(s), GetAssemblyInfo, s->sample_assembly, NAME_UNITS, &n, name,
                      &s->domain, &manifest);
    utf8(name, n, text, sizeof text);
    report(s, 1, "GetAssemblyInfo", hr,
           SUCCEEDED(hr) && strcmp(text, "sample") == 0 && manifest == s->sample && s->domain,
           "name=%s manifest_is_sample=%d", text, manifest == s->sample);
    hr = CALL(info1(s), GetAppDomainInfo, s->domain, NAME_UNITS, &n, name, &pid);
    report(s, 1, "GetAppDomainInfo", hr, SUCCEEDED(hr) && pid == (ProcessID)getpid(),
           "name=%s pid=%lu", utf8(name, n, text, sizeof text), (unsigned long)pid);
}

/* Info4 EnumThreads with Info1 GetThreadInfo: the managed threads' OS ids include the main
 * thread (whose id is the pid); Info2 GetThreadAppDomain puts it in the app's domain. */
static void probe_threads(probe_t *s)
{
    ICorProfilerThreadEnum *e = NULL;
    ThreadID threads[MAX_THREADS];
    ULONG count = 0;
    char tids[TEXT_CAP] = "";
    size_t used = 0;
    HRESULT hr = CALL(INFO(s, 4), EnumThreads, &e), info_hr = S_OK;
    if (SUCCEEDED(hr)) {
        hr = CALL(e, Next, MAX_THREADS, threads, &count);
        CALL0(e, Release);
    }
    for (ULONG i = 0; SUCCEEDED(hr) && i < count; i++) {
        DWORD tid = 0;
        HRESULT h = CALL(info1(s), GetThreadInfo, threads[i], &tid);
        if (FAILED(h))
            info_hr = h;
        if (tid == (DWORD)getpid())
            s->main_thread = threads[i];
        if (used + 16 < sizeof tids)
            used += (size_t)snprintf(tids + used, sizeof tids - used, "%s%u", i ? "," : "",
                                     (unsigned)tid);
    }
    report(s, 4, "EnumThreads", hr, SUCCEEDED(hr) && count >= 2, "count=%u", (unsigned)count);
    report(s, 1, "GetThreadInfo", info_hr, SUCCEEDED(info_hr) && s->main_thread, "tids=%s main=%d",
           tids, s->main_thread != 0);
    AppDomainID domain = 0;
    hr = CALL(INFO(s, 2), GetThreadAppDomain, s->main_thread, &domain);
    report(s, 2, "GetThreadAppDomain", hr, SUCCEEDED(hr) && domain == s->domain,
           "main_thread_in_app_domain=%d", domain == s->domain);
}

/* ---- a JIT-compiled method of the app ------------------------------------------------------ */

/* Info3 EnumJITedFunctions: the app's method named by the function option is among them. */
static void probe_jited_functions(probe_t *s)
{
    ICorProfilerFunctionEnum *e = NULL;
    COR_PRF_FUNCTION batch[256];
    ULONG fetched = 0, total = 0;
    char name[TEXT_CAP];
    HRESULT hr = CALL(INFO(s, 3), EnumJITedFunctions, &e);
    while (SUCCEEDED(hr) && SUCCEEDED(CALL(e, Next, 256, batch, &fetched)) && fetched > 0) {
        for (ULONG i = 0; i < fetched; i++) {
            if (s->function || !s->function_name[0])
                break;
            if (SUCCEEDED(clrprof_function_name(s->p, batch[i].functionId, name, sizeof name)) &&
                strcmp(name, s->function_name) == 0)
                s->function = batch[i].functionId;
        }
        total += fetched;
    }
    if (e)
        CALL0(e, Release);
    report(s, 3, "EnumJITedFunctions", hr, SUCCEEDED(hr) && total > 0 && s->function,
           "count=%u function=%s found=%d", (unsigned)total, s->function_name, s->function != 0);
}

/* Info1 GetFunctionInfo, GetCodeInfo and GetFunctionFromIP: the method lives in the app's
 * module, and an address inside its code maps back to it. */
static void probe_function_info(probe_t *s)
{
    ClassID cls = 0;
    ModuleID module = 0;
    mdToken token = 0;
    FunctionID back = 0;
    HRESULT hr = CALL(info1(s), GetFunctionInfo, s->function, &cls, &module, &token);
    report(s, 1, "GetFunctionInfo", hr,
           SUCCEEDED(hr) && module == s->sample && TypeFromToken(token) == mdtMethodDef,
           "in_sample=%d token=0x%08X", module == s->sample, (unsigned)token);
    hr = CALL(info1(s), GetCodeInfo, s->function, &s->code_start, &s->code_size);
    if (SUCCEEDED(hr))
        hr = CALL(info1(s), GetFunctionFromIP, s->code_start + s->code_size / 2, &back);
    report(s, 1, "GetCodeInfo+GetFunctionFromIP", hr,
           SUCCEEDED(hr) && s->code_size && back == s->function, "size=%u ip_maps_back=%d",
           (unsigned)s->code_size, back == s->function);
}

/* Info2 GetCodeInfo2, Info8 IsFunctionDynamic and GetFunctionFromIP3, Info9
 * GetNativeCodeStartAddresses and GetCodeInfo4: every view of the same code agrees. */
static void probe_code_versions(probe_t *s)
{
    COR_PRF_CODE_INFO code[4];
    ULONG32 ncode = 0, naddr = 0, ncode4 = 0;
    UINT_PTR addr[16];
    BOOL dynamic = TRUE;
    FunctionID back = 0;
    ReJITID rejit = 1;
    HRESULT hr = CALL(INFO(s, 2), GetCodeInfo2, s->function, 4, &ncode, code);
    report(s, 2, "GetCodeInfo2", hr,
           SUCCEEDED(hr) && ncode >= 1 && code[0].startAddress == (UINT_PTR)s->code_start,
           "regions=%u same_start=%d", (unsigned)ncode,
           ncode && code[0].startAddress == (UINT_PTR)s->code_start);
    hr = CALL(INFO(s, 8), IsFunctionDynamic, s->function, &dynamic);
    if (SUCCEEDED(hr))
        hr = CALL(INFO(s, 8), GetFunctionFromIP3, s->code_start, &back, &rejit);
    report(s, 8, "IsFunctionDynamic+GetFunctionFromIP3", hr,
           SUCCEEDED(hr) && !dynamic && back == s->function && rejit == 0,
           "dynamic=%d maps_back=%d rejit=%lu", (int)dynamic, back == s->function,
           (unsigned long)rejit);
    hr = CALL(INFO(s, 9), GetNativeCodeStartAddresses, s->function, 0, 16, &naddr, addr);
    int found = 0;
    for (ULONG32 i = 0; SUCCEEDED(hr) && i < naddr && i < 16; i++)
        found |= addr[i] == (UINT_PTR)s->code_start;
    if (SUCCEEDED(hr) && found)
        hr = CALL(INFO(s, 9), GetCodeInfo4, (UINT_PTR)s->code_start, 4, &ncode4, code);
    report(s, 9, "GetNativeCodeStartAddresses+GetCodeInfo4", hr,
           SUCCEEDED(hr) && found && ncode4 >= 1 && code[0].size == s->code_size,
           "versions=%u current_listed=%d size=%lu", (unsigned)naddr, found,
           ncode4 ? (unsigned long)code[0].size : 0UL);
}

/* ---- types: System.String and its layout ----------------------------------------------- */

/* A type's namespace-qualified name from the module's metadata (Info1 GetModuleMetaData). */
static HRESULT type_name(probe_t *s, ModuleID module, mdTypeDef td, char *out, size_t cap)
{
    IUnknown *unk = NULL;
    WCHAR name[NAME_UNITS];
    ULONG n = 0;
    out[0] = '\0';
    HRESULT hr = CALL(info1(s), GetModuleMetaData, module, ofRead, &IID_IMetaDataImport, &unk);
    if (FAILED(hr) || !unk)
        return FAILED(hr) ? hr : E_FAIL;
    IMetaDataImport *md = (IMetaDataImport *)(void *)unk;
    hr = CALL(md, GetTypeDefProps, td, name, NAME_UNITS, &n, NULL, NULL);
    if (SUCCEEDED(hr))
        utf8(name, n, out, cap);
    CALL0(md, Release);
    return hr;
}

/* Info1 GetModuleMetaData + GetClassFromToken: CoreLib's System.String typedef as a ClassID. */
static void probe_string_class(probe_t *s)
{
    IUnknown *unk = NULL;
    mdTypeDef td = 0;
    HRESULT hr = CALL(info1(s), GetModuleMetaData, s->corelib, ofRead, &IID_IMetaDataImport, &unk);
    if (SUCCEEDED(hr) && unk) {
        IMetaDataImport *md = (IMetaDataImport *)(void *)unk;
        hr = CALL(md, FindTypeDefByName, W(u"System.String"), mdTokenNil, &td);
        CALL0(md, Release);
    }
    if (SUCCEEDED(hr))
        hr = CALL(info1(s), GetClassFromToken, s->corelib, td, &s->string_class);
    report(s, 1, "GetModuleMetaData+GetClassFromToken", hr, SUCCEEDED(hr) && s->string_class,
           "class=System.String token=0x%08X", (unsigned)td);
}

/* Info2 GetClassIDInfo2: System.String comes from CoreLib, is not generic, and derives from
 * System.Object (named through Info1 GetClassIDInfo and the metadata). */
static void probe_class_info(probe_t *s)
{
    ModuleID module = 0, parent_module = 0;
    mdTypeDef td = 0, parent_td = 0;
    ClassID parent = 0;
    ULONG32 type_args = 99;
    char parent_name[TEXT_CAP] = "";
    HRESULT hr = CALL(INFO(s, 2), GetClassIDInfo2, s->string_class, &module, &td, &parent, 0,
                      &type_args, NULL);
    if (SUCCEEDED(hr))
        hr = CALL(info1(s), GetClassIDInfo, parent, &parent_module, &parent_td);
    if (SUCCEEDED(hr))
        hr = type_name(s, parent_module, parent_td, parent_name, sizeof parent_name);
    report(s, 2, "GetClassIDInfo2", hr,
           SUCCEEDED(hr) && module == s->corelib && type_args == 0 &&
               strcmp(parent_name, "System.Object") == 0,
           "class=System.String module_is_corelib=%d type_args=%u parent=%s", module == s->corelib,
           (unsigned)type_args, parent_name);
}

/* Info2 GetStringLayout and Info3 GetStringLayout2 agree; the frozen-heap probe then reads a
 * real string with these offsets, which proves them. */
static void probe_string_layout(probe_t *s)
{
    ULONG buffer_length = 0, length = 0, buffer = 0, length2 = 0, buffer2 = 0;
    HRESULT hr = CALL(INFO(s, 2), GetStringLayout, &buffer_length, &length, &buffer);
    HRESULT hr2 = CALL(INFO(s, 3), GetStringLayout2, &length2, &buffer2);
    s->string_length_offset = length2;
    s->string_buffer_offset = buffer2;
    report(s, 2, "GetStringLayout", hr,
           SUCCEEDED(hr) && length >= sizeof(void *) && buffer > length,
           "length_offset=%u buffer_offset=%u", (unsigned)length, (unsigned)buffer);
    report(s, 3, "GetStringLayout2", hr2, SUCCEEDED(hr2) && length2 == length && buffer2 == buffer,
           "length_offset=%u buffer_offset=%u", (unsigned)length2, (unsigned)buffer2);
}

/* ---- levels 6, 7, 11 ----------------------------------------------------------------------- */

/* Info6's only method reads NGEN inlining data, which the runtime keeps from attached
 * profilers: CORPROF_E_UNSUPPORTED_FOR_ATTACHING_PROFILER is the documented answer. */
static void probe_ngen_inliners(probe_t *s)
{
    ICorProfilerMethodEnum *e = NULL;
    BOOL incomplete = FALSE;
    HRESULT hr = CALL(INFO(s, 6), EnumNgenModuleMethodsInliningThisMethod, s->corelib, s->corelib,
                      TokenFromRid(1, mdtMethodDef), &incomplete, &e);
    if (e)
        CALL0(e, Release);
    report(s, 6, "EnumNgenModuleMethodsInliningThisMethod", hr,
           hr == CORPROF_E_UNSUPPORTED_FOR_ATTACHING_PROFILER, "refused_for_attach=%d",
           hr == CORPROF_E_UNSUPPORTED_FOR_ATTACHING_PROFILER);
}

/* Info7: the app loaded its own dll with its PDB from bytes, so exactly that module has
 * in-memory symbols, a portable PDB ("BSJB"); ApplyMetaData accepts the app's module. */
static void probe_symbols(probe_t *s)
{
    ICorProfilerInfo7 *i7 = INFO(s, 7);
    DWORD bytes = 0, read = 0;
    BYTE magic[5] = {0};
    int with_symbols = 0;
    HRESULT hr = S_OK;
    for (ULONG i = 0; i < s->module_count; i++) {
        DWORD n = 0;
        HRESULT h = CALL(i7, GetInMemorySymbolsLength, s->modules[i], &n);
        if (FAILED(h))
            hr = h;
        if (SUCCEEDED(h) && n > 0 && with_symbols++ == 0) {
            bytes = n;
            hr = CALL(i7, ReadInMemorySymbols, s->modules[i], 0, magic, 4, &read);
        }
    }
    report(s, 7, "GetInMemorySymbolsLength+ReadInMemorySymbols", hr,
           SUCCEEDED(hr) && with_symbols == 1 && read == 4 && memcmp(magic, "BSJB", 4) == 0,
           "modules_with_symbols=%d bytes=%u magic=%s", with_symbols, (unsigned)bytes,
           read == 4 && clrprof_printable(magic, 4) ? (const char *)magic : "?");
    hr = CALL(i7, ApplyMetaData, s->sample);
    report(s, 7, "ApplyMetaData", hr, SUCCEEDED(hr), "module=sample.dll");
}

/* A variable's value as the runtime sees it (Info11 GetEnvironmentVariable). */
static HRESULT get_env(probe_t *s, const char *name, char *out, size_t cap)
{
    WCHAR wname[128], value[512];
    ULONG n = 0;
    out[0] = '\0';
    if (clrprof_utf8_to_utf16(name, wname, 128) < 0)
        return E_INVALIDARG;
    HRESULT hr = CALL(INFO(s, 11), GetEnvironmentVariable, wname, 512, &n, value);
    if (SUCCEEDED(hr))
        utf8(value, n, out, cap);
    return hr;
}

/* Info11: reads a variable the app started with, sets one the app then reads itself. */
static void probe_environment(probe_t *s)
{
    char seed[256], want[300], got[512];
    WCHAR wname[128], wvalue[300];
    HRESULT hr = get_env(s, s->env_in, seed, sizeof seed);
    report(s, 11, "GetEnvironmentVariable", hr, SUCCEEDED(hr) && seed[0], "name=%s value=%s",
           s->env_in, seed);
    snprintf(want, sizeof want, "infoprobe:%s", seed);
    hr = clrprof_utf8_to_utf16(s->env_out, wname, 128) < 0 ||
                 clrprof_utf8_to_utf16(want, wvalue, 300) < 0
             ? E_INVALIDARG
             : CALL(INFO(s, 11), SetEnvironmentVariable, wname, wvalue);
    if (SUCCEEDED(hr))
        hr = get_env(s, s->env_out, got, sizeof got);
    report(s, 11, "SetEnvironmentVariable", hr, SUCCEEDED(hr) && strcmp(got, want) == 0,
           "name=%s value=%s", s->env_out, SUCCEEDED(hr) ? got : "");
}

/* ---- Info12: an EventPipe provider, event and session of our own ---------------------------- */

/* Callback10: a profiler session delivers events synchronously, on the writing thread. */
static HRESULT on_eventpipe_event(ICorProfilerCallback11 *This, EVENTPIPE_PROVIDER provider,
                                  DWORD event_id, DWORD version, ULONG cb_metadata,
                                  LPCBYTE metadata, ULONG cb_data, LPCBYTE data, LPCGUID activity,
                                  LPCGUID related, ThreadID thread, ULONG frames, UINT_PTR stack[])
{
    probe_t *s = clrprof_state(clrprof_of(This));
    (void)version, (void)cb_metadata, (void)metadata, (void)activity, (void)related;
    (void)thread, (void)frames, (void)stack;
    if (provider != __atomic_load_n(&s->provider, __ATOMIC_ACQUIRE))
        return S_OK;
    UINT32 value = 0;
    memcpy(&value, data, cb_data < sizeof value ? cb_data : sizeof value);
    s->delivered_id = event_id;
    s->delivered_bytes = cb_data;
    s->delivered_value = value;
    __atomic_add_fetch(&s->delivered, 1, __ATOMIC_RELEASE);
    return S_OK;
}

/* Callback10: the runtime announces providers while COR_PRF_HIGH_MONITOR_EVENT_PIPE is set. */
static HRESULT on_eventpipe_provider(ICorProfilerCallback11 *This, EVENTPIPE_PROVIDER provider)
{
    probe_t *s = clrprof_state(clrprof_of(This));
    __atomic_store_n(&s->created_provider, provider, __ATOMIC_RELEASE);
    return S_OK;
}

/* Creates the provider and names it back (EventPipeCreateProvider, EventPipeGetProviderInfo). */
static HRESULT make_provider(probe_t *s, EVENTPIPE_EVENT *event)
{
    ICorProfilerInfo12 *i12 = INFO(s, 12);
    EVENTPIPE_PROVIDER provider = 0;
    COR_PRF_EVENTPIPE_PARAM_DESC param = {COR_PRF_EVENTPIPE_UINT32, 0, W(u"Value")};
    WCHAR name[128];
    ULONG n = 0;
    char text[256] = "";
    HRESULT hr = CALL(i12, EventPipeCreateProvider, W(PROVIDER_NAME), &provider);
    __atomic_store_n(&s->provider, provider, __ATOMIC_RELEASE);
    if (SUCCEEDED(hr))
        hr = CALL(i12, EventPipeGetProviderInfo, provider, 128, &n, name);
    if (SUCCEEDED(hr))
        utf8(name, n, text, sizeof text);
    report(s, 12, "EventPipeCreateProvider+EventPipeGetProviderInfo", hr,
           SUCCEEDED(hr) && strcmp(text, "ClrAttach-InfoProbe") == 0, "name=%s announced=%d", text,
           provider && __atomic_load_n(&s->created_provider, __ATOMIC_ACQUIRE) == provider);
    if (SUCCEEDED(hr))
        hr = CALL(i12, EventPipeDefineEvent, provider, W(u"Probe"), EVENT_ID, 0x1, 0,
                  COR_PRF_EVENTPIPE_INFORMATIONAL, 0, FALSE, 1, &param, event);
    return hr;
}

/* Info12: a session on our provider delivers the event we write, payload intact. */
static void probe_eventpipe(probe_t *s)
{
    ICorProfilerInfo12 *i12 = INFO(s, 12);
    EVENTPIPE_EVENT event = 0;
    EVENTPIPE_SESSION session = 0;
    UINT32 value = 0xC0DE0000u ^ (UINT32)getpid();
    COR_PRF_EVENTPIPE_PROVIDER_CONFIG config = {W(PROVIDER_NAME), ~(UINT64)0,
                                                COR_PRF_EVENTPIPE_VERBOSE, NULL};
    COR_PRF_EVENT_DATA data = {(UINT64)(uintptr_t)&value, sizeof value, 0};
    HRESULT hr = make_provider(s, &event);
    if (SUCCEEDED(hr))
        hr = CALL(i12, EventPipeStartSession, 1, &config, FALSE, &session);
    if (SUCCEEDED(hr))
        hr = CALL(i12, EventPipeWriteEvent, event, 1, &data, NULL, NULL);
    for (int i = 0; SUCCEEDED(hr) && i < 100 && !__atomic_load_n(&s->delivered, __ATOMIC_ACQUIRE);
         i++)
        clrprof_sleep(s->p, 10);
    HRESULT stop = session ? CALL(i12, EventPipeStopSession, session) : S_OK;
    if (SUCCEEDED(hr))
        hr = stop;
    int delivered = __atomic_load_n(&s->delivered, __ATOMIC_ACQUIRE);
    report(s, 12, "EventPipeStartSession+EventPipeWriteEvent+EventPipeStopSession", hr,
           SUCCEEDED(hr) && delivered == 1 && s->delivered_id == EVENT_ID &&
               s->delivered_bytes == sizeof value && s->delivered_value == value,
           "delivered=%d event_id=%u bytes=%u payload_intact=%d", delivered,
           (unsigned)s->delivered_id, (unsigned)s->delivered_bytes,
           delivered && s->delivered_value == value);
}

/* ---- Info14 and Info10: the frozen (non-GC) heap ---------------------------------------- */

/* Whether a frozen object is a System.String equal to text, read with the layout Info2/3 gave. */
static int string_equals(probe_t *s, ObjectID obj, const char *text)
{
    WCHAR want[256];
    long n = clrprof_utf8_to_utf16(text, want, 256);
    if (n < 0 || *(const ClassID *)obj != s->string_class)
        return 0;
    int32_t length;
    memcpy(&length, (const BYTE *)obj + s->string_length_offset, sizeof length);
    return length == n &&
           memcmp((const BYTE *)obj + s->string_buffer_offset, want, (size_t)n * 2) == 0;
}

/* Whether obj lies in the used part of one of the frozen segments. */
static int in_ranges(ObjectID obj, const COR_PRF_NONGC_HEAP_RANGE *r, ULONG n)
{
    for (ULONG i = 0; i < n; i++)
        if (obj >= r[i].rangeStart && obj < r[i].rangeStart + r[i].rangeLength)
            return 1;
    return 0;
}

/* Info14 GetNonGCHeapBounds: the frozen segments (string literals live there since .NET 8). */
static ULONG frozen_ranges(probe_t *s, COR_PRF_NONGC_HEAP_RANGE **out)
{
    ULONG n = 0, n2 = 0;
    size_t bytes = 0;
    *out = NULL;
    HRESULT hr = CALL(INFO(s, 14), GetNonGCHeapBounds, 0, &n, NULL);
    if (SUCCEEDED(hr) && n > 0 && (*out = calloc(n, sizeof **out)) != NULL)
        hr = CALL(INFO(s, 14), GetNonGCHeapBounds, n, &n2, *out);
    for (ULONG i = 0; SUCCEEDED(hr) && *out && i < n && i < n2; i++)
        bytes += (*out)[i].rangeLength;
    report(s, 14, "GetNonGCHeapBounds", hr, SUCCEEDED(hr) && n > 0 && n2 == n && bytes > 0,
           "segments=%u used_bytes=%zu", (unsigned)n, bytes);
    return SUCCEEDED(hr) && *out ? n : 0;
}

/* Info14 EnumerateNonGCObjects: every object lies in a reported segment and the app's literal
 * is there; Info10 IsFrozenObject says so; Info2 GetObjectGeneration refuses it as not GC. */
static void probe_frozen(probe_t *s)
{
    COR_PRF_NONGC_HEAP_RANGE *ranges = NULL;
    ULONG nranges = frozen_ranges(s, &ranges), fetched = 0, total = 0, outside = 0, strings = 0;
    ObjectID batch[256], literal = 0;
    ICorProfilerObjectEnum *e = NULL;
    HRESULT hr = CALL(INFO(s, 14), EnumerateNonGCObjects, &e);
    while (SUCCEEDED(hr) && SUCCEEDED(CALL(e, Next, 256, batch, &fetched)) && fetched > 0) {
        for (ULONG i = 0; i < fetched; i++) {
            outside += !in_ranges(batch[i], ranges, nranges);
            strings += *(const ClassID *)batch[i] == s->string_class;
            if (!literal && s->literal[0] && string_equals(s, batch[i], s->literal))
                literal = batch[i];
        }
        total += fetched;
    }
    if (e)
        CALL0(e, Release);
    free(ranges);
    report(s, 14, "EnumerateNonGCObjects", hr,
           SUCCEEDED(hr) && total > 0 && outside == 0 && literal,
           "objects=%u strings=%u outside_segments=%u literal=%s found=%d", (unsigned)total,
           (unsigned)strings, (unsigned)outside, s->literal, literal != 0);
    BOOL frozen = FALSE;
    COR_PRF_GC_GENERATION_RANGE range;
    hr = literal ? CALL(INFO(s, 10), IsFrozenObject, literal, &frozen) : E_FAIL;
    report(s, 10, "IsFrozenObject", hr, SUCCEEDED(hr) && frozen, "literal_frozen=%d", (int)frozen);
    hr = literal ? CALL(INFO(s, 2), GetObjectGeneration, literal, &range) : E_FAIL;
    report(s, 2, "GetObjectGeneration(frozen)", hr, hr == CORPROF_E_NOT_GC_OBJECT,
           "not_gc_object=%d", hr == CORPROF_E_NOT_GC_OBJECT);
}

/* Info10 GetLOHObjectSizeThreshold: the test starts the app with DOTNET_GCLOHThreshold. */
static void probe_loh_threshold(probe_t *s)
{
    DWORD threshold = 0;
    HRESULT hr = CALL(INFO(s, 10), GetLOHObjectSizeThreshold, &threshold);
    report(s, 10, "GetLOHObjectSizeThreshold", hr, SUCCEEDED(hr) && threshold >= 85000,
           "threshold=%u", (unsigned)threshold);
}

/* ---- Info15 heap walks, Info10 suspension, Info13 handles --------------------------------- */

/* Whether cls is byte[] (Info1 IsArrayClass: element U1, rank 1). */
static int is_byte_array(walk_t *w, ClassID cls)
{
    CorElementType elem = 0;
    ClassID base = 0;
    ULONG rank = 0;
    if (w->byte_array)
        return cls == w->byte_array;
    if (CALL(w->info, IsArrayClass, cls, &elem, &base, &rank) != S_OK || elem != ELEMENT_TYPE_U1 ||
        rank != 1)
        return 0;
    w->byte_array = cls;
    return 1;
}

/* ObjectCallback for EnumerateGCHeapObjects: the runtime is suspended, so objects may be
 * inspected (Info1 GetClassFromObject, Info2 GetArrayObjectInfo, Info4 GetObjectSize2). */
static BOOL on_heap_object(ObjectID obj, void *arg)
{
    walk_t *w = arg;
    ClassID cls = 0;
    ULONG32 length = 0;
    int lower = 0;
    BYTE *data = NULL;
    w->objects++;
    if (CALL(w->info, GetClassFromObject, obj, &cls) != S_OK || !cls) {
        w->class_failures++;
        return TRUE;
    }
    w->strings += cls == w->s->string_class;
    if (!is_byte_array(w, cls))
        return TRUE;
    if (FAILED(CALL(w->info, GetArrayObjectInfo, obj, 1, &length, &lower, &data))) {
        w->array_failures++;
        return TRUE;
    }
    if (obj == w->target)
        w->target_seen = 1, w->target_length = length;
    if (length != w->s->array_len)
        return TRUE;
    if (w->arrays++ == 0) {
        w->first = obj;
        w->first_data = data;
        CALL(w->info, GetObjectSize2, obj, &w->first_size);
    }
    return TRUE;
}

/* Info15 on a native thread with nothing suspended: the runtime compares the suspending
 * thread (none) with the caller's EE Thread (none), takes the two NULLs for "this thread is
 * suspending without SuspendRuntime" and refuses with CORPROF_E_SUSPENSION_IN_PROGRESS. */
static void note_walk_without_suspension(probe_t *s)
{
    walk_t w = {.s = s, .info = INFO(s, 4), .target = 0};
    HRESULT hr = CALL(INFO(s, 15), EnumerateGCHeapObjects, on_heap_object, &w);
    clrprof_log(s->p,
                "note info15 EnumerateGCHeapObjects from a native thread without "
                "SuspendRuntime hr=0x%08X objects=%ld",
                (unsigned)hr, w.objects);
}

/* Reports what the walk inside SuspendRuntime found about the app's arrays (Info15, Info1,
 * Info2, Info4), and checks the first array's place in the GC heap (Info2, Info10). */
static void report_walk(probe_t *s, HRESULT hr, const walk_t *w)
{
    report(s, 15, "EnumerateGCHeapObjects", hr,
           SUCCEEDED(hr) && w->objects > 100 && w->class_failures == 0 && w->strings > 0 &&
               w->arrays > 0,
           "objects=%ld strings=%ld arrays=%ld array_len=%lu class_failures=%ld", w->objects,
           w->strings, w->arrays, s->array_len, w->class_failures);
    report(s, 1, "GetClassFromObject+IsArrayClass", hr,
           SUCCEEDED(hr) && w->byte_array && w->class_failures == 0, "byte_array_class=%d",
           w->byte_array != 0);
    report(s, 2, "GetArrayObjectInfo", hr,
           SUCCEEDED(hr) && w->first && w->array_failures == 0 &&
               w->first_data > (BYTE *)w->first && w->first_data < (BYTE *)w->first + 64,
           "length=%lu data_offset=%ld", s->array_len,
           w->first ? (long)(w->first_data - (BYTE *)w->first) : -1L);
    report(s, 4, "GetObjectSize2", hr,
           SUCCEEDED(hr) && w->first && w->first_size >= s->array_len + 16 &&
               w->first_size < s->array_len + 64,
           "size=%zu", (size_t)w->first_size);
}

/* While suspended: Info2 GetObjectGeneration places the array in a GC generation range,
 * Info10 IsFrozenObject says it is not frozen, Info13 CreateHandle pins it down for later. */
static void inspect_held_array(probe_t *s)
{
    COR_PRF_GC_GENERATION_RANGE range = {0};
    BOOL frozen = TRUE;
    ObjectID back = 0;
    HRESULT hr = CALL(INFO(s, 2), GetObjectGeneration, s->held_array, &range);
    report(s, 2, "GetObjectGeneration", hr,
           SUCCEEDED(hr) && range.generation <= COR_PRF_GC_GEN_2 &&
               s->held_array >= range.rangeStart &&
               s->held_array < range.rangeStart + range.rangeLength,
           "generation=%d in_range=%d", (int)range.generation,
           s->held_array >= range.rangeStart &&
               s->held_array < range.rangeStart + range.rangeLength);
    hr = CALL(INFO(s, 10), IsFrozenObject, s->held_array, &frozen);
    report(s, 10, "IsFrozenObject(gc)", hr, SUCCEEDED(hr) && !frozen, "array_frozen=%d",
           (int)frozen);
    ClassID cls = 0;
    HRESULT inspect = CALL(info1(s), GetClassFromObject, s->held_array, &cls);
    clrprof_log(s->p,
                "note info1 GetClassFromObject while SuspendRuntime holds, outside a heap "
                "walk, from a native thread: hr=0x%08X",
                (unsigned)inspect);
    hr = CALL(INFO(s, 13), CreateHandle, s->held_array, COR_PRF_HANDLE_TYPE_STRONG, &s->handle);
    if (SUCCEEDED(hr))
        hr = CALL(INFO(s, 13), GetObjectIDFromHandle, s->handle, &back);
    report(s, 13, "CreateHandle+GetObjectIDFromHandle", hr, SUCCEEDED(hr) && back == s->held_array,
           "same_object=%d", back == s->held_array);
}

/* Info10 SuspendRuntime, a heap walk and object inspection while suspended, ResumeRuntime,
 * and a second ResumeRuntime that the runtime must refuse. */
static void probe_suspended_heap(probe_t *s)
{
    ICorProfilerInfo10 *i10 = INFO(s, 10);
    walk_t w = {.s = s, .info = INFO(s, 4)};
    HRESULT hr = CALL0(i10, SuspendRuntime), walk = E_FAIL;
    report(s, 10, "SuspendRuntime", hr, SUCCEEDED(hr), "from=profiler_thread");
    if (FAILED(hr))
        return;
    walk = CALL(INFO(s, 15), EnumerateGCHeapObjects, on_heap_object, &w);
    s->held_array = w.first;
    if (s->held_array)
        inspect_held_array(s);
    hr = CALL0(i10, ResumeRuntime);
    report(s, 10, "ResumeRuntime", hr, SUCCEEDED(hr), "resumed=1");
    report_walk(s, walk, &w);
    hr = CALL0(i10, ResumeRuntime);
    report(s, 10, "ResumeRuntime(not suspended)", hr, hr == CORPROF_E_UNSUPPORTED_CALL_SEQUENCE,
           "refused=%d", hr == CORPROF_E_UNSUPPORTED_CALL_SEQUENCE);
}

/* Info1 ForceGC, then Info13: the strong handle kept the app's array alive and tracked it if
 * the collection moved it; a walk with Info15's own suspension finds it by its new address. */
static void probe_handle_across_gc(probe_t *s)
{
    ObjectID now = 0;
    walk_t w = {.s = s, .info = INFO(s, 4)};
    if (!s->handle) {
        report(s, 13, "GetObjectIDFromHandle(after ForceGC)", E_FAIL, 0, "no handle was created");
        return;
    }
    HRESULT hr = CALL0(info1(s), ForceGC);
    report(s, 1, "ForceGC", hr, SUCCEEDED(hr), "from=profiler_thread");
    if (SUCCEEDED(hr))
        hr = CALL(INFO(s, 13), GetObjectIDFromHandle, s->handle, &now);
    w.target = now;
    if (SUCCEEDED(hr))
        hr = CALL(INFO(s, 15), EnumerateGCHeapObjects, on_heap_object, &w);
    report(s, 13, "GetObjectIDFromHandle(after ForceGC)", hr,
           SUCCEEDED(hr) && now && w.target_seen && w.target_length == s->array_len,
           "moved=%d found_in_heap=%d length=%u own_suspension_walk_objects=%ld",
           now != s->held_array, w.target_seen, (unsigned)w.target_length, w.objects);
    hr = CALL(INFO(s, 13), DestroyHandle, s->handle);
    report(s, 13, "DestroyHandle", hr, SUCCEEDED(hr), "destroyed=1");
    s->handle = NULL;
}

/* ---- the probe thread --------------------------------------------------------------------- */

/* Whether this thread has become an EE thread, and whether a synchronous-only Info method
 * (GetLOHObjectSizeThreshold) still accepts it outside a callback. */
static void note_thread_kind(probe_t *s, const char *when)
{
    ThreadID self = 0;
    DWORD threshold = 0;
    HRESULT hr = CALL(info1(s), GetCurrentThreadID, &self);
    HRESULT sync = CALL(INFO(s, 10), GetLOHObjectSizeThreshold, &threshold);
    clrprof_log(s->p,
                "note thread %s: GetCurrentThreadID hr=0x%08X ee_thread=%d; "
                "synchronous GetLOHObjectSizeThreshold hr=0x%08X",
                when, (unsigned)hr, SUCCEEDED(hr) && self != 0, (unsigned)sync);
}

/* Runs the probes in dependency order (later ones use what earlier ones found). */
static void run_probes(probe_t *s)
{
    ThreadID self = 0;
    HRESULT hr = CALL(info1(s), GetCurrentThreadID, &self);
    report(s, 1, "GetCurrentThreadID", hr, hr == CORPROF_E_NOT_MANAGED_THREAD, "native_thread=%d",
           hr == CORPROF_E_NOT_MANAGED_THREAD);
    hr = CALL0(INFO(s, 4), InitializeCurrentThread);
    report(s, 4, "InitializeCurrentThread", hr, SUCCEEDED(hr), "before=SuspendRuntime");
    probe_event_mask(s);
    probe_event_mask2(s);
    probe_runtime(s);
    probe_modules(s);
    probe_module_info(s);
    probe_assembly_and_domain(s);
    probe_threads(s);
    probe_jited_functions(s);
    if (s->function) {
        probe_function_info(s);
        probe_code_versions(s);
    }
    probe_string_class(s);
    probe_class_info(s);
    probe_string_layout(s);
    probe_ngen_inliners(s);
    probe_symbols(s);
    probe_environment(s);
    probe_frozen(s);
    probe_loh_threshold(s);
    note_walk_without_suspension(s);
    probe_suspended_heap(s);
    /* Late: EventPipeStopSession gives this native thread an EE Thread object, after which
     * synchronous-only methods refuse it until ForceGC marks it (see note_thread_kind). */
    probe_eventpipe(s);
    note_thread_kind(s, "after EventPipe calls");
    probe_handle_across_gc(s);
    note_thread_kind(s, "after ForceGC");
}

/* The profiler thread: probe, summarise, then ask to be detached (the test waits for the
 * library to be unmapped). */
static void probe_main(clrprof_profiler_t *p, void *arg)
{
    probe_t *s = clrprof_state(p);
    (void)arg;
    s->p = p;
    read_options(s);
    if (clrprof_info_level(p) < 15)
        clrprof_log(p,
                    "probe info%d levels FAIL hr=0x%08X the runtime offers only ICorProfilerInfo%d",
                    clrprof_info_level(p) + 1, (unsigned)E_NOINTERFACE, clrprof_info_level(p));
    else
        run_probes(s);
    clrprof_log(p, "probe_done passed=%d failed=%d", s->passed, s->failed);
    HRESULT hr = clrprof_request_detach(p, "infoprobe finished");
    clrprof_log(p, "probe_detach_requested hr=0x%08X", (unsigned)hr);
}

/* ProfilerAttachComplete: the probes run on a thread of ours, not inside this callback. */
static void infoprobe_attached(clrprof_profiler_t *p)
{
    int err = clrprof_thread_start(p, probe_main, NULL);
    if (err) {
        clrprof_log(p, "probe_done passed=0 failed=1 (no probe thread: %s)", strerror(err));
        clrprof_request_detach(p, "infoprobe could not start its thread");
    }
}

/* ProfilerDetachSucceeded, after the SDK joined the probe thread: the test waits for this. */
static void infoprobe_detached(clrprof_profiler_t *p)
{
    clrprof_log(p, "probe_detached");
}

/* {3E468266-414A-4419-B7D4-FB4EA48C57C8} */
static const clrprof_def_t infoprobe = {
    .name = "infoprobe",
    .clsid = {0x3E468266, 0x414A, 0x4419, {0xB7, 0xD4, 0xFB, 0x4E, 0xA4, 0x8C, 0x57, 0xC8}},
    .events = COR_PRF_MONITOR_NONE,
    .events_high = COR_PRF_HIGH_MONITOR_EVENT_PIPE,
    .state_size = sizeof(probe_t),
    .attached = infoprobe_attached,
    .detached = infoprobe_detached,
    .callbacks = {.EventPipeEventDelivered = on_eventpipe_event,
                  .EventPipeProviderCreated = on_eventpipe_provider},
};
CLRPROF_DEFINE(infoprobe)
