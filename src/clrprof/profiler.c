/* profiler.c - the lifecycle callbacks the SDK implements for every profiler.
 *
 * Initialize/InitializeForAttach obtain the Info and set the event mask before the profiler's
 * hook runs; ProfilerDetachSucceeded and Shutdown stop every profiler thread before the
 * profiler's hook runs, so the runtime never unloads code that is still executing.
 */
#define _GNU_SOURCE
#include "profiler_internal.h"
#include "common/mono_clock.h"
#include "clrprof/clrprof.h"
#include "clrprof/clrprof_util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef ICorProfilerCallback11 Cb;

/* The last log file, for the unload note written by this library's destructor. */
static char unload_note_path[512];

/* Instances the runtime created from this library (one LoadLibrary each) and those it unloads
 * again (after ProfilerDetachSucceeded or a refused Initialize). A refused attach of the same
 * library (CORPROF_E_PROFILER_ALREADY_ACTIVE) counts as a load the runtime never unloads, so the
 * difference tells the trigger whether a detach can unmap us (issue 17 #1). */
static unsigned long runtime_loads, runtime_unloads;

unsigned long clrprof__runtime_refs(void)
{
    return __atomic_load_n(&runtime_loads, __ATOMIC_ACQUIRE) -
           __atomic_load_n(&runtime_unloads, __ATOMIC_ACQUIRE);
}

clrprof_profiler_t *clrprof_of(ICorProfilerCallback11 *This)
{
    return (clrprof_profiler_t *)(void *)This;
}

void *clrprof_state(clrprof_profiler_t *p) { return p->state; }
const clrprof_def_t *clrprof_definition(clrprof_profiler_t *p) { return p->def; }
ICorProfilerInfo15 *clrprof_info(clrprof_profiler_t *p) { return p->info; }
int clrprof_info_level(clrprof_profiler_t *p) { return p->info ? p->info_level : 0; }
int clrprof_is_attached(clrprof_profiler_t *p) { return p->attached; }

const void *clrprof_options(clrprof_profiler_t *p, size_t *len)
{
    if (len)
        *len = p->options_len;
    return p->options;
}

static void vlog(clrprof_profiler_t *p, const char *prefix, const char *fmt, va_list ap)
{
    pthread_mutex_lock(&p->log_lock);
    if (prefix)
        fprintf(p->log, "clrprof[%s]: ", prefix);
    vfprintf(p->log, fmt, ap);
    fputc('\n', p->log);
    fflush(p->log);
    pthread_mutex_unlock(&p->log_lock);
}

void clrprof_log(clrprof_profiler_t *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(p, NULL, fmt, ap);
    va_end(ap);
}

void clrprof__note(clrprof_profiler_t *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(p, p->def->name ? p->def->name : "profiler", fmt, ap);
    va_end(ap);
}

/* Copies the options and reads the ones the SDK acts on; opens the log they name. */
static void take_options(clrprof_profiler_t *p, const void *data, size_t len)
{
    char path[sizeof unload_note_path];
    p->options = malloc(len + 1);
    if (p->options) {
        if (len)
            memcpy(p->options, data, len);
        p->options[len] = '\0';
        p->options_len = len;
    }
    const char *env = getenv("CLRPROF_LOG");
    if (clrprof_option(data, len, "log", path, sizeof path) != 1)
        snprintf(path, sizeof path, "%s", env ? env : "");
    FILE *f = path[0] ? fopen(path, CLRPROF__APPEND) : NULL;
    if (f) {
        p->log = f;
        snprintf(unload_note_path, sizeof unload_note_path, "%s", path);
    }
    if (clrprof_option_ulong(data, len, "detach_after_ms", &p->detach_after_ms) < 0)
        clrprof__note(p, "warning: detach_after_ms is not a number; ignored");
    p->detach_on_disconnect = clrprof_option(data, len, "detach_on_disconnect", path, sizeof path) == 1;
    if (clrprof_option_ulong(data, len, "hold_timeout_ms", &p->hold_timeout_ms) != 1)
        p->hold_timeout_ms = CLRPROF_DEFAULT_HOLD_TIMEOUT_MS;
    unsigned long control = 1;
    if (clrprof_option_ulong(data, len, "control", &control) < 0)
        clrprof__note(p, "warning: control is not 0 or 1; the control endpoint stays on");
    p->control_enabled = control != 0;
}

/* QueryInterface from Info15 down: every level's vtable extends the one below it. */
static HRESULT take_info(clrprof_profiler_t *p, IUnknown *unk)
{
    static const IID *const levels[] = {
        &IID_ICorProfilerInfo15, &IID_ICorProfilerInfo14, &IID_ICorProfilerInfo13,
        &IID_ICorProfilerInfo12, &IID_ICorProfilerInfo11, &IID_ICorProfilerInfo10,
        &IID_ICorProfilerInfo9,  &IID_ICorProfilerInfo8,  &IID_ICorProfilerInfo7,
        &IID_ICorProfilerInfo6,  &IID_ICorProfilerInfo5,  &IID_ICorProfilerInfo4,
        &IID_ICorProfilerInfo3};
    HRESULT hr = E_NOINTERFACE;
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        hr = unk->lpVtbl->QueryInterface(unk, levels[i], (void **)&p->info);
        if (SUCCEEDED(hr)) {
            p->info_level = 15 - (int)i;
            return S_OK;
        }
    }
    p->info = NULL;
    clrprof__note(p, "error: the runtime offers no ICorProfilerInfo3 or later (0x%08X)", (unsigned)hr);
    return hr;
}

/* Sets the definition's event mask and explains a refusal: the usual one is a flag that only a
 * startup profiler may set. */
static HRESULT set_events(clrprof_profiler_t *p)
{
    const clrprof_def_t *d = p->def;
    HRESULT hr = p->info_level >= 5
                     ? p->info->lpVtbl->SetEventMask2(p->info, d->events, d->events_high)
                     : p->info->lpVtbl->SetEventMask(p->info, d->events);
    if (hr == CORPROF_E_UNSUPPORTED_FOR_ATTACHING_PROFILER)
        clrprof__note(p, "error: event mask low=0x%08X high=0x%08X refused (0x%08X "
                      "CORPROF_E_UNSUPPORTED_FOR_ATTACHING_PROFILER): flags low=0x%08X high=0x%08X "
                      "are not allowed after attach; only a startup profiler may set them",
                      (unsigned)d->events, (unsigned)d->events_high, (unsigned)hr,
                      (unsigned)(d->events & ~(DWORD)COR_PRF_ALLOWABLE_AFTER_ATTACH),
                      (unsigned)(d->events_high & ~(DWORD)COR_PRF_HIGH_ALLOWABLE_AFTER_ATTACH));
    else if (FAILED(hr))
        clrprof__note(p, "error: event mask low=0x%08X high=0x%08X refused (0x%08X)",
                      (unsigned)d->events, (unsigned)d->events_high, (unsigned)hr);
    return hr;
}

/* Common start for both load paths; hook is the definition's attach or startup function. */
static HRESULT start(clrprof_profiler_t *p, IUnknown *unk, const void *data, size_t len,
                     HRESULT (*hook)(clrprof_profiler_t *, const void *, size_t))
{
    take_options(p, data, len);
    clrprof__note(p, "%s; client data %zu bytes", p->attached ? "InitializeForAttach" : "Initialize", len);
    HRESULT hr = take_info(p, unk);
    if (SUCCEEDED(hr))
        hr = set_events(p);
    if (SUCCEEDED(hr)) {
        int err = clrprof__service_start(p);
        if (err)
            clrprof__note(p, "warning: no service thread (%s): no control endpoint or timer",
                          strerror(err));
    }
    if (SUCCEEDED(hr) && hook)
        hr = hook(p, data, len);
    if (FAILED(hr)) {
        /* The runtime releases and unloads us without ProfilerDetachSucceeded. */
        clrprof__stop_all(p);
        clrprof__note(p, "refusing to load: 0x%08X", (unsigned)hr);
        __atomic_add_fetch(&runtime_unloads, 1, __ATOMIC_ACQ_REL);
    }
    return hr;
}

static HRESULT sdk_initialize_for_attach(Cb *This, IUnknown *unk, void *data, UINT len)
{
    clrprof_profiler_t *p = clrprof_of(This);
    p->attached = 1;
    return start(p, unk, data, data ? len : 0, p->def->attach);
}

static HRESULT sdk_initialize(Cb *This, IUnknown *unk)
{
    clrprof_profiler_t *p = clrprof_of(This);
    const char *options = getenv("CLRPROF_OPTIONS");
    return start(p, unk, options, options ? strlen(options) : 0, p->def->startup);
}

static HRESULT sdk_attach_complete(Cb *This)
{
    clrprof_profiler_t *p = clrprof_of(This);
    if (p->def->attached)
        p->def->attached(p);
    __atomic_store_n(&p->attach_complete_ns, mono__ns(), __ATOMIC_RELEASE);
    clrprof__wake(p); /* starts the detach_after_ms clock */
    return S_OK;
}

/* The last callback: stop our threads first, then let the profiler report. */
static HRESULT sdk_detach_succeeded(Cb *This)
{
    clrprof_profiler_t *p = clrprof_of(This);
    clrprof__stop_all(p);
    if (p->info)
        p->info->lpVtbl->Release(p->info);
    p->info = NULL;
    const char *unmarked = p->def->notification_only ? NULL : clrprof__mark_main_detached();
    if (unmarked) /* a notification profiler's detach would crash now, and cannot know it */
        clrprof__note(p, "cannot mark the process as left by a main profiler: %s; do not "
                      "detach a notification-only profiler from it", unmarked);
    if (p->def->detached)
        p->def->detached(p);
    clrprof_callback_stats_t s;
    clrprof_callback_stats(p, &s);
    clrprof__note(p, "ProfilerDetachSucceeded; callbacks=%llu longest_us=%llu",
                  (unsigned long long)s.calls, (unsigned long long)(s.longest_ns / 1000));
    __atomic_add_fetch(&runtime_unloads, 1, __ATOMIC_ACQ_REL); /* after the service thread ended */
    return S_OK;
}

static HRESULT sdk_shutdown(Cb *This)
{
    clrprof_profiler_t *p = clrprof_of(This);
    clrprof__stop_all(p);
    if (p->def->shutdown)
        p->def->shutdown(p);
    clrprof__note(p, "Shutdown");
    return S_OK;
}

void clrprof_keep_loaded(clrprof_profiler_t *p)
{
    p->detach_on_disconnect = 0;
    __atomic_store_n(&p->keep_loaded, 1, __ATOMIC_RELEASE);
}

static HRESULT sdk_load_as_notification_only(Cb *This, BOOL *only)
{
    if (only)
        *only = clrprof_of(This)->def->notification_only ? TRUE : FALSE;
    return S_OK;
}

/* Called from the runtime's final Release (on detach) or never (at process exit). */
static void sdk_destroy(clrprof_object_t *obj)
{
    clrprof_profiler_t *p = (clrprof_profiler_t *)obj;
    clrprof__stop_all(p);
    if (p->def->destroy)
        p->def->destroy(p);
    if (p->log != stderr)
        fclose(p->log);
    clrprof__wake_close(p);
    pthread_mutex_destroy(&p->log_lock);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->cond);
    free(p->options);
    free(p->state);
    free(p);
}

static HRESULT sdk_create(const void *ctx, clrprof_object_t **out)
{
    const clrprof_def_t *def = ctx;
    clrprof_profiler_t *p = calloc(1, sizeof *p);
    if (!p)
        return E_OUTOFMEMORY;
    p->state = calloc(1, def->state_size ? def->state_size : 1);
    if (!p->state || clrprof__wake_open(p) != 0) {
        free(p->state);
        free(p);
        return E_OUTOFMEMORY;
    }
    clrprof_object_init(&p->base, 11, sdk_destroy);
    clrprof__install_callbacks(&p->base.vtbl, &def->callbacks);
    p->base.vtbl.Initialize = sdk_initialize;
    p->base.vtbl.InitializeForAttach = sdk_initialize_for_attach;
    p->base.vtbl.ProfilerAttachComplete = sdk_attach_complete;
    p->base.vtbl.ProfilerDetachSucceeded = sdk_detach_succeeded;
    p->base.vtbl.Shutdown = sdk_shutdown;
    p->base.vtbl.LoadAsNotificationOnly = sdk_load_as_notification_only;
    p->def = def;
    p->log = stderr;
    p->listen_fd = p->holder_fd = -1;
    p->control_enabled = 1;
    pthread_mutex_init(&p->log_lock, NULL);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->cond, NULL);
    *out = &p->base;
    __atomic_add_fetch(&runtime_loads, 1, __ATOMIC_ACQ_REL);
    return S_OK;
}

HRESULT clrprof_class_object(const clrprof_def_t *def, REFCLSID rclsid, REFIID riid, void **ppv)
{
    return clrprof_get_class_object_ctx(rclsid, riid, ppv, &def->clsid, sdk_create, def);
}

/* Runs when the runtime dlcloses the profiler after a detach: the log's proof of unload. */
__attribute__((destructor)) static void note_unloaded(void)
{
    if (!unload_note_path[0])
        return;
    FILE *f = fopen(unload_note_path, CLRPROF__APPEND);
    if (f) {
        fputs("clrprof: library unloaded\n", f);
        fclose(f);
    }
}
