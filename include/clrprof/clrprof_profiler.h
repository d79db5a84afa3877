/* clrprof_profiler.h - an attachable, detachable profiler as one struct of callbacks.
 *
 * Describe the profiler in a clrprof_def_t and export it with CLRPROF_DEFINE:
 *
 *     static HRESULT on_module(ICorProfilerCallback11 *This, ModuleID id, HRESULT hr) { ... }
 *     static const clrprof_def_t my_profiler = {
 *         .name = "my", .clsid = {0x...}, .events = COR_PRF_MONITOR_MODULE_LOADS,
 *         .callbacks = {.ModuleLoadFinished = on_module},
 *     };
 *     CLRPROF_DEFINE(my_profiler)
 *
 * The SDK owns Initialize, InitializeForAttach, ProfilerAttachComplete, ProfilerDetachSucceeded,
 * Shutdown and LoadAsNotificationOnly (use the hooks below instead; those slots in .callbacks
 * are ignored). It obtains the highest ICorProfilerInfo once, sets the event mask, times every
 * callback you provide, runs one service thread (detach timer, detach requests, the control
 * endpoint `clrattach detach` talks to) and joins it and every thread you started with
 * clrprof_thread_start before ProfilerDetachSucceeded returns, so no code of the profiler runs
 * once the runtime unloads it.
 *
 * Options come from the attach client data ("key=value;..."), or for a startup-loaded profiler
 * from $CLRPROF_OPTIONS. The SDK reads:
 *   log=PATH               where clrprof_log() writes (else $CLRPROF_LOG, else stderr)
 *   detach_after_ms=N      request detach N ms after attaching
 *   detach_on_disconnect   detach when the trigger holding the control endpoint goes away
 *                          (or if none connects within hold_timeout_ms, default 10000)
 *   control=0              do not open the control endpoint
 */
#ifndef CLRPROF_PROFILER_H
#define CLRPROF_PROFILER_H

#include "clrprof_com.h"
#include "corprof.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct clrprof_profiler clrprof_profiler_t;

typedef struct clrprof_def {
    const char *name;      /* short name for logs and the control endpoint */
    CLSID clsid;           /* the CLSID DllGetClassObject answers */
    DWORD events;          /* low event mask, set before the attach/startup hook runs */
    DWORD events_high;     /* high event mask (SetEventMask2) */
    int notification_only; /* load beside the main profiler (Callback11 LoadAsNotificationOnly) */
    size_t state_size;     /* bytes of zeroed state the SDK allocates, see clrprof_state() */

    /* Inside InitializeForAttach, after the Info and event mask are set; data is the client
     * data (valid only during the call). A failure refuses the attach with that HRESULT. */
    HRESULT (*attach)(clrprof_profiler_t *p, const void *data, size_t len);
    /* Inside Initialize for a startup-loaded profiler; data is $CLRPROF_OPTIONS. */
    HRESULT (*startup)(clrprof_profiler_t *p, const void *data, size_t len);
    /* ProfilerAttachComplete: callbacks flow now; catch up on what existed before. */
    void (*attached)(clrprof_profiler_t *p);
    /* ProfilerDetachSucceeded, after the SDK joined every profiler thread. The Info pointer is
     * dead already; flush and report. */
    void (*detached)(clrprof_profiler_t *p);
    /* Shutdown: the process is exiting while the profiler is loaded. */
    void (*shutdown)(clrprof_profiler_t *p);
    /* Final Release: free what the state points to (the state block itself is the SDK's). */
    void (*destroy)(clrprof_profiler_t *p);
    /* Just before the SDK calls RequestProfilerDetach (service thread). Once the runtime
     * accepts a detach it refuses ICorProfilerInfo calls such as ResumeRuntime, so a profiler
     * thread that may be between two such calls must finish them here and make no more. */
    void (*before_detach)(clrprof_profiler_t *p, const char *reason);
    /* After a detach request the SDK made (timer, control endpoint, disconnect or
     * clrprof_request_detach), with the runtime's answer. */
    void (*detach_requested)(clrprof_profiler_t *p, HRESULT hr, DWORD expected_ms,
                             const char *reason);
    /* A control-endpoint command the SDK does not answer itself (anything but status, detach
     * and hold; at most 63 bytes, one line). Runs on the SDK's service thread. Write the whole
     * answer to fd with clrprof_control_send (a first line, then any payload it announces) and
     * return 0; return -1 to have the SDK answer "error unknown command". The SDK closes fd. */
    int (*control)(clrprof_profiler_t *p, const char *command, int fd);

    /* The callbacks the profiler cares about; NULL slots answer S_OK. */
    ICorProfilerCallback11Vtbl callbacks;
} clrprof_def_t;

/* The body of DllGetClassObject for a profiler described by def. */
HRESULT clrprof_class_object(const clrprof_def_t *def, REFCLSID rclsid, REFIID riid, void **ppv);
#define CLRPROF_DEFINE(def)                                                                       \
    CLRPROF_EXPORT HRESULT DllGetClassObject(REFCLSID rclsid, REFIID riid, void **ppv)            \
    {                                                                                             \
        return clrprof_class_object(&(def), rclsid, riid, ppv);                                   \
    }

/* The profiler behind the This pointer a callback receives. */
clrprof_profiler_t *clrprof_of(ICorProfilerCallback11 *This);
/* The zeroed state_size bytes the SDK allocated for this profiler instance. */
void *clrprof_state(clrprof_profiler_t *p);
const clrprof_def_t *clrprof_definition(clrprof_profiler_t *p);

/* The highest ICorProfilerInfo the runtime offers (3..15), obtained once; call only slots of
 * levels up to clrprof_info_level(). NULL before Initialize/InitializeForAttach and after
 * ProfilerDetachSucceeded. */
ICorProfilerInfo15 *clrprof_info(clrprof_profiler_t *p);
int clrprof_info_level(clrprof_profiler_t *p);
/* The Info as ICorProfilerInfoN, or NULL when the runtime offers less than level N. (Level 1 is
 * spelled ICorProfilerInfo1 here.) Note: ICorProfilerInfo::SetEventMask clears the high mask;
 * use SetEventMask2 to change one half only. */
typedef ICorProfilerInfo ICorProfilerInfo1;
#define CLRPROF_INFO(p, N) ((ICorProfilerInfo##N *)(clrprof_info_level(p) >= (N) ? (void *)clrprof_info(p) : NULL))
/* Whether the profiler was attached (1) or loaded at startup (0). */
int clrprof_is_attached(clrprof_profiler_t *p);

/* The options (client data or $CLRPROF_OPTIONS), copied; valid until destroy. */
const void *clrprof_options(clrprof_profiler_t *p, size_t *len);
/* One line to the log (log= option, $CLRPROF_LOG or stderr), whole even across threads. */
#ifdef __MINGW32__ /* mingw's stdio (__USE_MINGW_ANSI_STDIO) is the GNU dialect */
#define CLRPROF_PRINTF_FORMAT gnu_printf
#else
#define CLRPROF_PRINTF_FORMAT printf
#endif
void clrprof_log(clrprof_profiler_t *p, const char *fmt, ...)
    __attribute__((format(CLRPROF_PRINTF_FORMAT, 2, 3)));

/* Starts a profiler thread the SDK joins before detach completes. fn must return soon after
 * clrprof_stopping() turns true; clrprof_sleep() waits interruptibly. 0 or an errno. The thread
 * starts with every signal blocked (the runtime's handlers expect its own threads); a thread
 * that the runtime turns into an EE thread (EventPipeStopSession, ForceGC) keeps that mask. */
int clrprof_thread_start(clrprof_profiler_t *p, void (*fn)(clrprof_profiler_t *p, void *arg), void *arg);
/* Whether the profiler is detaching or shutting down: profiler threads should return. */
int clrprof_stopping(clrprof_profiler_t *p);
/* Sleeps up to ms; returns 1 early when the profiler is stopping, else 0. */
int clrprof_sleep(clrprof_profiler_t *p, unsigned ms);

/* Asks the runtime to detach this profiler. The request is made from the SDK's own thread
 * (never from a callback), with an expected-completion time from clrprof_expected_detach_ms();
 * returns the runtime's answer (wait at most 5 s for it). Safe from any thread. */
HRESULT clrprof_request_detach(clrprof_profiler_t *p, const char *reason);
/* What clrprof_request_detach returns when the service thread did not answer in time
 * (HRESULT_FROM_WIN32(ERROR_TIMEOUT)). */
#define CLRPROF_E_TIMEOUT ((HRESULT)0x800705B4)
/* dwExpectedCompletionMilliseconds for RequestProfilerDetach: the runtime checks first after N
 * ms and again after 2N, so N must cover a callback that was just starting: at least the
 * longest callback seen (so never less than half of it), and at least 300 ms, the runtime's
 * minimum sleep. */
DWORD clrprof_expected_detach_ms(clrprof_profiler_t *p);
/* A sentence saying why the runtime refused a detach (or "detach requested" for S_OK). */
const char *clrprof_detach_refusal(HRESULT hr);

/* Keeps the profiler loaded for good: no detach on disconnect or hold timeout, and every
 * detach the SDK would request (clrattach detach, clrprof_request_detach, timers) is refused
 * with CLRPROF_E_KEPT_LOADED instead of reaching the runtime. For a notification-only profiler
 * after the main profiler detached (.NET 10 crashes in that detach, see docs/runtime-behaviour.md). Call it
 * from the control hook or another hook on the service thread. */
void clrprof_keep_loaded(clrprof_profiler_t *p);
/* The answer to a detach of a profiler kept loaded (E_ABORT). */
#define CLRPROF_E_KEPT_LOADED ((HRESULT)0x80004004)

/* Sends len bytes on a control connection (blocking, 2 s per send). 0, or -1 when the peer went
 * away or stopped reading. For the control hook's answers. */
int clrprof_control_send(int fd, const void *data, size_t len);

/* What the SDK measured in the profiler's callbacks. */
typedef struct clrprof_callback_stats {
    uint64_t calls;      /* callbacks the profiler provided that ran */
    uint64_t total_ns;   /* time spent in them */
    uint64_t longest_ns; /* the longest single one */
    long in_flight;      /* running right now */
} clrprof_callback_stats_t;
void clrprof_callback_stats(clrprof_profiler_t *p, clrprof_callback_stats_t *out);

/* Writes "type=CoreCLR version=10.0.0.0 string=..." from ICorProfilerInfo3::GetRuntimeInformation,
 * or "error=0x..." on failure. */
HRESULT clrprof_runtime_version(clrprof_profiler_t *p, char *out, size_t cap);
/* Writes a module's file name (without directories) or "?" into out. */
HRESULT clrprof_module_name(clrprof_profiler_t *p, ModuleID id, char *out, size_t cap);

/* Writes Namespace.Type.Method (nested types as Outer+Inner) for a FunctionID into out, through
 * the function's metadata. Returns S_OK, CLDB_S_TRUNCATION (0x00131106, a success) when the name
 * was cut to fit, or the failing HRESULT with "?" in out: test it with SUCCEEDED(). */
HRESULT clrprof_function_name(clrprof_profiler_t *p, FunctionID fn, char *out, size_t cap);
/* Writes Namespace.Outer+Inner for type definition td of module (from GetClassIDInfo2, say),
 * with the same results as clrprof_function_name. Generic arguments are not included: the
 * definition has none of its own (a ClassID's arguments come from GetClassIDInfo2). */
HRESULT clrprof_type_name(clrprof_profiler_t *p, ModuleID module, mdTypeDef td, char *out,
                          size_t cap);

#ifdef __cplusplus
}
#endif

#endif
