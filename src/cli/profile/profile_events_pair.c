/* profile_events_pair.c - start/stop event pairs (contention, wait-handle waits): the time
 * between a start and the next stop on the same thread, put on the start's stack, where the
 * thread began to wait. */
#include "profile/profile_events.h"

#include <stdlib.h>
#include <string.h>

/* The pending start of tid, or NULL: a thread waits once at a time, and few wait at once. */
static pe_pending_t *pending_of(pe_run_t *r, uint64_t tid)
{
    for (size_t i = 0; i < r->npending; i++)
        if (r->pending[i].tid == tid)
            return &r->pending[i];
    return NULL;
}

int pe_pair_start(pe_run_t *r, const clra_nettrace_event_t *ev)
{
    pe_pending_t *p = pending_of(r, ev->thread_id);
    if (!p) {
        if (pe_grow((void **)&r->pending, &r->cap_pending, r->npending + 1, sizeof *r->pending))
            return r->oom = 1, -1;
        p = &r->pending[r->npending++];
        *p = (pe_pending_t){ev->thread_id, 0, NULL, 0};
    }
    uint8_t *copy = ev->stack && ev->stack_len ? malloc(ev->stack_len) : NULL;
    if (ev->stack && ev->stack_len && !copy)
        return r->oom = 1, -1;
    if (copy)
        memcpy(copy, ev->stack, ev->stack_len);
    free(p->stack); /* a start without its stop: the newer one stands */
    p->stack = copy;
    p->stack_len = copy ? ev->stack_len : 0;
    p->timestamp = ev->timestamp;
    return 0;
}

int pe_pair_stop(pe_run_t *r, const clra_nettrace_event_t *ev)
{
    pe_pending_t *p = pending_of(r, ev->thread_id);
    if (!p) { /* it started before the session did */
        r->unpaired++;
        return 0;
    }
    uint64_t ns = 0;
    if (ev->timestamp > p->timestamp && r->qpc_frequency > 0) {
        /* unsigned: two hostile timestamps can be further apart than int64 holds */
        double d = (double)((uint64_t)ev->timestamp - (uint64_t)p->timestamp) * 1e9 /
                   (double)r->qpc_frequency;
        ns = d >= 0x1p64 ? UINT64_MAX : (uint64_t)d;
    }
    int rc = pe_add(r, ev->thread_id, p->stack, p->stack_len, NULL, ns);
    free(p->stack);
    *p = r->pending[--r->npending];
    r->events++;
    return rc;
}

int pe_pair_event(pe_run_t *r, const clra_nettrace_event_t *ev, const char *name,
                  const char *start, const char *stop)
{
    if (strcmp(name, start) == 0)
        return pe_pair_start(r, ev);
    return strcmp(name, stop) == 0 ? pe_pair_stop(r, ev) : 0;
}

void pe_pair_report(const pe_run_t *r, json_out_t *j, FILE *f, const char *what)
{
    if (j) {
        json_str(j, "can_miss", r->misses);
        json_int(j, "unpaired", (long long)r->unpaired);
        json_int(j, "unfinished", (long long)r->npending);
    } else
        fprintf(f, "%s from %s events: %s\n", what, r->source, r->misses);
}
