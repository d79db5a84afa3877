/* profiler_internal.h - the SDK's profiler object, shared by the files of libclrprof. */
#ifndef CLRPROF_PROFILER_INTERNAL_H
#define CLRPROF_PROFILER_INTERNAL_H

#include "clrprof/clrprof_profiler.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

/* What differs per platform is defined in service.c (Unix) and service_win.c (Windows).
 * fopen's mode for appending to a log: "ae" (close-on-exec); "a" on Windows, whose C runtime
 * refuses "e". */
extern const char clrprof__append_mode[];
#define CLRPROF__APPEND clrprof__append_mode
/* The characters that end a directory in a path: "/"; "/\\" on Windows. */
extern const char clrprof__path_separators[];
/* A control endpoint's path: sun_path's size on Linux (control.c checks), a pipe name's cap on
 * Windows. */
#define CLRPROF__CONTROL_PATH_MAX 108

#define CLRPROF_MAX_THREADS 32
#define CLRPROF_DEFAULT_HOLD_TIMEOUT_MS 10000UL

struct clrprof_profiler {
    clrprof_object_t base; /* first: the runtime's pointer is this object */
    const clrprof_def_t *def;
    void *state;
    ICorProfilerInfo15 *info; /* the highest level the runtime answered, see info_level */
    int info_level;
    int attached;             /* 1 attach-loaded, 0 startup-loaded */
    unsigned char *options;   /* a copy, NUL-terminated */
    size_t options_len;
    FILE *log;
    pthread_mutex_t log_lock;

    /* Callback timing, updated atomically by the wrappers. */
    uint64_t calls, total_ns, longest_ns;
    long in_flight;

    /* Threads and stopping, under lock. */
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stopping;
    int wake[2]; /* a pipe that wakes the service thread's poll */
    pthread_t service;
    int service_started;
    pthread_t threads[CLRPROF_MAX_THREADS];
    int thread_count;

    /* Detach requests handed to the service thread, under lock. */
    unsigned long detach_asked, detach_answered;
    const char *detach_reason;
    HRESULT detach_hr;

    /* Options the SDK acts on. */
    unsigned long detach_after_ms, hold_timeout_ms;
    int detach_on_disconnect, control_enabled;
    int keep_loaded; /* clrprof_keep_loaded: every detach refused (atomic) */
    uint64_t attach_complete_ns; /* 0 until ProfilerAttachComplete */

    /* The control endpoint (service thread only, after start). */
    int listen_fd, holder_fd, holder_seen;
    unsigned long long library_inode; /* of our mapping, read once when the endpoint opens */
    char control_path[CLRPROF__CONTROL_PATH_MAX];
    /* Windows: the control pipe's thread (service_win.c) and the event that stops it; the
     * holder's pipe instance, its thread (which detaches when the holder hangs up) and the
     * event that ends its wait without a detach. */
    pthread_t control_thread;
    int control_started;
    void *control_stop;
    void *control_pipe; /* Windows: made before the thread starts, so the attach finds it */
    pthread_t holder_thread;
    int holder_started;
    void *holder_pipe, *holder_stop;
};

/* Points the slots the profiler provided at timing wrappers that call them. */
void clrprof__install_callbacks(ICorProfilerCallback11Vtbl *vtbl, const ICorProfilerCallback11Vtbl *user);
/* Starts the service thread (control endpoint, timers, detach requests). 0 or an errno. */
int clrprof__service_start(clrprof_profiler_t *p);
/* Stops and joins the service thread and every profiler thread; closes the endpoint. */
void clrprof__stop_all(clrprof_profiler_t *p);
/* Wakes the service thread so it re-reads its deadlines and requests. */
void clrprof__wake(clrprof_profiler_t *p);
/* The same with p->lock held (service_wait.c's detach request). */
void clrprof__wake_locked(clrprof_profiler_t *p);
/* A CLOCK_REALTIME point ms from now, for pthread_cond_timedwait and pthread_timedjoin_np. */
struct timespec clrprof__realtime_in(unsigned ms);
/* Calls RequestProfilerDetach now, on the calling thread (the service thread), and reports. */
HRESULT clrprof__detach_now(clrprof_profiler_t *p, const char *reason, DWORD *expected);
/* Control endpoint: open it, handle a connection on the listening socket, close it. */
/* How many references to this library the runtime holds now (loads not yet unloaded). */
unsigned long clrprof__runtime_refs(void);

void clrprof__control_open(clrprof_profiler_t *p);
void clrprof__control_accept(clrprof_profiler_t *p);
void clrprof__control_close(clrprof_profiler_t *p);
/* clrprof_function_name on an explicit Info pointer, so unit tests can hand in a fake one. */
HRESULT clrprof__function_name_with(ICorProfilerInfo15 *info, FunctionID fn, char *out, size_t cap);
/* The SDK's own log lines, prefixed with the profiler's name. */
void clrprof__note(clrprof_profiler_t *p, const char *fmt, ...) __attribute__((format(CLRPROF_PRINTF_FORMAT, 2, 3)));

/* The process-wide mark that a main profiler detached (main_detached.c; never on Windows,
 * where service_win.c makes none and finds none). Making it returns NULL, or why it could not
 * be made; a mark is believed only if this process's euid owns it. */
const char *clrprof__mark_main_detached(void);
/* The same, trying first_random (16 hex digits) as the first name's random part: for tests. */
const char *clrprof__mark_main_detached_with(const char *first_random);
int clrprof__main_has_detached(void);
/* The service thread's wake pipe (service.c); none on Windows, where service_win.c wakes its
 * thread with the condition variable. 0, or -1 with errno. */
int clrprof__wake_open(clrprof_profiler_t *p);
void clrprof__wake_close(clrprof_profiler_t *p);

#endif
