/* counter.c - a test profiler that counts and names the callbacks an attached profiler may
 * receive, so end-to-end tests can compare them with what the app did. Each callback lands in
 * its own counter and its own log line, with its arguments decoded (a GC's reason, an
 * exception's class, a function's name): a callback wired to the wrong slot shows as a count
 * in the wrong place, an undecodable argument or a crash.
 *
 * Options (client data): detach_file=PATH  request detach, from a profiler thread, once PATH
 * exists. Log lines, one per event (through clrprof_log, so $CLRPROF_LOG in the tests):
 *   GarbageCollectionStarted n=N reason=induced|other gens=1110
 *   ExceptionThrown class=System.InvalidOperationException n=N
 *   ModuleLoadFinished name=FILE hr=0x... n=N  AssemblyLoadFinished name=NAME hr=0x... n=N
 *   ThreadCreated id=0x... n=N                 ThreadNameChanged name=NAME id=0x... n=N
 *   JITCompilationStarted name=NS.Type.M safe=B n=N name_hr=0x...
 *   JITCompilationFinished name=NS.Type.M hr=0x... safe=B n=N name_hr=0x...
 *   totals gc=N gc_induced=N ... when=W       (when detach is requested and once detached)
 * The value after name= is followed by a space, so a test can match a name exactly.
 */
#include "clrprof/clrprof_profiler.h"
#include "clrprof/clrprof_util.h"
#include "clrprof/cormeta.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Only flags COR_PRF_ALLOWABLE_AFTER_ATTACH permits. */
#define COUNTER_EVENTS                                                                            \
    (COR_PRF_MONITOR_GC | COR_PRF_MONITOR_EXCEPTIONS | COR_PRF_MONITOR_MODULE_LOADS |             \
     COR_PRF_MONITOR_ASSEMBLY_LOADS | COR_PRF_MONITOR_THREADS | COR_PRF_MONITOR_JIT_COMPILATION)

enum {
    GC, GC_INDUCED, EXCEPTIONS, MODULES, ASSEMBLIES, THREADS_CREATED, THREADS_DESTROYED,
    THREAD_NAMES, JIT_STARTED, JIT_FINISHED, N_COUNTERS
};
static const char *const counter_names[N_COUNTERS] = {
    "gc", "gc_induced", "exceptions", "modules", "assemblies", "threads_created",
    "threads_destroyed", "thread_names", "jit_started", "jit_finished"};

typedef struct counter {
    unsigned long counts[N_COUNTERS]; /* updated atomically: callbacks come on many threads */
    char detach_file[512];
} counter_t;

static counter_t *state_of(ICorProfilerCallback11 *This)
{
    return clrprof_state(clrprof_of(This));
}

/* Counts one event and returns the new total, for the log line. */
static unsigned long bump(ICorProfilerCallback11 *This, int which)
{
    return __atomic_add_fetch(&state_of(This)->counts[which], 1, __ATOMIC_RELAXED);
}

/* One line with every counter, so a test can check the log lost nothing. */
static void log_totals(clrprof_profiler_t *p, const char *when)
{
    counter_t *c = clrprof_state(p);
    char line[512];
    size_t len = 0;
    for (int i = 0; i < N_COUNTERS && len < sizeof line; i++)
        len += (size_t)snprintf(line + len, sizeof line - len, " %s=%lu", counter_names[i],
                                __atomic_load_n(&c->counts[i], __ATOMIC_RELAXED));
    clrprof_log(p, "totals%s when=%s", line, when);
}

/* The generations a GC collects and why: induced means GC.Collect (or ForceGC), which the
 * test can count exactly, unlike the runtime's own allocation-triggered GCs. */
static HRESULT on_gc_started(ICorProfilerCallback11 *This, int generations, BOOL collected[],
                             COR_PRF_GC_REASON reason)
{
    unsigned long n = bump(This, GC);
    char gens[9] = "";
    for (int i = 0; i < generations && i < 8; i++)
        gens[i] = collected[i] ? '1' : '0', gens[i + 1] = '\0';
    if (reason == COR_PRF_GC_INDUCED)
        bump(This, GC_INDUCED);
    clrprof_log(clrprof_of(This), "GarbageCollectionStarted n=%lu reason=%s gens=%s", n,
                reason == COR_PRF_GC_INDUCED ? "induced" : "other", gens);
    return S_OK;
}

/* An object's class name (namespace-qualified; enough for the non-nested exception types the
 * tests throw). Object inspection is allowed here: ExceptionThrown runs in cooperative mode. */
static void class_of_object(clrprof_profiler_t *p, ObjectID obj, char *out, size_t cap)
{
    ICorProfilerInfo15 *info = clrprof_info(p);
    ClassID cls = 0;
    ModuleID module = 0;
    mdTypeDef td = mdTypeDefNil;
    IUnknown *unk = NULL;
    snprintf(out, cap, "?");
    if (FAILED(info->lpVtbl->GetClassFromObject(info, obj, &cls)) ||
        FAILED(info->lpVtbl->GetClassIDInfo(info, cls, &module, &td)) ||
        FAILED(info->lpVtbl->GetModuleMetaData(info, module, ofRead, &IID_IMetaDataImport, &unk)) ||
        !unk)
        return;
    IMetaDataImport *md = (IMetaDataImport *)unk;
    WCHAR name[512];
    ULONG n = 0;
    DWORD flags = 0;
    mdToken base = mdTokenNil;
    if (SUCCEEDED(md->lpVtbl->GetTypeDefProps(md, td, name, 512, &n, &flags, &base)))
        clrprof_utf16_to_utf8(name, n, out, cap);
    md->lpVtbl->Release(md);
}

static HRESULT on_exception_thrown(ICorProfilerCallback11 *This, ObjectID thrown)
{
    char name[256];
    unsigned long n = bump(This, EXCEPTIONS);
    class_of_object(clrprof_of(This), thrown, name, sizeof name);
    clrprof_log(clrprof_of(This), "ExceptionThrown class=%s n=%lu", name, n);
    return S_OK;
}

static HRESULT on_module_loaded(ICorProfilerCallback11 *This, ModuleID id, HRESULT status)
{
    char name[512];
    unsigned long n = bump(This, MODULES);
    clrprof_module_name(clrprof_of(This), id, name, sizeof name);
    clrprof_log(clrprof_of(This), "ModuleLoadFinished name=%s hr=0x%08X n=%lu", name,
                (unsigned)status, n);
    return S_OK;
}

static HRESULT on_assembly_loaded(ICorProfilerCallback11 *This, AssemblyID id, HRESULT status)
{
    clrprof_profiler_t *p = clrprof_of(This);
    ICorProfilerInfo15 *info = clrprof_info(p);
    WCHAR wide[512];
    ULONG len = 0;
    AppDomainID domain = 0;
    ModuleID module = 0;
    char name[512] = "?";
    unsigned long n = bump(This, ASSEMBLIES);
    if (SUCCEEDED(info->lpVtbl->GetAssemblyInfo(info, id, 512, &len, wide, &domain, &module)))
        clrprof_utf16_to_utf8(wide, len, name, sizeof name);
    clrprof_log(p, "AssemblyLoadFinished name=%s hr=0x%08X n=%lu", name, (unsigned)status, n);
    return S_OK;
}

static HRESULT on_thread_created(ICorProfilerCallback11 *This, ThreadID id)
{
    unsigned long n = bump(This, THREADS_CREATED);
    clrprof_log(clrprof_of(This), "ThreadCreated id=0x%lx n=%lu", (unsigned long)id, n);
    return S_OK;
}

static HRESULT on_thread_destroyed(ICorProfilerCallback11 *This, ThreadID id)
{
    unsigned long n = bump(This, THREADS_DESTROYED);
    clrprof_log(clrprof_of(This), "ThreadDestroyed id=0x%lx n=%lu", (unsigned long)id, n);
    return S_OK;
}

/* The name arrives as exactly cch units without a NUL. */
static HRESULT on_thread_name(ICorProfilerCallback11 *This, ThreadID id, ULONG cch, WCHAR name[])
{
    char text[256];
    unsigned long n = bump(This, THREAD_NAMES);
    clrprof_utf16_to_utf8(name, name ? cch : 0, text, sizeof text);
    clrprof_log(clrprof_of(This), "ThreadNameChanged name=%s id=0x%lx n=%lu", text,
                (unsigned long)id, n);
    return S_OK;
}

static HRESULT on_jit_started(ICorProfilerCallback11 *This, FunctionID fn, BOOL safe)
{
    char name[1024];
    unsigned long n = bump(This, JIT_STARTED);
    HRESULT hr = clrprof_function_name(clrprof_of(This), fn, name, sizeof name);
    clrprof_log(clrprof_of(This), "JITCompilationStarted name=%s safe=%d n=%lu name_hr=0x%08X",
                name, safe ? 1 : 0, n, (unsigned)hr);
    return S_OK;
}

static HRESULT on_jit_finished(ICorProfilerCallback11 *This, FunctionID fn, HRESULT status,
                               BOOL safe)
{
    char name[1024];
    unsigned long n = bump(This, JIT_FINISHED);
    HRESULT hr = clrprof_function_name(clrprof_of(This), fn, name, sizeof name);
    clrprof_log(clrprof_of(This),
                "JITCompilationFinished name=%s hr=0x%08X safe=%d n=%lu name_hr=0x%08X", name,
                (unsigned)status, safe ? 1 : 0, n, (unsigned)hr);
    return S_OK;
}

/* Polls for the detach file; the request is made from this profiler thread, never from a
 * callback, and the SDK joins the thread before the detach completes. */
static void watch_detach_file(clrprof_profiler_t *p, void *arg)
{
    counter_t *c = arg;
    while (!clrprof_sleep(p, 20)) {
        if (access(c->detach_file, F_OK) != 0)
            continue;
        log_totals(p, "detach_requested");
        HRESULT hr = clrprof_request_detach(p, "detach file appeared");
        clrprof_log(p, "detach_file_request hr=0x%08X", (unsigned)hr);
        return;
    }
}

static HRESULT counter_attach(clrprof_profiler_t *p, const void *data, size_t len)
{
    counter_t *c = clrprof_state(p);
    if (clrprof_option(data, len, "detach_file", c->detach_file, sizeof c->detach_file) < 0)
        return E_INVALIDARG;
    clrprof_log(p, "counter attach events=0x%08X", (unsigned)clrprof_definition(p)->events);
    return S_OK;
}

/* Starts the watcher only now: a detach request inside InitializeForAttach would be refused. */
static void counter_attached(clrprof_profiler_t *p)
{
    counter_t *c = clrprof_state(p);
    int err = c->detach_file[0] ? clrprof_thread_start(p, watch_detach_file, c) : 0;
    clrprof_log(p, "counter attached watcher_err=%d", err);
}

static void counter_detached(clrprof_profiler_t *p)
{
    log_totals(p, "detached");
}

static void counter_shutdown(clrprof_profiler_t *p)
{
    log_totals(p, "shutdown");
}

/* {C0C0A7E5-7A11-4B5E-9D1E-3C0F2B8A6D41} */
static const clrprof_def_t counter = {
    .name = "counter",
    .clsid = {0xC0C0A7E5, 0x7A11, 0x4B5E, {0x9D, 0x1E, 0x3C, 0x0F, 0x2B, 0x8A, 0x6D, 0x41}},
    .events = COUNTER_EVENTS,
    .state_size = sizeof(counter_t),
    .attach = counter_attach,
    .attached = counter_attached,
    .detached = counter_detached,
    .shutdown = counter_shutdown,
    .callbacks = {.GarbageCollectionStarted = on_gc_started,
                  .ExceptionThrown = on_exception_thrown,
                  .ModuleLoadFinished = on_module_loaded,
                  .AssemblyLoadFinished = on_assembly_loaded,
                  .ThreadCreated = on_thread_created,
                  .ThreadDestroyed = on_thread_destroyed,
                  .ThreadNameChanged = on_thread_name,
                  .JITCompilationStarted = on_jit_started,
                  .JITCompilationFinished = on_jit_finished},
};
CLRPROF_DEFINE(counter)
