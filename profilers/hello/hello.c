/* hello.c - the smallest useful attachable profiler, on libclrprof.
 *
 * `clrattach attach PID libhello_profiler.so --data 'log=/tmp/hello.log;detach_after_ms=2000'`
 * It records the client bytes and runtime version on attach, the modules already loaded,
 * each module load, and thread/exception counts; the SDK handles detach (see clrprof_profiler.h
 * for the options it reads).
 */
#include "clrprof/clrprof_profiler.h"
#include "clrprof/clrprof_util.h"
#include "common/shared_names.h" /* CLSID_HELLO */

#include <stdlib.h>

typedef struct hello {
    long modules, threads, exceptions;
} hello_t;

static HRESULT hello_attach(clrprof_profiler_t *p, const void *data, size_t len)
{
    char *hex = malloc(2 * len + 1), version[128];
    int text = clrprof_printable(data, len) && len;
    clrprof_log(p, "InitializeForAttach");
    if (hex)
        clrprof_hex(data, len, hex, 2 * len + 1);
    clrprof_log(p, "client_data bytes=%zu hex=%s%s%.*s", len, hex ? hex : "?", text ? " text=" : "",
                text ? (int)len : 0, text ? (const char *)data : "");
    free(hex);
    clrprof_runtime_version(p, version, sizeof version);
    clrprof_log(p, "runtime %s", version);
    clrprof_log(p, "event_mask 0x%08X hr=0x00000000", (unsigned)clrprof_definition(p)->events);
    return S_OK;
}

/* Callbacks flow from here on, but nothing loaded earlier is announced again: count it. */
static void hello_attached(clrprof_profiler_t *p)
{
    ICorProfilerModuleEnum *modules = NULL;
    ULONG count = 0;
    if (SUCCEEDED(clrprof_info(p)->lpVtbl->EnumModules(clrprof_info(p), &modules))) {
        modules->lpVtbl->GetCount(modules, &count);
        modules->lpVtbl->Release(modules);
    }
    clrprof_log(p, "ProfilerAttachComplete modules_already_loaded=%u", (unsigned)count);
}

static HRESULT hello_module_loaded(ICorProfilerCallback11 *This, ModuleID id, HRESULT status)
{
    clrprof_profiler_t *p = clrprof_of(This);
    hello_t *h = clrprof_state(p);
    char name[1024];
    clrprof_module_name(p, id, name, sizeof name);
    clrprof_log(p, "ModuleLoadFinished n=%ld name=%s hr=0x%08X",
                __atomic_add_fetch(&h->modules, 1, __ATOMIC_RELAXED), name, (unsigned)status);
    return S_OK;
}

static HRESULT hello_thread_created(ICorProfilerCallback11 *This, ThreadID id)
{
    (void)id;
    __atomic_add_fetch(&((hello_t *)clrprof_state(clrprof_of(This)))->threads, 1, __ATOMIC_RELAXED);
    return S_OK;
}

static HRESULT hello_exception_thrown(ICorProfilerCallback11 *This, ObjectID thrown)
{
    (void)thrown;
    __atomic_add_fetch(&((hello_t *)clrprof_state(clrprof_of(This)))->exceptions, 1, __ATOMIC_RELAXED);
    return S_OK;
}

static void hello_detached(clrprof_profiler_t *p)
{
    hello_t *h = clrprof_state(p);
    clrprof_log(p, "ProfilerDetachSucceeded modules_loaded=%ld threads_created=%ld exceptions_thrown=%ld",
                h->modules, h->threads, h->exceptions);
}

/* CLSID_HELLO: clrattach's default --clsid. */
static const clrprof_def_t hello = {
    .name = "hello",
    .clsid = CLSID_HELLO(CLSID_GUID),
    .events = COR_PRF_MONITOR_MODULE_LOADS | COR_PRF_MONITOR_THREADS | COR_PRF_MONITOR_EXCEPTIONS,
    .state_size = sizeof(hello_t),
    .attach = hello_attach,
    .attached = hello_attached,
    .detached = hello_detached,
    .callbacks = {.ModuleLoadFinished = hello_module_loaded,
                  .ThreadCreated = hello_thread_created,
                  .ExceptionThrown = hello_exception_thrown},
};
CLRPROF_DEFINE(hello)
