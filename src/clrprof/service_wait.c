/* service_wait.c - what the SDK's service does the same way on Linux and Windows: the stopping
 * flag, sleeps that a stop cuts short, and handing a detach request to the service thread
 * (service.c and service_win.c each wake that thread in their own way). */
#define _GNU_SOURCE
#include "profiler_internal.h"

#include <errno.h>
#include <time.h>

#define REQUEST_WAIT_MS 5000 /* how long clrprof_request_detach waits for the service thread */

int clrprof_stopping(clrprof_profiler_t *p)
{
    pthread_mutex_lock(&p->lock);
    int s = p->stopping;
    pthread_mutex_unlock(&p->lock);
    return s;
}

/* pthread_cond_timedwait takes a CLOCK_REALTIME point, not a duration. */
struct timespec clrprof__realtime_in(unsigned ms)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L)
        t.tv_sec++, t.tv_nsec -= 1000000000L;
    return t;
}

int clrprof_sleep(clrprof_profiler_t *p, unsigned ms)
{
    struct timespec until = clrprof__realtime_in(ms);
    pthread_mutex_lock(&p->lock);
    while (!p->stopping && pthread_cond_timedwait(&p->cond, &p->lock, &until) != ETIMEDOUT)
        ;
    int s = p->stopping;
    pthread_mutex_unlock(&p->lock);
    return s;
}

/* RequestProfilerDetach must come from a profiler thread, never a callback: the service
 * thread makes the call and this waits (bounded) for its answer. */
HRESULT clrprof_request_detach(clrprof_profiler_t *p, const char *reason)
{
    /* On the service thread itself, or with no service thread, call the runtime directly. */
    if (!p->service_started || pthread_equal(pthread_self(), p->service))
        return clrprof__detach_now(p, reason ? reason : "requested", NULL);
    struct timespec until = clrprof__realtime_in(REQUEST_WAIT_MS);
    pthread_mutex_lock(&p->lock);
    if (p->stopping) {
        pthread_mutex_unlock(&p->lock);
        return CORPROF_E_PROFILER_DETACHING;
    }
    unsigned long mine = ++p->detach_asked;
    p->detach_reason = reason;
    clrprof__wake_locked(p);
    int err = 0;
    while (p->detach_answered < mine && !p->stopping && err != ETIMEDOUT)
        err = pthread_cond_timedwait(&p->cond, &p->lock, &until);
    HRESULT hr = p->detach_answered >= mine ? p->detach_hr : CLRPROF_E_TIMEOUT;
    pthread_mutex_unlock(&p->lock);
    return hr;
}
