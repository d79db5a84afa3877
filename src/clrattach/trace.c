/* trace.c - an EventPipe session: start, pump the NetTrace stream, stop while draining.
 *
 * The runtime answers CollectTracing with OK(session id) and then writes the trace on the
 * same connection until the session ends. StopTracing must go on a second connection, and the
 * runtime writes rundown into the first one before it answers, so the stream is drained for
 * the whole stop or the runtime blocks on a full socket (docs/protocol.md 7.6).
 */
#define _GNU_SOURCE
#include "command_target.h"
#include "trace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (16 * 1024)           /* one recv; modest, callers may run on small stacks */
#define PUMP_MAX (1024 * 1024)      /* bytes per pump call, so callers regain control */

/* What an option costs in runtime versions, for an UNKNOWN_COMMAND answer. */
static const char *version_need(int version)
{
    switch (version) {
    case 2:
        return "a trace without rundown";
    case 3:
        return "turning stack collection off";
    case 4:
        return "a custom rundown keyword";
    case 5:
        return "an event-id filter or a user_events session";
    case 6:
        return "the blocking buffering mode (--buffering-mode block)";
    default:
        return "this trace";
    }
}

/* Builds the request for cfg into a new 64 KiB buffer. */
static int build_start(const clra_trace_config_t *cfg, uint8_t **req, size_t *len, int *version,
                       clra_status_t *st)
{
    clra__writer_t w;
    int rc = clra__trace_config_check(cfg, st);
    if (rc)
        return rc;
    *version = clra_trace_config_version(cfg);
    *req = malloc(CLRA__MAX_MESSAGE);
    if (!*req)
        return CLRA_ENOMEM;
    clra__writer_init(&w, *req, CLRA__MAX_MESSAGE);
    rc = clra__build_collect_tracing(&w, cfg, *version);
    if (rc == CLRA_ETOOBIG)
        clra__detail(st, "%zu providers with their names and arguments exceed the protocol's "
                     "65535-byte message; enable fewer", cfg->provider_count);
    else if (rc == CLRA_EENCODING)
        clra__detail(st, "a provider name or argument is not valid UTF-8");
    *len = w.len;
    if (rc) {
        free(*req);
        *req = NULL;
    }
    return rc;
}

/* Interprets the CollectTracing reply and fills the session. */
static int finish_start(const clra__reply_t *reply, int version, int user_events,
                        const clra__conn_t *conn, clra_trace_session_t *s, clra_status_t *st)
{
    uint64_t id;
    int rc = clra__parse_session_reply(&reply->h, reply->payload, reply->len, &id, st);
    if (rc == CLRA_ERUNTIME && st->hresult == CLRA__HR_UNKNOWN_COMMAND)
        clra__detail(st, "the runtime does not know CollectTracing%d, which %s needs: it needs "
                     "%s or later", version, version_need(version),
                     clra_trace_version_runtime(version));
    else if (rc == CLRA_ERUNTIME && (uint32_t)st->hresult == 0x80004005u && user_events)
        clra__detail(st, "the runtime could not start the user_events session: it registers "
                     "its tracepoints on the descriptor it was given, which must be the "
                     "kernel's user_events_data (and its build must support user_events)");
    else if (rc == CLRA_ERUNTIME && (uint32_t)st->hresult == 0x80004005u)
        clra__detail(st, "the runtime could not create the session (too many sessions, at most "
                     "64, or an option it rejects)");
    else if (rc == CLRA_ERUNTIME && st->hresult == CLRA__HR_BAD_ENCODING && user_events)
        clra__detail(st, "the runtime refused the user_events request as malformed, or did not "
                     "receive the user_events_data descriptor with it");
    if (rc)
        return rc;
    memset(s, 0, sizeof *s);
    s->id = id;
    clra__conn_store(conn, &s->fd, &s->reserved[0]);
    s->command_version = version;
    s->eof = user_events; /* tracepoints, not this socket, carry the events */
    return 0;
}

/* Sends the request, with the user_events_data descriptor after it for a user_events session
 * (a descriptor opened here is closed again: the runtime holds its own copy). */
static int send_start(clra__endpoint_t *e, const clra_trace_config_t *cfg, const uint8_t *req,
                      size_t len, const clra__deadline_t *d, clra__reply_t *reply,
                      clra__conn_t *conn, clra_status_t *st)
{
    const clra__user_events_t *ue = clra__trace_user_events(cfg);
    int fd = -1, opened = 0;
    int rc = ue ? clra__user_events_fd(ue, &fd, &opened, st) : 0;
    if (rc == 0)
        rc = clra__request_passing(e, req, len, fd, d, reply, conn, st);
    if (opened)
        close(fd);
    return rc;
}

int clra_trace_start(const clra_target_t *target, const clra_trace_config_t *cfg,
                     int timeout_ms, clra_trace_session_t *s, clra_status_t *st)
{
    clra_status_t local;
    clra__endpoint_t e;
    uint8_t *req = NULL;
    size_t len;
    int version;
    st = clra__status_begin(st, &local);
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    int rc = clra__target_resolve(target, &d, &e, st);
    if (rc)
        return rc;
    if (!cfg || !s) {
        clra__detail(st, "a target, a configuration and a session are required");
        rc = CLRA_EINVAL;
    }
    if (rc == 0)
        rc = build_start(cfg, &req, &len, &version, st);
    clra__reply_t reply;
    clra__conn_t conn;
    if (rc == 0)
        rc = send_start(&e, cfg, req, len, &d, &reply, &conn, st);
    free(req);
    clra__endpoint_done(&e);
    if (rc)
        return rc;
    rc = finish_start(&reply, version, clra__trace_user_events(cfg) != NULL, &conn, s, st);
    clra__reply_free(&reply);
    if (rc)
        clra__close(&conn);
    return rc;
}

/* The session's stream connection, from the fields it is kept in. */
static void stream_conn(const clra_trace_session_t *s, clra__conn_t *c)
{
    clra__conn_load(c, s->fd, s->reserved[0]);
}

/* Moves what the stream holds right now (at most max bytes) to sink without waiting. */
static int drain(clra_trace_session_t *s, clra_trace_sink_fn sink, void *ctx, size_t max,
                 clra_status_t *st)
{
    uint8_t buf[CHUNK];
    clra__conn_t c;
    stream_conn(s, &c);
    for (size_t moved = 0; moved < max && !s->eof;) {
        size_t k;
        int rc = clra__recv_now(&c, buf, sizeof buf, &k, st);
        if (rc == CLRA_ECONNLOST) { /* EOF or reset: the runtime ended the session */
            s->eof = 1;
            return 0;
        }
        if (rc)
            return rc;
        if (k == 0)
            return 0;
        if (sink(ctx, buf, k) != 0) {
            st->sys_errno = errno;
            clra__detail(st, "the trace sink refused %zu bytes after %llu (%s)", k,
                         (unsigned long long)s->bytes, strerror(errno));
            return CLRA_EIO;
        }
        s->bytes += (uint64_t)k;
        moved += k;
    }
    return 0;
}

/* Returns early (0, nothing moved) when a signal interrupts the wait, so a command's
 * Ctrl-C handler is seen at once. */
int clra_trace_pump(clra_trace_session_t *s, clra_trace_sink_fn sink, void *ctx, int wait_ms,
                    clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (!s || !sink)
        return CLRA_EINVAL;
    if (s->fd < 0 || s->eof)
        return 0;
    clra__conn_t c;
    clra__conn_t *cs[1] = {&c};
    unsigned ready;
    stream_conn(s, &c);
    int rc = clra__wait_readable(cs, 1, wait_ms, &ready, st);
    return rc ? rc : ready ? drain(s, sink, ctx, PUMP_MAX, st) : 0;
}

/* Reads the StopTracing reply; it must name the session being stopped. */
static int read_stop_reply(clra__conn_t *c, uint64_t id, const clra__deadline_t *d,
                           clra_status_t *st)
{
    uint8_t payload[256]; /* the reply is 8 bytes (OK) or 4 (Error); more is refused */
    clra__header_t h;
    size_t len;
    uint64_t got;
    int rc = clra__recv_message(c, &h, payload, sizeof payload, &len, d);
    if (rc) {
        clra__detail(st, "no complete reply to StopTracing: %s", clra_strerror(rc));
        return rc;
    }
    rc = clra__parse_session_reply(&h, payload, len, &got, st);
    if (rc == 0 && got != id) {
        clra__detail(st, "StopTracing for session 0x%llx was answered for 0x%llx",
                     (unsigned long long)id, (unsigned long long)got);
        rc = CLRA_EPROTO;
    }
    return rc;
}

/* Says which half of the stop was still missing when the deadline came. */
static int stop_timed_out(const clra_trace_session_t *s, int got_reply, clra_status_t *st)
{
    if (!got_reply && s->eof)
        clra__detail(st, "the stream ended but StopTracing got no reply before the deadline");
    else if (!got_reply)
        clra__detail(st, "no reply to StopTracing before the deadline (%llu bytes received)",
                     (unsigned long long)s->bytes);
    else
        clra__detail(st, "the runtime confirmed the stop but the stream did not end before the "
                     "deadline");
    return CLRA_ETIMEDOUT;
}

/* Waits on the stream and the stop connection together until both are done. */
static int stop_loop(clra_trace_session_t *s, clra__conn_t *stop, clra_trace_sink_fn sink,
                     void *ctx, const clra__deadline_t *d, clra_status_t *st)
{
    int got_reply = 0;
    clra__conn_t stream;
    stream_conn(s, &stream);
    while (!(got_reply && s->eof)) {
        int left = clra__deadline_left_ms(d);
        if (left == 0)
            return stop_timed_out(s, got_reply, st);
        clra__conn_t *cs[2] = {s->eof ? NULL : &stream, got_reply ? NULL : stop};
        unsigned ready;
        int rc = clra__wait_readable(cs, 2, left, &ready, st);
        if (rc == 0 && (ready & 1u))
            rc = drain(s, sink, ctx, PUMP_MAX, st);
        if (rc == 0 && (ready & 2u)) {
            rc = read_stop_reply(stop, s->id, d, st);
            got_reply = rc == 0;
        }
        if (rc)
            return rc;
    }
    return 0;
}

/* Sends StopTracing on the open stop connection and waits for both halves of the stop. */
static int stop_on(clra_trace_session_t *s, clra__conn_t *stop, clra_trace_sink_fn sink,
                   void *ctx, const clra__deadline_t *d, clra_status_t *st)
{
    uint8_t req[32];
    clra__writer_t w;
    clra__writer_init(&w, req, sizeof req);
    int rc = clra__build_stop_tracing(&w, s->id);
    if (rc == 0)
        rc = clra__send_all(stop, req, w.len, d);
    if (rc)
        clra__detail(st, "sending StopTracing: %s", clra_strerror(rc));
    else
        rc = stop_loop(s, stop, sink, ctx, d, st);
    return rc;
}

int clra_trace_stop(clra_trace_session_t *s, const clra_target_t *target,
                    clra_trace_sink_fn sink, void *ctx, int timeout_ms, clra_status_t *st)
{
    clra_status_t local;
    clra__endpoint_t e;
    clra__conn_t c;
    st = clra__status_begin(st, &local);
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    int rc = clra__target_resolve(target, &d, &e, st);
    if (rc)
        return rc;
    if (!s || s->fd < 0 || !sink) {
        clra__detail(st, "an open session, a target and a sink are required");
        rc = CLRA_EINVAL;
    }
    if (rc == 0)
        rc = clra__open(&e, &d, &c, st);
    clra__endpoint_done(&e);
    if (rc)
        return rc;
    rc = stop_on(s, &c, sink, ctx, &d, st);
    clra__close(&c);
    return rc;
}

void clra_trace_session_close(clra_trace_session_t *s)
{
    if (s && s->fd >= 0) {
        clra__conn_t c;
        stream_conn(s, &c);
        clra__close(&c);
        s->fd = -1;
        s->reserved[0] = NULL;
    }
}
