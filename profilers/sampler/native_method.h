/* native_method.h - the platform's own sampler behind method=signal (and method=auto): each
 * thread sampled where it runs, without the safe-point bias of method=walk (tick.c).
 *   Linux (signal_method.c and signal_*.c): a timer signal per thread, the handler walks the
 *   interrupted stack (signal_sampler.h); statistics say method=signal.
 *   Windows (suspend_method_win.c, suspend_walk_win.c): the sampling thread suspends each
 *   managed thread in turn, reads its context and walks it with the unwind tables, then resumes
 *   it; statistics say method=suspend.
 * sampler.c calls only these; each platform keeps its state behind s->sig.
 */
#ifndef NATIVE_METHOD_H
#define NATIVE_METHOD_H

#include "sampler.h"

#include <stddef.h>

/* Prepares the method (at load): S_OK, or SAMPLER_E_NO_SIGNAL with s->fallback set to a reason
 * token when it cannot run in this process (method=auto then walks), or E_OUTOFMEMORY. */
HRESULT native_setup(clrprof_profiler_t *p, sampler_t *s);
/* One tick on the sampling thread, under the gate. */
void native_tick(sampler_t *s);
/* Whether the method still runs (0: lost what it needs since setup; auto falls back). */
int native_running(const sampler_t *s);
/* Milliseconds from one tick to the next, given the walk's period. */
unsigned native_period_ms(const sampler_t *s, unsigned tick_ms);
/* Stops sampling and moves what is left into the store (takes s->lock); safe to repeat. */
void native_stop(sampler_t *s);
/* Appends the method's own statistics to the line in info (cap bytes in all). */
void native_stats(const sampler_t *s, char *info, size_t cap);
/* Frees the state (after the last tick and stop). */
void native_free(sampler_t *s);
/* "signal" or "suspend": what the statistics line calls METHOD_SIGNAL here. */
extern const char native_method_name[];

#endif
