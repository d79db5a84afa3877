/* signal_unwind.c - the module map the handler walks through, kept current on the sampling
 * thread: built at start, rebuilt when dl_iterate_phdr's counters say a library came or went.
 * A replaced map may still be read by a handler that loaded it just before, so it is retired,
 * not freed, until the stop; past SIG_RETIRED replacements the map is left as it is (a new
 * library's frames then walk by frame pointer).
 */
#define _GNU_SOURCE
#include "signal_sampler.h"

void sig_unwind_refresh(sig_sampler_t *g)
{
    if (g->unwind && (!uw_map_stale(g->unwind) || g->n_retired == SIG_RETIRED))
        return;
    uw_map_t *m = uw_map_build();
    if (!m)
        return;
    if (g->unwind)
        g->retired[g->n_retired++] = g->unwind;
    __atomic_store_n(&g->unwind, m, __ATOMIC_RELEASE);
}

void sig_unwind_free(sig_sampler_t *g)
{
    uw_map_free(g->unwind);
    g->unwind = NULL;
    for (unsigned i = 0; i < g->n_retired; i++)
        uw_map_free(g->retired[i]);
    g->n_retired = 0;
}
