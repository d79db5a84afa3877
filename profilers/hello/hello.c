/* hello.c - the smallest attachable, self-detaching profiler, in plain C.
 *
 * Attach it with `clrattach attach PID libhello_profiler.so --data 'key=value;...'`. Options:
 *   log=PATH            where to record what it sees (else $CLRPROF_HELLO_LOG, else stderr)
 *   detach_after_ms=N   request detach from its own thread N ms after attaching
 * It records one line per event: the exact client bytes and the runtime version on
 * InitializeForAttach, the modules already loaded on ProfilerAttachComplete, module loads,
 * thread creations and exceptions while attached, and the detach.
 */
#define _GNU_SOURCE
#include "clrprof/clrprof.h"
#include "clrprof/clrprof_com.h"
#include "clrprof/clrprof_util.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* {5E3E0C65-3E00-442D-B0AD-7F2D7F8946DF}: clrattach's default --clsid. */
static const CLSID CLSID_HELLO = {0x5E3E0C65, 0x3E00, 0x442D,
                                  {0xB0, 0xAD, 0x7F, 0x2D, 0x7F, 0x89, 0x46, 0xDF}};

/* Flags we ask for: all within COR_PRF_ALLOWABLE_AFTER_ATTACH. */
#define HELLO_EVENTS (COR_PRF_MONITOR_MODULE_LOADS | COR_PRF_MONITOR_THREADS | COR_PRF_MONITOR_EXCEPTIONS)
/* The runtime never sleeps less than this between evacuation checks, so asking less gains nothing. */
#define MIN_EXPECTED_DETACH_MS 300

typedef struct hello {
    clrprof_object_t base; /* first: the runtime's pointer is ours */
    ICorProfilerInfo3 *info;
    FILE *log;
    pthread_mutex_t log_lock;
    unsigned long detach_after_ms;
    pthread_t detach_thread;
    int detach_thread_started;
    pthread_mutex_t stop_lock;
    pthread_cond_t stop_cond;
    int stopping;
    long longest_callback_us; /* updated atomically */
    long modules, threads, exceptions;
} hello_t;

/* Where the destructor notes the unload; static because the object is gone by then. */
static char unload_log_path[512];

/* Writes one record line; the lock keeps lines whole across runtime threads. */
__attribute__((format(printf, 2, 3))) static void record(hello_t *h, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&h->log_lock);
    va_start(ap, fmt);
    vfprintf(h->log, fmt, ap);
    va_end(ap);
    fputc('\n', h->log);
    fflush(h->log);
    pthread_mutex_unlock(&h->log_lock);
}

static long now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000L + t.tv_nsec / 1000;
}

/* Remembers the longest callback so the detach estimate covers one still in flight. */
static void note_callback_time(hello_t *h, long started_us)
{
    long took = now_us() - started_us, seen = __atomic_load_n(&h->longest_callback_us, __ATOMIC_RELAXED);
    while (took > seen && !__atomic_compare_exchange_n(&h->longest_callback_us, &seen, took, 0,
                                                       __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

/* Opens the record: the log= option, else $CLRPROF_HELLO_LOG, else stderr. */
static void open_log(hello_t *h, const void *data, UINT len)
{
    char path[sizeof unload_log_path];
    const char *env = getenv("CLRPROF_HELLO_LOG");
    if (clrprof_option(data, len, "log", path, sizeof path) != 1)
        snprintf(path, sizeof path, "%s", env ? env : "");
    h->log = path[0] ? fopen(path, "a") : NULL;
    if (h->log)
        snprintf(unload_log_path, sizeof unload_log_path, "%s", path);
    else
        h->log = stderr;
}

/* The client bytes as hex, so a test can compare them exactly whatever they contain. */
static void record_client_data(hello_t *h, const unsigned char *data, UINT len)
{
    char *hex = malloc((size_t)len * 2 + 1);
    if (!hex)
        return;
    for (UINT i = 0; i < len; i++)
        snprintf(hex + 2 * i, 3, "%02x", data[i]);
    hex[(size_t)len * 2] = '\0';
    int printable = 1;
    for (UINT i = 0; i < len && printable; i++)
        printable = data[i] >= 0x20 && data[i] < 0x7F;
    record(h, "client_data bytes=%u hex=%s%s%.*s", len, hex, printable && len ? " text=" : "",
           printable ? (int)len : 0, (const char *)data);
    free(hex);
}

static void record_runtime(hello_t *h)
{
    USHORT id, major, minor, build, qfe;
    COR_PRF_RUNTIME_TYPE type;
    WCHAR version[128];
    ULONG n = 0;
    char text[256];
    HRESULT hr = h->info->lpVtbl->GetRuntimeInformation(h->info, &id, &type, &major, &minor, &build,
                                                        &qfe, 128, &n, version);
    if (FAILED(hr)) {
        record(h, "runtime error=0x%08X", (unsigned)hr);
        return;
    }
    clrprof_utf16_to_utf8(version, n, text, sizeof text);
    record(h, "runtime type=%s version=%u.%u.%u.%u string=%s",
           type == COR_PRF_CORE_CLR ? "CoreCLR" : "other", major, minor, build, qfe, text);
}

/* Runs on our own thread: waits detach_after_ms (or until told to stop), then asks to detach. */
static void *detach_timer(void *arg)
{
    hello_t *h = arg;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)(h->detach_after_ms / 1000);
    until.tv_nsec += (long)(h->detach_after_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L)
        until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&h->stop_lock);
    while (!h->stopping && pthread_cond_timedwait(&h->stop_cond, &h->stop_lock, &until) == 0)
        ;
    int stop = h->stopping;
    pthread_mutex_unlock(&h->stop_lock);
    if (stop)
        return NULL;
    long longest_ms = (__atomic_load_n(&h->longest_callback_us, __ATOMIC_RELAXED) + 999) / 1000;
    DWORD expected = (DWORD)(2 * longest_ms > MIN_EXPECTED_DETACH_MS ? 2 * longest_ms : MIN_EXPECTED_DETACH_MS);
    HRESULT hr = h->info->lpVtbl->RequestProfilerDetach(h->info, expected);
    record(h, "detach_requested hr=0x%08X expected_ms=%u longest_callback_us=%ld", (unsigned)hr,
           (unsigned)expected, __atomic_load_n(&h->longest_callback_us, __ATOMIC_RELAXED));
    return NULL;
}

/* Stops and joins our thread, so none of our code runs once the runtime unloads us. */
static void stop_detach_thread(hello_t *h)
{
    pthread_mutex_lock(&h->stop_lock);
    h->stopping = 1;
    pthread_cond_broadcast(&h->stop_cond);
    pthread_mutex_unlock(&h->stop_lock);
    if (h->detach_thread_started)
        pthread_join(h->detach_thread, NULL);
    h->detach_thread_started = 0;
}

static HRESULT hello_initialize_for_attach(ICorProfilerCallback11 *This, IUnknown *info_unk,
                                           void *data, UINT len)
{
    hello_t *h = CLRPROF_SELF(hello_t, This);
    open_log(h, data, len);
    record(h, "InitializeForAttach");
    record_client_data(h, data, len);
    if (clrprof_option_ulong(data, len, "detach_after_ms", &h->detach_after_ms) < 0)
        record(h, "warning: detach_after_ms is not a number; not detaching by timer");
    HRESULT hr = info_unk->lpVtbl->QueryInterface(info_unk, &IID_ICorProfilerInfo3, (void **)&h->info);
    if (FAILED(hr)) {
        record(h, "error: no ICorProfilerInfo3 (0x%08X)", (unsigned)hr);
        return hr;
    }
    record_runtime(h);
    hr = h->info->lpVtbl->SetEventMask(h->info, HELLO_EVENTS);
    record(h, "event_mask 0x%08X hr=0x%08X", (unsigned)HELLO_EVENTS, (unsigned)hr);
    return hr;
}

/* Callbacks flow from here on, but nothing loaded earlier is announced again: catch up. */
static HRESULT hello_attach_complete(ICorProfilerCallback11 *This)
{
    hello_t *h = CLRPROF_SELF(hello_t, This);
    ICorProfilerModuleEnum *modules = NULL;
    ULONG count = 0;
    HRESULT hr = h->info->lpVtbl->EnumModules(h->info, &modules);
    if (SUCCEEDED(hr)) {
        hr = modules->lpVtbl->GetCount(modules, &count);
        modules->lpVtbl->Release(modules);
    }
    record(h, "ProfilerAttachComplete modules_already_loaded=%u hr=0x%08X", (unsigned)count, (unsigned)hr);
    if (h->detach_after_ms > 0 &&
        pthread_create(&h->detach_thread, NULL, detach_timer, h) == 0)
        h->detach_thread_started = 1;
    return S_OK;
}

static HRESULT hello_module_load_finished(ICorProfilerCallback11 *This, ModuleID id, HRESULT status)
{
    hello_t *h = CLRPROF_SELF(hello_t, This);
    long t0 = now_us();
    long n = __atomic_add_fetch(&h->modules, 1, __ATOMIC_RELAXED);
    WCHAR wide[512];
    ULONG len = 0;
    char name[1024] = "?";
    if (SUCCEEDED(h->info->lpVtbl->GetModuleInfo(h->info, id, NULL, 512, &len, wide, NULL)))
        clrprof_utf16_to_utf8(wide, len, name, sizeof name);
    const char *base = strrchr(name, '/');
    record(h, "ModuleLoadFinished n=%ld name=%s hr=0x%08X", n, base ? base + 1 : name, (unsigned)status);
    note_callback_time(h, t0);
    return S_OK;
}

/* Counts one event, timing the callback like every other. */
static HRESULT count_event(hello_t *h, long *counter)
{
    long t0 = now_us();
    __atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
    note_callback_time(h, t0);
    return S_OK;
}

static HRESULT hello_thread_created(ICorProfilerCallback11 *This, ThreadID id)
{
    (void)id;
    return count_event(CLRPROF_SELF(hello_t, This), &CLRPROF_SELF(hello_t, This)->threads);
}

static HRESULT hello_exception_thrown(ICorProfilerCallback11 *This, ObjectID thrown)
{
    (void)thrown;
    return count_event(CLRPROF_SELF(hello_t, This), &CLRPROF_SELF(hello_t, This)->exceptions);
}

/* The last callback: join our thread first, so no code of ours runs after we return. */
static HRESULT hello_detach_succeeded(ICorProfilerCallback11 *This)
{
    hello_t *h = CLRPROF_SELF(hello_t, This);
    stop_detach_thread(h);
    record(h, "ProfilerDetachSucceeded modules_loaded=%ld threads_created=%ld exceptions_thrown=%ld",
           h->modules, h->threads, h->exceptions);
    return S_OK;
}

static HRESULT hello_shutdown(ICorProfilerCallback11 *This)
{
    hello_t *h = CLRPROF_SELF(hello_t, This);
    stop_detach_thread(h);
    record(h, "Shutdown");
    return S_OK;
}

/* Called from the runtime's final Release: everything the object holds goes here. */
static void hello_destroy(clrprof_object_t *obj)
{
    hello_t *h = (hello_t *)obj;
    stop_detach_thread(h);
    if (h->info)
        h->info->lpVtbl->Release(h->info);
    if (h->log && h->log != stderr)
        fclose(h->log);
    pthread_mutex_destroy(&h->log_lock);
    pthread_mutex_destroy(&h->stop_lock);
    pthread_cond_destroy(&h->stop_cond);
    free(h);
}

static HRESULT hello_create(clrprof_object_t **out)
{
    hello_t *h = calloc(1, sizeof *h);
    if (!h)
        return E_OUTOFMEMORY;
    clrprof_object_init(&h->base, 11, hello_destroy);
    h->log = stderr;
    pthread_mutex_init(&h->log_lock, NULL);
    pthread_mutex_init(&h->stop_lock, NULL);
    pthread_cond_init(&h->stop_cond, NULL);
    h->base.vtbl.InitializeForAttach = hello_initialize_for_attach;
    h->base.vtbl.ProfilerAttachComplete = hello_attach_complete;
    h->base.vtbl.ProfilerDetachSucceeded = hello_detach_succeeded;
    h->base.vtbl.ModuleLoadFinished = hello_module_load_finished;
    h->base.vtbl.ThreadCreated = hello_thread_created;
    h->base.vtbl.ExceptionThrown = hello_exception_thrown;
    h->base.vtbl.Shutdown = hello_shutdown;
    *out = &h->base;
    return S_OK;
}

CLRPROF_EXPORT HRESULT DllGetClassObject(REFCLSID rclsid, REFIID riid, void **ppv)
{
    return clrprof_get_class_object(rclsid, riid, ppv, &CLSID_HELLO, hello_create);
}

/* Runs when the runtime dlcloses us after a detach (and at process exit): proof of unload. */
__attribute__((destructor)) static void hello_unloaded(void)
{
    if (!unload_log_path[0])
        return;
    FILE *f = fopen(unload_log_path, "a");
    if (f) {
        fputs("library_unloaded\n", f);
        fclose(f);
    }
}
