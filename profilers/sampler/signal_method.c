/* signal_method.c - native_method.h on Linux: method=signal, a real-time signal per sample
 * (signal_sampler.h). Sets up the signal state at load, ticks the timers and the ring, stops
 * them before a detach, frees them at unload. */
#define _GNU_SOURCE
#include "native_method.h"
#include "pages.h"
#include "signal_sampler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define SIGNAL_DRAIN_MS 10 /* the ring holds 4096 samples: 16 threads at 999 Hz for 250 ms */

const char native_method_name[] = "signal";

/* Its state, and a free signal now, so a taken one refuses the load (the trigger says why:
 * SAMPLER_E_NO_SIGNAL) rather than sampling nothing. */
HRESULT native_setup(clrprof_profiler_t *p, sampler_t *s)
{
    s->sig = pages_alloc(sizeof *s->sig);
    if (!s->sig || !(s->sig->names = ip_names_new()))
        return E_OUTOFMEMORY;
    s->sig->timers = s->mode == MODE_CPU;
    if (!sig_proc_matches()) {
        clrprof_log(p, "sampler: method=signal: /proc is another PID namespace's here");
        s->fallback = "foreign_proc";
        return SAMPLER_E_NO_SIGNAL;
    }
    s->sig->claimed = sig_claim() == 0;
    s->sig->signo = s->sig->claimed ? sig_choose() : -1;
    if (s->sig->signo < 0) {
        clrprof_log(p, "sampler: method=signal: %s", s->sig->claimed ? "no real-time signal is "
                    "free in this process" : "another sampler instance runs it here");
        s->fallback = s->sig->claimed ? "no_free_signal" : "signal_sampler_running";
        return SAMPLER_E_NO_SIGNAL;
    }
    return S_OK;
}

void native_tick(sampler_t *s)
{
    sig_tick(s);
}

/* The handler stays installed unless the target took the signal since setup. */
int native_running(const sampler_t *s)
{
    return s->sig->installed;
}

/* cpu and stack modes drain the ring every 10 ms; wall mode signals a batch per tick. */
unsigned native_period_ms(const sampler_t *s, unsigned tick_ms)
{
    return s->mode != MODE_WALL ? SIGNAL_DRAIN_MS : tick_ms;
}

/* No timer, no pending signal, the old handler back, and what the handlers wrote in the
 * store. */
void native_stop(sampler_t *s)
{
    sig_stop(s);
    pthread_mutex_lock(&s->lock);
    sig_drain(s);
    pthread_mutex_unlock(&s->lock);
}

void native_stats(const sampler_t *s, char *info, size_t cap)
{
    size_t len = strlen(info);
    snprintf(info + len, cap - len, " signal=%d samples=%llu frames=%llu lost=%llu "
             "timer_errors=%llu queued=%llu repeated=%llu", s->sig->signo,
             (unsigned long long)s->sig->samples,
             (unsigned long long)s->sig->frames, (unsigned long long)s->sig->lost,
             (unsigned long long)s->sig->timer_errors,
             (unsigned long long)s->sig->queued, (unsigned long long)s->sig->repeated);
}

/* The ring stays mapped while a kept handler (sig_stop could not restore the old one) may
 * still write into it. */
void native_free(sampler_t *s)
{
    sig_stop(s); /* normally done before the detach; a last guard before the unload */
    ip_names_free(s->sig->names);
    if (s->sig->ring && !s->sig->installed)
        munmap(s->sig->ring, SIG_RING * sizeof(sig_record_t));
    if (s->sig->last)
        pages_free(s->sig->last, SIG_LAST_BYTES);
    if (s->sig->claimed && !s->sig->installed)
        sig_release();
    pages_free(s->sig, sizeof *s->sig);
    s->sig = NULL;
}
