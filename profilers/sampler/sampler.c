/* sampler.c - clrattach's sampling profiler: attach, sample managed stacks at hz, hand the
 * aggregate to the trigger over the control endpoint ("samples"), detach.
 *
 * Client data (what `clrattach profile` and `clrattach stack` send):
 *   mode=cpu|wall|stack   cpu: threads that ran, weighted by CPU time; wall: every managed thread,
 *                         blocked ones marked; stack: one snapshot of every thread, then idle
 *   method=walk|signal|auto  walk (default): suspend the runtime each tick, safe points only;
 *                         signal: the platform's own sampler (native_method.h), each thread
 *                         sampled where it is: on Linux by a signal, a CPU timer's in cpu mode,
 *                         queued by the sampling thread in wall and stack modes
 *                         (signal_sampler.h), refused when no real-time signal is free; on
 *                         Windows by suspending the thread and walking its unwind tables
 *                         (method=suspend in the statistics); auto: signal, or walk when signal
 *                         is refused (the statistics line says method= and fallback= why)
 *   hz=N                  ticks per second (1..1000, default 99)
 *   max_depth=N           frames kept per stack (default 2048; deeper stacks lose their root)
 *   max_mb=N              memory for stacks between two drains (default 64)
 *   final=PATH            loaded at startup (`clrattach launch --profile`): at Shutdown, write
 *                         what no drain took yet to PATH, in the drain's format
 *   startup_hold_ms=N     loaded at startup: detach unless a trigger drained within N ms of
 *                         Initialize (launch died before it held the endpoint)
 * plus the SDK's options (detach_on_disconnect, log=...). Loaded at startup, the options come
 * from $CLRPROF_OPTIONS and sampling starts in Initialize; SuspendRuntime fails until the
 * runtime has started, and those ticks are only counted.
 */
#define _GNU_SOURCE
#include "pages.h"
#include "sampler.h"
#include "native_method.h"
#include "sampler_os.h"
#include "common/mono_clock.h"
#include "common/shared_names.h" /* CLSID_SAMPLER, CLSID_SAMPLER_BESIDE */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_HZ 99
#define DEFAULT_DEPTH 2048
#define DEFAULT_MB 64

static int parse_options(sampler_t *s, const void *data, size_t len)
{
    char mode[16] = "cpu", method[16] = "walk";
    unsigned long hz = DEFAULT_HZ, depth = DEFAULT_DEPTH, mb = DEFAULT_MB;
    if (clrprof_option(data, len, "mode", mode, sizeof mode) < 0 ||
        clrprof_option_ulong(data, len, "hz", &hz) < 0 ||
        clrprof_option_ulong(data, len, "max_depth", &depth) < 0 ||
        clrprof_option_ulong(data, len, "max_mb", &mb) < 0 ||
        clrprof_option(data, len, "method", method, sizeof method) < 0 ||
        clrprof_option(data, len, "final", s->final_path, sizeof s->final_path) < 0 ||
        clrprof_option_ulong(data, len, "startup_hold_ms", &s->startup_hold_ms) < 0)
        return -1;
    s->mode = strcmp(mode, "cpu") == 0 ? MODE_CPU : strcmp(mode, "wall") == 0 ? MODE_WALL
            : strcmp(mode, "stack") == 0 ? MODE_STACK : -1;
    s->method = strcmp(method, "walk") == 0 ? METHOD_WALK
              : strcmp(method, "signal") == 0 ? METHOD_SIGNAL : -1;
    s->auto_method = strcmp(method, "auto") == 0;
    if (s->auto_method)
        s->method = METHOD_SIGNAL;
    if (s->mode < 0 || s->method < 0 || hz < 1 || hz > 1000 || depth < 16 ||
        depth > SAMPLER_MAX_DEPTH_LIMIT ||
        mb < 1 || mb > 4096)
        return -1;
    s->hz = (unsigned)hz, s->max_depth = (unsigned)depth;
    s->store = store_new((size_t)mb << 20);
    char flag[8];
    if (s->store && clrprof_option(data, len, "signatures", flag, sizeof flag) == 1)
        store_name_signatures(s->store, 1);
    return s->store ? 0 : -1;
}

/* The walk's frame buffer: one walk of max_depth per thread. */
static size_t walk_ids_bytes(const sampler_t *s)
{
    return (size_t)SAMPLER_MAX_THREADS * s->max_depth * sizeof *s->walk_ids;
}

/* method=walk's buffers: one walk of max_depth per thread, reused every tick. */
static HRESULT setup_walk(sampler_t *s)
{
    s->walk_ids = pages_alloc(walk_ids_bytes(s));
    s->walks = pages_alloc(SAMPLER_MAX_THREADS * sizeof *s->walks);
    if (!s->walk_ids || !s->walks)
        return E_OUTOFMEMORY;
    __atomic_store_n(&s->threads_changed, 1, __ATOMIC_RELAXED);
    return S_OK;
}

/* method=auto where the signal method cannot run: the walk samples instead, and the
 * statistics line says why (s->fallback). The signal state stays until destroy. */
static HRESULT fall_back(clrprof_profiler_t *p, sampler_t *s)
{
    clrprof_log(p, "sampler: method=auto: sampling by walk (%s)", s->fallback);
    s->method = METHOD_WALK;
    return s->walk_ids ? S_OK : setup_walk(s);
}

/* Both load paths: the Info level, the options, the walk buffers. */
static HRESULT setup(clrprof_profiler_t *p, const void *data, size_t len)
{
    sampler_t *s = clrprof_state(p);
    s->p = p; /* destroy() tears the mutexes down from here on */
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->gate, NULL);
    if (!CLRPROF_INFO(p, 10)) {
        clrprof_log(p, "sampler: the runtime offers no ICorProfilerInfo10 (SuspendRuntime): "
                       ".NET Core 3.0 or later is needed");
        return E_NOINTERFACE;
    }
    if (parse_options(s, data, len) != 0) {
        clrprof_log(p, "sampler: bad options: mode=cpu|wall|stack hz=1..1000 max_depth=16..8192 "
                       "max_mb=1..4096 final=PATH");
        return E_INVALIDARG;
    }
    if (s->method != METHOD_SIGNAL)
        return setup_walk(s);
    HRESULT hr = native_setup(p, s);
    return hr == SAMPLER_E_NO_SIGNAL && s->auto_method ? fall_back(p, s) : hr;
}

static HRESULT sampler_attach(clrprof_profiler_t *p, const void *data, size_t len)
{
    return setup(p, data, len);
}

/* A startup sampler's deadline: launch holds and drains it within ~100 ms; if nothing drained
 * within startup_hold_ms the trigger is gone, and sampling until the program exits would only
 * cost the program. (The SDK's hold timer never starts for a startup profiler: it counts
 * from ProfilerAttachComplete.) 1 when the detach was requested. */
static int startup_deadline_passed(clrprof_profiler_t *p, sampler_t *s)
{
    if (!s->startup_hold_ms || clrprof_is_attached(p) || __atomic_load_n(&s->drained, __ATOMIC_ACQUIRE) ||
        mono__ns() - s->started_ns < (uint64_t)s->startup_hold_ms * 1000000ULL)
        return 0;
    s->startup_hold_ms = 0;
    HRESULT hr = clrprof_request_detach(p, "no trigger drained the startup sampler within "
                                           "startup_hold_ms");
    clrprof_log(p, "sampler: not drained within the startup hold; detach hr=0x%08X",
                (unsigned)hr);
    return SUCCEEDED(hr);
}

/* The profiler thread: ticks at hz until the SDK stops it (detach or shutdown). A tick runs
 * under the gate, and only while no detach is under way. */
static void sampler_main(clrprof_profiler_t *p, void *arg)
{
    sampler_t *s = arg;
    unsigned tick_ms = 1000 / s->hz ? 1000 / s->hz : 1;
    uint64_t next_ns = mono__ns();
    while (!clrprof_stopping(p)) {
        unsigned period_ms = s->method == METHOD_SIGNAL ? native_period_ms(s, tick_ms) : tick_ms;
        if (startup_deadline_passed(p, s))
            break;
        pthread_mutex_lock(&s->gate);
        if (!s->detaching && s->method == METHOD_SIGNAL) {
            native_tick(s);
            if (!native_running(s) && s->auto_method) { /* the signal was taken since setup */
                s->fallback = "signal_taken";
                if (FAILED(fall_back(p, s)))
                    s->method = METHOD_SIGNAL; /* no memory for the walk: keep trying */
            }
        } else if (!s->detaching && (s->mode != MODE_STACK || !s->snapshot_done))
            sampler_tick(s);
        pthread_mutex_unlock(&s->gate);
        /* to the next tick's time, not a period after this one's end: the tick's own work
         * would slow the rate, and wall samples weigh a nominal period */
        next_ns += (uint64_t)period_ms * 1000000ULL;
        uint64_t now = mono__ns();
        if (next_ns < now || s->method != METHOD_SIGNAL) /* walk: a period after, as ever */
            next_ns = s->method == METHOD_SIGNAL ? now : now + (uint64_t)period_ms * 1000000ULL;
        if (clrprof_sleep(p, (unsigned)((next_ns - now) / 1000000ULL)))
            break;
    }
}

/* The native method stopped, and what it gathered in the store, before the detach (or exit)
 * goes on: the library may unload next. */
static void stop_native(sampler_t *s)
{
    if (s->sig)
        native_stop(s);
}

/* Once the runtime accepts a detach it refuses ResumeRuntime (CORPROF_E_PROFILER_DETACHING):
 * a tick caught between SuspendRuntime and ResumeRuntime would leave the runtime stopped for
 * good, and the library never unloaded. So the detach waits here for the tick in flight, and
 * no tick starts until the runtime has answered. */
static void sampler_before_detach(clrprof_profiler_t *p, const char *reason)
{
    (void)reason;
    sampler_t *s = clrprof_state(p);
    pthread_mutex_lock(&s->gate);
    s->detaching = 1;
    stop_native(s);
    pthread_mutex_unlock(&s->gate);
}

/* A refused detach leaves the profiler loaded: sampling goes on. */
static void sampler_detach_requested(clrprof_profiler_t *p, HRESULT hr, DWORD expected_ms,
                                     const char *reason)
{
    (void)expected_ms, (void)reason;
    sampler_t *s = clrprof_state(p);
    pthread_mutex_lock(&s->gate);
    s->detaching = SUCCEEDED(hr);
    pthread_mutex_unlock(&s->gate);
}

static void sampler_attached(clrprof_profiler_t *p)
{
    sampler_t *s = clrprof_state(p);
    int err = clrprof_thread_start(p, sampler_main, s);
    if (err)
        clrprof_log(p, "sampler: cannot start the sampling thread (errno %d)", err);
}

/* Loaded at startup there is no ProfilerAttachComplete: sampling starts here, and its first
 * ticks meet a runtime not started yet (SuspendRuntime refuses them, harmlessly). */
static HRESULT sampler_startup(clrprof_profiler_t *p, const void *data, size_t len)
{
    sampler_t *s = clrprof_state(p);
    s->started_ns = mono__ns();
    HRESULT hr = setup(p, data, len);
    if (SUCCEEDED(hr))
        sampler_attached(p);
    return hr;
}

static HRESULT on_thread_change(ICorProfilerCallback11 *This, ThreadID id)
{
    (void)id;
    sampler_t *s = clrprof_state(clrprof_of(This));
    __atomic_store_n(&s->threads_changed, 1, __ATOMIC_RELAXED);
    return S_OK;
}

/* One line of the sampler's statistics (under the lock). */
static void stats_line(const sampler_t *s, char *info, size_t cap)
{
    snprintf(info, cap, "mode=%s hz=%u ticks=%llu suspensions=%llu suspend_us=%llu "
             "longest_suspend_us=%llu walk_failures=%llu snapshot_done=%d last_error=0x%08X "
             "resume_error=0x%08X method=%s",
             s->mode == MODE_CPU ? "cpu" : s->mode == MODE_WALL ? "wall" : "stack", s->hz,
             (unsigned long long)s->ticks, (unsigned long long)s->suspensions,
             (unsigned long long)(s->suspend_ns / 1000),
             (unsigned long long)(s->longest_suspend_ns / 1000),
             (unsigned long long)s->walk_failures, s->snapshot_done, (unsigned)s->last_error,
             (unsigned)s->resume_error, s->method == METHOD_SIGNAL ? native_method_name : "walk");
    if (s->fallback) {
        size_t len = strlen(info);
        snprintf(info + len, cap - len, " fallback=%s", s->fallback);
    }
    if (s->sig && s->method == METHOD_SIGNAL)
        native_stats(s, info, cap);
}

/* "park": sample no more and stay loaded, whoever hangs up. For a notification-only sampler
 * whose main profiler detached meanwhile: its own detach would crash .NET 10
 * (docs/runtime-behaviour.md). */
static int park(clrprof_profiler_t *p, sampler_t *s, int fd)
{
    static const char ok[] = "ok parked\n";
    pthread_mutex_lock(&s->gate); /* after the tick in flight */
    s->detaching = 1;
    stop_native(s);
    pthread_mutex_unlock(&s->gate);
    clrprof_keep_loaded(p);
    clrprof_log(p, "sampler: parked (no more ticks; staying loaded)");
    clrprof_control_send(fd, ok, sizeof ok - 1);
    return 0;
}

/* "samples": everything gathered since the last drain, with the sampler's statistics. */
static int sampler_control(clrprof_profiler_t *p, const char *command, int fd)
{
    sampler_t *s = clrprof_state(p);
    char info[512];
    if (strcmp(command, "park") == 0)
        return park(p, s, fd);
    if (strcmp(command, "samples") != 0)
        return -1;
    __atomic_store_n(&s->drained, 1, __ATOMIC_RELEASE);
    pthread_mutex_lock(&s->lock);
    stats_line(s, info, sizeof info);
    int rc = store_drain(s->store, fd, info, clrprof_control_send);
    pthread_mutex_unlock(&s->lock);
    (void)rc; /* a peer that went away gets no second answer either */
    return 0;
}

/* The process is exiting with the sampler loaded (the SDK joined the sampling thread and the
 * control endpoint is closed): what no drain took goes to final=PATH, for launch to read. */
static void sampler_shutdown(clrprof_profiler_t *p)
{
    sampler_t *s = clrprof_state(p);
    char info[512];
    stop_native(s); /* the sampling thread is joined: no tick races this */
    if (!s->final_path[0] || !s->store)
        return;
    int fd = final_open(s->final_path);
    if (fd < 0) {
        clrprof_log(p, "sampler: cannot write %s: %s", s->final_path, strerror(errno));
        return;
    }
    pthread_mutex_lock(&s->lock);
    stats_line(s, info, sizeof info);
    if (store_drain(s->store, fd, info, final_write) != 0)
        clrprof_log(p, "sampler: writing %s failed: %s", s->final_path, strerror(errno));
    pthread_mutex_unlock(&s->lock);
    final_close(fd);
}

static void sampler_destroy(clrprof_profiler_t *p)
{
    sampler_t *s = clrprof_state(p);
    if (s->sig)
        native_free(s);
    store_free(s->store);
    pages_free(s->walk_ids, walk_ids_bytes(s));
    pages_free(s->walks, SAMPLER_MAX_THREADS * sizeof *s->walks);
    if (s->p) {
        pthread_mutex_destroy(&s->lock);
        pthread_mutex_destroy(&s->gate);
    }
}

/* Everything but the CLSID and the load kind is shared by the sampler's two classes. */
#define SAMPLER_DEF(clsid_of, only)                                                               \
    {                                                                                             \
        .name = "sampler",                                                                        \
        .clsid = clsid_of(CLSID_GUID),                                                            \
        .events = COR_PRF_MONITOR_THREADS | COR_PRF_ENABLE_STACK_SNAPSHOT,                        \
        .notification_only = only,                                                                \
        .state_size = sizeof(sampler_t),                                                          \
        .attach = sampler_attach,                                                                 \
        .startup = sampler_startup,                                                               \
        .attached = sampler_attached,                                                             \
        .shutdown = sampler_shutdown,                                                             \
        .destroy = sampler_destroy,                                                               \
        .control = sampler_control,                                                               \
        .before_detach = sampler_before_detach,                                                   \
        .detach_requested = sampler_detach_requested,                                             \
        .callbacks = {.ThreadCreated = on_thread_change, .ThreadDestroyed = on_thread_change},    \
    }

/* CLSID_SAMPLER: the sampler as the main profiler (clrattach profile, stack and launch
 * --profile). */
static const clrprof_def_t sampler = SAMPLER_DEF(CLSID_SAMPLER, 0);
/* CLSID_SAMPLER_BESIDE: the same sampler loaded as a notification-only profiler, beside a
 * main profiler that holds the runtime's one main slot (an APM agent).
 * LoadAsNotificationOnly is asked before InitializeForAttach sees the client data, so the
 * trigger chooses the load kind by the CLSID it sends. */
static const clrprof_def_t sampler_beside = SAMPLER_DEF(CLSID_SAMPLER_BESIDE, 1);

/* Either class, by the CLSID the runtime asks for. */
CLRPROF_EXPORT HRESULT DllGetClassObject(REFCLSID rclsid, REFIID riid, void **ppv)
{
    HRESULT hr = clrprof_class_object(&sampler, rclsid, riid, ppv);
    return hr == CLASS_E_CLASSNOTAVAILABLE ? clrprof_class_object(&sampler_beside, rclsid, riid, ppv)
                                           : hr;
}
