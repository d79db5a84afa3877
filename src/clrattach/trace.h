/* trace.h - checks shared by the trace commands (internal). */
#ifndef CLRA_TRACE_H
#define CLRA_TRACE_H

#include "ipc/request.h"
#include "proto/eventpipe_codec.h"

/* Rejects what the runtime would refuse with a bare BAD_ENCODING (docs/protocol.md 3.2): no or more
 * than 1000 providers, an empty name, a level above 5, a zero buffer. */
int clra__trace_config_check(const clra_trace_config_t *cfg, clra_status_t *st);

/* Frees the providers (names, arguments, filters, tracepoint maps) but not cfg's own settings. */
void clra__trace_free_providers(clra_trace_config_t *cfg);

/* user_events sessions (trace_user_events.c). */
void clra__free_tracepoints(clra_trace_provider_t *p);
void clra__free_user_events(clra_trace_config_t *cfg);
/* Every provider of a user_events session needs a tracepoint (the runtime refuses the request
 * otherwise, with a bare BAD_ENCODING), and the blocking buffering mode is for streams only. */
int clra__trace_user_events_check(const clra_trace_config_t *cfg, clra_status_t *st);
/* The user_events_data descriptor to pass: the caller's, or one opened here (*opened = 1, the
 * caller closes it). CLRA_ENOENT-like failures say what the machine lacks. */
int clra__user_events_fd(const clra__user_events_t *ue, int *fd, int *opened, clra_status_t *st);

#endif
