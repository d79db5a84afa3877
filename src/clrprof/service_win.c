/* service_win.c - the Windows twin of service.c and control.c: the SDK's service thread
 * (timers and detach requests), the profiler threads it joins before unload, and the control
 * endpoint as a named pipe, \\.\pipe\clrprof-<pid>-<slot> (slot 0..7, the first free one),
 * whose DACL admits only the process's owner and SYSTEM. It speaks control.c's protocol:
 *   status -> "ok name=N clsid=C pid=P inode=B level=L attached=A notification_only=B ..."
 *   detach -> "detach hr=0x........ expected_ms=N inode=B name=N message=..."
 *   hold   -> "ok holding inode=B name=N"; that instance of the pipe is then the holder's, a
 *             thread waits for its hang-up and detaches, and a new instance serves the rest
 * where inode is the DLL's base address (the trigger watches it leave the module list). */
#include "profiler_internal.h"
#include "common/mono_clock.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/shared_names.h" /* CONTROL_SLOTS */
#include "control_pipe_win.h"

#define IO_TIMEOUT_MS 2000

#define IDLE_WAIT_MS 1000    /* the service thread's longest sleep without a timer */
#define TIMER_WAIT_MS 10     /* its sleep while a timer runs (detach_after_ms, hold_timeout_ms) */

const char clrprof__append_mode[] = "a"; /* the Windows C runtime refuses "e" */
const char clrprof__path_separators[] = "/\\";

/* No wake pipe: the service thread waits on the condition variable, woken by it. */
int clrprof__wake_open(clrprof_profiler_t *p)
{
    (void)p;
    return 0;
}

void clrprof__wake_close(clrprof_profiler_t *p)
{
    (void)p;
}

/* Main-detached marks live in /dev/shm on Linux (main_detached.c): none made or found here. */
const char *clrprof__mark_main_detached(void)
{
    return NULL;
}

const char *clrprof__mark_main_detached_with(const char *first_random)
{
    (void)first_random;
    return NULL;
}

int clrprof__main_has_detached(void)
{
    return 0;
}

void clrprof__wake(clrprof_profiler_t *p)
{
    pthread_mutex_lock(&p->lock);
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->lock);
}

/* The service thread waits on the condition variable, whose lock the caller already holds. */
void clrprof__wake_locked(clrprof_profiler_t *p)
{
    pthread_cond_broadcast(&p->cond);
}

HRESULT clrprof__detach_now(clrprof_profiler_t *p, const char *reason, DWORD *expected_out)
{
    DWORD expected = clrprof_expected_detach_ms(p);
    int kept = __atomic_load_n(&p->keep_loaded, __ATOMIC_ACQUIRE) ||
               (p->def->notification_only && clrprof__main_has_detached());
    if (p->def->before_detach && !kept)
        p->def->before_detach(p, reason);
    HRESULT hr = kept ? CLRPROF_E_KEPT_LOADED
                 : p->info ? p->info->lpVtbl->RequestProfilerDetach(p->info, expected)
                           : CORPROF_E_PROFILER_DETACHING;
    clrprof__note(p, "detach requested (%s): hr=0x%08X expected_ms=%u: %s", reason, (unsigned)hr,
                  (unsigned)expected, clrprof_detach_refusal(hr));
    if (p->def->detach_requested)
        p->def->detach_requested(p, hr, expected, reason);
    if (expected_out)
        *expected_out = expected;
    return hr;
}

/* Whether detach_on_disconnect still waits for a holder (set by the control thread). */
static int awaiting_holder(clrprof_profiler_t *p)
{
    return p->detach_on_disconnect && !__atomic_load_n(&p->holder_seen, __ATOMIC_ACQUIRE);
}

/* Answers the detach requests other threads queued, and fires detach_after_ms and
 * hold_timeout_ms (detach_on_disconnect with no holder yet) when due. */
static void serve(clrprof_profiler_t *p)
{
    uint64_t complete = __atomic_load_n(&p->attach_complete_ns, __ATOMIC_ACQUIRE);
    uint64_t elapsed_ms = complete ? (mono__ns() - complete) / 1000000 : 0;
    if (complete && p->detach_after_ms && elapsed_ms >= p->detach_after_ms) {
        p->detach_after_ms = 0;
        clrprof__detach_now(p, "detach_after_ms elapsed", NULL);
    }
    if (complete && awaiting_holder(p) && elapsed_ms >= p->hold_timeout_ms) {
        __atomic_store_n(&p->holder_seen, 1, __ATOMIC_RELEASE);
        clrprof__detach_now(p, "no trigger held the control endpoint within hold_timeout_ms",
                            NULL);
    }
    pthread_mutex_lock(&p->lock);
    unsigned long asked = p->detach_asked;
    const char *reason = p->detach_reason;
    pthread_mutex_unlock(&p->lock);
    if (asked == p->detach_answered)
        return;
    HRESULT hr = clrprof__detach_now(p, reason ? reason : "requested", NULL);
    pthread_mutex_lock(&p->lock);
    p->detach_hr = hr;
    p->detach_answered = asked;
    pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->lock);
}

static void *service_main(void *arg)
{
    clrprof_profiler_t *p = arg;
    while (!clrprof_stopping(p)) {
        serve(p);
        int timer = p->detach_after_ms || awaiting_holder(p);
        struct timespec until = clrprof__realtime_in(timer ? TIMER_WAIT_MS : IDLE_WAIT_MS);
        pthread_mutex_lock(&p->lock);
        if (!p->stopping && p->detach_asked == p->detach_answered)
            pthread_cond_timedwait(&p->cond, &p->lock, &until);
        pthread_mutex_unlock(&p->lock);
    }
    return NULL;
}

/* A command of the profiler's own (the sampler's "samples"): it answers on the pipe through
 * clrprof_control_send; then the answer is flushed and the client dropped. 0 when handled. */
static int custom_command(clrprof_profiler_t *p, void *pipe, const char *command)
{
    clrprof__pipe_current(pipe, p->control_stop);
    int rc = p->def->control(p, command, CLRPROF__PIPE_FD);
    clrprof__pipe_current(NULL, NULL);
    if (rc == 0)
        clrprof__pipe_drop(pipe, p->control_stop);
    return rc;
}

/* Waits for the holder to hang up (the command that holds us ended, however it ended): that
 * detaches, as the Unix socket's hang-up does in service.c; through the service thread, so
 * that detaches never run on two threads at once. */
static void *holder_main(void *arg)
{
    clrprof_profiler_t *p = arg;
    if (clrprof__pipe_wait_hangup(p->holder_pipe, p->holder_stop))
        clrprof_request_detach(p, "the trigger holding the control endpoint went away");
    return NULL;
}

/* Ends the holder's wait without a detach (a newer holder, or the SDK stopping) and drops its
 * instance of the pipe. */
static void holder_end(clrprof_profiler_t *p)
{
    if (p->holder_started && !pthread_equal(pthread_self(), p->holder_thread)) {
        clrprof__event_set(p->holder_stop);
        pthread_join(p->holder_thread, NULL);
    }
    p->holder_started = 0;
    clrprof__handle_close(p->holder_pipe);
    clrprof__handle_close(p->holder_stop);
    p->holder_pipe = p->holder_stop = NULL;
}

/* Makes pipe's client the holder, the newest one counting (as on Linux): 1 when the instance
 * is the holder's, 0 when no event could be made (the client gets "error" and is dropped). A
 * holder whose thread cannot start is told "ok" and the profiler detaches at once, so the
 * hold ends as it would have: with the unload, which the holder sees as the pipe closing. */
static int holder_start(clrprof_profiler_t *p, void *pipe, const char *ok)
{
    holder_end(p);
    p->holder_stop = clrprof__event_new();
    if (!p->holder_stop) {
        clrprof__pipe_reply(pipe, p->control_stop, "error cannot hold: CreateEvent failed\n",
                            IO_TIMEOUT_MS);
        return 0;
    }
    p->holder_pipe = pipe;
    __atomic_store_n(&p->holder_seen, 1, __ATOMIC_RELEASE);
    clrprof__pipe_send(pipe, p->control_stop, ok, IO_TIMEOUT_MS);
    p->holder_started = pthread_create(&p->holder_thread, NULL, holder_main, p) == 0;
    if (!p->holder_started)
        clrprof_request_detach(p, "no thread could wait for the holder");
    return 1;
}

/* The same answers as control.c's serve(), for status, detach and hold; 1 when pipe's client
 * became the holder (the instance is then the holder's). */
static int control_serve(clrprof_profiler_t *p, void *pipe)
{
    char command[64], text[512], clsid[40];
    if (clrprof__pipe_read_line(pipe, p->control_stop, command, sizeof command,
                                IO_TIMEOUT_MS) != 0) {
        clrprof__pipe_reply(pipe, p->control_stop, "error expected one command line (status, "
                            "detach or hold)\n", IO_TIMEOUT_MS);
        return 0;
    }
    unsigned long long base = clrprof__self_base();
    const char *name = p->def->name ? p->def->name : "profiler";
    const GUID *g = &p->def->clsid;
    snprintf(clsid, sizeof clsid, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             (unsigned)g->Data1, g->Data2, g->Data3, g->Data4[0], g->Data4[1], g->Data4[2],
             g->Data4[3], g->Data4[4], g->Data4[5], g->Data4[6], g->Data4[7]);
    if (strcmp(command, "detach") == 0) {
        DWORD expected = 0;
        HRESULT hr = clrprof__detach_now(p, "clrattach detach", &expected);
        snprintf(text, sizeof text, "detach hr=0x%08X expected_ms=%u inode=%llu name=%s "
                 "message=%s\n", (unsigned)hr, (unsigned)expected, base, name,
                 clrprof_detach_refusal(hr));
    } else if (strcmp(command, "status") == 0) {
        clrprof_callback_stats_t s;
        clrprof_callback_stats(p, &s);
        snprintf(text, sizeof text, "ok name=%s clsid=%s pid=%lu inode=%llu level=%d attached=%d "
                 "notification_only=%d calls=%llu longest_us=%llu\n", name, clsid,
                 clrprof__self_pid(), base, clrprof_info_level(p), p->attached,
                 p->def->notification_only != 0, (unsigned long long)s.calls,
                 (unsigned long long)(s.longest_ns / 1000));
    } else if (strcmp(command, "hold") == 0) {
        snprintf(text, sizeof text, "ok holding inode=%llu name=%s\n", base, name);
        return holder_start(p, pipe, text);
    } else if (p->def->control && custom_command(p, pipe, command) == 0) {
        return 0; /* it answered itself */
    } else {
        snprintf(text, sizeof text, "error unknown command; send status, detach or hold\n");
    }
    clrprof__pipe_reply(pipe, p->control_stop, text, IO_TIMEOUT_MS);
    return 0;
}

/* Serves one client at a time until the stop event; the pipe goes with the thread. A holder
 * takes the instance it came on, and a new one serves the next client. */
static void *control_main(void *arg)
{
    clrprof_profiler_t *p = arg;
    void *pipe = p->control_pipe;
    while (pipe && clrprof__pipe_accept(pipe, p->control_stop)) {
        if (control_serve(p, pipe) && !(pipe = clrprof__pipe_another(p->control_path)))
            clrprof__note(p, "the control pipe serves no more clients: CreateNamedPipe of a "
                          "new instance failed (error %lu)", clrprof__last_error());
    }
    clrprof__handle_close(pipe);
    p->control_pipe = NULL;
    return NULL;
}

int clrprof__service_start(clrprof_profiler_t *p)
{
    if (p->control_enabled) {
        /* The pipe exists before the attach is answered: the trigger looks for it next. */
        p->control_stop = clrprof__event_new();
        p->control_pipe = clrprof__pipe_create(CONTROL_SLOTS, p->control_path,
                                               sizeof p->control_path);
        if (!p->control_pipe)
            clrprof__note(p, "no control endpoint: CreateNamedPipe failed (error %lu)",
                          clrprof__last_error());
        p->control_started = p->control_stop && p->control_pipe &&
                             pthread_create(&p->control_thread, NULL, control_main, p) == 0;
        if (!p->control_started && p->control_pipe) {
            clrprof__handle_close(p->control_pipe); /* no thread to serve it */
            p->control_pipe = NULL;
        }
    }
    int err = pthread_create(&p->service, NULL, service_main, p);
    p->service_started = err == 0;
    return err;
}

typedef struct thread_start {
    clrprof_profiler_t *p;
    void (*fn)(clrprof_profiler_t *p, void *arg);
    void *arg;
} thread_start_t;

static void *thread_main(void *arg)
{
    thread_start_t s = *(thread_start_t *)arg;
    free(arg);
    s.fn(s.p, s.arg);
    return NULL;
}

int clrprof_thread_start(clrprof_profiler_t *p, void (*fn)(clrprof_profiler_t *p, void *arg), void *arg)
{
    thread_start_t *s = malloc(sizeof *s);
    if (!s)
        return ENOMEM;
    *s = (thread_start_t){p, fn, arg};
    pthread_mutex_lock(&p->lock);
    int err = p->stopping ? ECANCELED : p->thread_count == CLRPROF_MAX_THREADS ? EAGAIN : 0;
    if (!err)
        err = pthread_create(&p->threads[p->thread_count], NULL, thread_main, s);
    if (!err)
        p->thread_count++;
    pthread_mutex_unlock(&p->lock);
    if (err)
        free(s);
    return err;
}

void clrprof__stop_all(clrprof_profiler_t *p)
{
    pthread_mutex_lock(&p->lock);
    p->stopping = 1;
    pthread_cond_broadcast(&p->cond);
    int service = p->service_started, n = p->thread_count;
    p->service_started = 0;
    p->thread_count = 0;
    pthread_mutex_unlock(&p->lock);
    if (service)
        pthread_join(p->service, NULL);
    for (int i = 0; i < n; i++)
        pthread_join(p->threads[i], NULL);
    clrprof__control_close(p);
}

/* control.c's entry points: the pipe lives on its own thread (control_main) on Windows. */
void clrprof__control_open(clrprof_profiler_t *p) { (void)p; }
void clrprof__control_accept(clrprof_profiler_t *p) { (void)p; }
void clrprof__control_close(clrprof_profiler_t *p)
{
    if (p->control_started && !pthread_equal(pthread_self(), p->control_thread)) {
        clrprof__event_set(p->control_stop);
        pthread_join(p->control_thread, NULL);
    }
    p->control_started = 0;
    holder_end(p); /* after the control thread, which starts holders */
    clrprof__handle_close(p->control_stop);
    p->control_stop = NULL;
}
