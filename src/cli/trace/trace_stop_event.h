/* trace_stop_event.h - the stopping event of `clrattach trace`: a watch on the recorded stream
 * for the first event of a provider, name and payload values (trace_stop_event.c). */
#ifndef CLRA_TRACE_STOP_EVENT_H
#define CLRA_TRACE_STOP_EVENT_H

#include "trace/trace_record.h"

typedef struct trace_stop_monitor {
    const trace_stop_event_t *e;
    clra_nettrace_decoder_t *d; /* NULL: no stopping event asked for */
    int matched;                /* the event came */
    int gave_up;                /* it never can (no such field, undecodable stream) */
    char what[300];             /* "Provider/Event" of the match */
} trace_stop_monitor_t;

/* Starts watching for e (nothing when e names no provider); 0 or -1 (out of memory). */
int trace_stop_monitor_open(trace_stop_monitor_t *m, const trace_stop_event_t *e);
/* Decodes the next stream bytes, setting matched on the event. */
void trace_stop_monitor_feed(trace_stop_monitor_t *m, const void *data, size_t len);
void trace_stop_monitor_close(trace_stop_monitor_t *m);

#endif
