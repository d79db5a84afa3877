/* service.c - the SDK's own thread and the profiler threads it must join before unload.
 *
 * One service thread per profiler serves the control endpoint, fires the detach_after_ms and
 * detach_on_disconnect timers, and makes every RequestProfilerDetach call: the documented
 * contract wants it from a profiler thread, never from inside a callback.
 */
#define _GNU_SOURCE
#include "profiler_internal.h"
#include "common/mono_clock.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char clrprof__append_mode[] = "ae";
const char clrprof__path_separators[] = "/";

/* A non-blocking pipe: the service thread polls its read end beside the sockets. */
int clrprof__wake_open(clrprof_profiler_t *p)
{
    return pipe2(p->wake, O_CLOEXEC | O_NONBLOCK);
}

void clrprof__wake_close(clrprof_profiler_t *p)
{
    close(p->wake[0]);
    close(p->wake[1]);
}

#define JOIN_WARN_MS 5000    /* when to say which thread is holding up the unload */

void clrprof__wake(clrprof_profiler_t *p)
{
    char one = 1;
    ssize_t n = write(p->wake[1], &one, 1); /* a full pipe already means "wake up" */
    (void)n;
}

/* The service thread polls its wake pipe, so waking it needs no lock (held or not). */
void clrprof__wake_locked(clrprof_profiler_t *p)
{
    clrprof__wake(p);
}

/* A wait from client data fits poll's int: larger ones wait INT_MAX and look again, rather
 * than turning negative (forever). */
static int ms_for_poll(uint64_t ms)
{
    return ms > INT_MAX ? INT_MAX : (int)ms;
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
    clrprof_callback_stats_t s;
    clrprof_callback_stats(p, &s);
    clrprof__note(p, "detach requested (%s): hr=0x%08X expected_ms=%u longest_callback_us=%llu: %s",
                  reason, (unsigned)hr, (unsigned)expected,
                  (unsigned long long)(s.longest_ns / 1000), clrprof_detach_refusal(hr));
    if (p->def->detach_requested)
        p->def->detach_requested(p, hr, expected, reason);
    if (expected_out)
        *expected_out = expected;
    return hr;
}

/* Answers the detach requests other threads queued, one runtime call per batch. */
static void serve_requests(clrprof_profiler_t *p)
{
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

/* Milliseconds until the next timer, -1 if none; fires (and disarms) those already due. */
static int next_timer(clrprof_profiler_t *p, int *fired_after, int *fired_hold)
{
    uint64_t complete = __atomic_load_n(&p->attach_complete_ns, __ATOMIC_ACQUIRE);
    int wait = -1;
    if (!complete)
        return -1;
    uint64_t now = mono__ns(), elapsed_ms = (now - complete) / 1000000;
    if (p->detach_after_ms) {
        if (elapsed_ms >= p->detach_after_ms)
            *fired_after = 1, p->detach_after_ms = 0;
        else
            wait = ms_for_poll(p->detach_after_ms - elapsed_ms);
    }
    if (p->detach_on_disconnect && !p->holder_seen) {
        if (elapsed_ms >= p->hold_timeout_ms) {
            *fired_hold = 1, p->holder_seen = 1;
        } else {
            int w = ms_for_poll(p->hold_timeout_ms - elapsed_ms);
            wait = wait < 0 || w < wait ? w : wait;
        }
    }
    return wait;
}

/* Reads what a holder sent; its hang-up means the trigger that attached us is gone. */
static void serve_holder(clrprof_profiler_t *p)
{
    char buf[64];
    ssize_t n = read(p->holder_fd, buf, sizeof buf);
    if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EINTR)))
        return;
    close(p->holder_fd);
    p->holder_fd = -1;
    clrprof__detach_now(p, "the trigger holding the control endpoint went away", NULL);
}

static void *service_main(void *arg)
{
    clrprof_profiler_t *p = arg;
    pthread_setname_np(pthread_self(), "clrprof-service");
    while (!clrprof_stopping(p)) {
        int after = 0, hold = 0;
        int timeout = next_timer(p, &after, &hold);
        if (after)
            clrprof__detach_now(p, "detach_after_ms elapsed", NULL);
        if (hold)
            clrprof__detach_now(p, "no trigger held the control endpoint within hold_timeout_ms", NULL);
        struct pollfd fds[3] = {{p->wake[0], POLLIN, 0}, {p->listen_fd, POLLIN, 0}, {p->holder_fd, POLLIN, 0}};
        if (after || hold)
            continue;
        if (poll(fds, 3, timeout) < 0 && errno != EINTR)
            break;
        char drain[64];
        while (read(p->wake[0], drain, sizeof drain) > 0)
            ;
        serve_requests(p);
        if (p->listen_fd >= 0 && (fds[1].revents & POLLIN))
            clrprof__control_accept(p);
        if (p->holder_fd >= 0 && fds[2].revents)
            serve_holder(p);
    }
    return NULL;
}

/* Creates a thread with every signal blocked: the runtime's handlers expect its own threads. */
static int spawn(pthread_t *t, void *(*fn)(void *), void *arg)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int err = pthread_create(t, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return err;
}

int clrprof__service_start(clrprof_profiler_t *p)
{
    if (p->control_enabled)
        clrprof__control_open(p);
    int err = spawn(&p->service, service_main, p);
    p->service_started = err == 0;
    if (err)
        clrprof__control_close(p);
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
    pthread_setname_np(pthread_self(), "clrprof-thread");
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
        err = spawn(&p->threads[p->thread_count], thread_main, s);
    if (!err)
        p->thread_count++;
    pthread_mutex_unlock(&p->lock);
    if (err)
        free(s);
    return err;
}

/* Joins t, saying in the log which thread holds up the unload if it takes long. */
static void join_patiently(clrprof_profiler_t *p, pthread_t t, const char *what)
{
    struct timespec until = clrprof__realtime_in(JOIN_WARN_MS);
    if (pthread_timedjoin_np(t, NULL, &until) == 0)
        return;
    clrprof__note(p, "warning: %s has not returned %d ms after stop; the runtime cannot unload "
                  "the profiler until it does (it must check clrprof_stopping)", what, JOIN_WARN_MS);
    pthread_join(t, NULL);
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
    clrprof__wake(p);
    if (service)
        join_patiently(p, p->service, "the SDK service thread");
    for (int i = 0; i < n; i++)
        join_patiently(p, p->threads[i], "a thread from clrprof_thread_start");
    clrprof__control_close(p);
}
