/* eventpipe_codec.h - EventPipe session requests and replies (internal, unit-tested). */
#ifndef CLRA_PROTO_EVENTPIPE_CODEC_H
#define CLRA_PROTO_EVENTPIPE_CODEC_H

#include "proto/message.h"
#include "util/status.h"

/* NetTrace: the only stream format worth asking for (0, NetPerf, is legacy). */
#define CLRA__TRACE_FORMAT_NETTRACE 1

/* A provider's event-id filter (CollectTracing5), kept in clra_trace_provider_t.reserved[0]
 * (trace_filter.c sets it). */
typedef struct clra__event_filter {
    int allow;      /* 1: only these ids; 0: all but these */
    size_t count;
    uint32_t ids[]; /* count entries */
} clra__event_filter_t;

/* The filter of p, or NULL when it has none. */
static inline const clra__event_filter_t *clra__provider_filter(const clra_trace_provider_t *p)
{
    return p->reserved[0];
}

/* The buffering mode of cfg (CollectTracing6), kept in reserved[0]; 0 (drop) after init. */
static inline uint32_t clra__trace_buffering(const clra_trace_config_t *cfg)
{
    return (uint32_t)(uintptr_t)cfg->reserved[0];
}

/* CollectTracing5's session types (the runtime's EP_IPC_SESSION_TYPE_*). */
#define CLRA__SESSION_STREAMING 0   /* the trace comes back on the socket */
#define CLRA__SESSION_USER_EVENTS 1 /* events go to user_events tracepoints; no stream */

/* One "these event ids go to this tracepoint" entry of a provider (user_events sessions), a
 * list from clra_trace_provider_t.reserved[1] (trace_user_events.c sets it). */
typedef struct clra__tracepoint_set {
    struct clra__tracepoint_set *next;
    char *name;
    size_t count;
    uint32_t ids[]; /* count entries */
} clra__tracepoint_set_t;

/* A user_events session's settings, kept in clra_trace_config_t.reserved[1]. */
typedef struct clra__user_events {
    int data_fd;      /* the caller's user_events_data descriptor, or -1: open it at start */
    char *tracepoint; /* every provider's default tracepoint, or NULL */
} clra__user_events_t;

static inline const clra__tracepoint_set_t *clra__provider_tracepoints(
    const clra_trace_provider_t *p)
{
    return p->reserved[1];
}

/* The user_events settings of cfg, or NULL for a streaming session. */
static inline const clra__user_events_t *clra__trace_user_events(const clra_trace_config_t *cfg)
{
    return cfg->reserved[1];
}

/* The whole CollectTracing<version> request (version 1-6; 5 as a user_events session when cfg has one, else 5 and 6 as streaming sessions). */
int clra__build_collect_tracing(clra__writer_t *w, const clra_trace_config_t *cfg, int version);
/* The whole StopTracing request: exactly the 8-byte session id. */
int clra__build_stop_tracing(clra__writer_t *w, uint64_t session_id);

/* Reads the OK(uint64 session id) reply of CollectTracing or StopTracing: exactly 8 payload
 * bytes and a non-zero id. An Error reply is CLRA_ERUNTIME with st->hresult; any other shape
 * is CLRA_EPROTO with a detail saying what came. */
int clra__parse_session_reply(const clra__header_t *h, const uint8_t *payload, size_t len,
                              uint64_t *id, clra_status_t *st);

#endif
