/* trace.h - checks shared by the trace commands (internal). */
#ifndef CLRA_TRACE_H
#define CLRA_TRACE_H

#include "ipc/request.h"
#include "proto/eventpipe_codec.h"

/* Rejects what the runtime would refuse with a bare BAD_ENCODING (docs/protocol.md 3.2): no or more
 * than 1000 providers, an empty name, a level above 5, a zero buffer. */
int clra__trace_config_check(const clra_trace_config_t *cfg, clra_status_t *st);

#endif
