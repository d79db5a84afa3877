/* eventpipe_codec.c - CollectTracing 1-6 (CT5 also as a user_events session) and StopTracing on
 * the wire (docs/protocol.md 3.2). */
#include "proto/eventpipe_codec.h"

/* CollectTracing5's per-provider tail: enable, then the ids. No filter is "deny nothing". */
static void put_event_filter(clra__writer_t *w, const clra_trace_provider_t *p)
{
    const clra__event_filter_t *f = clra__provider_filter(p);
    clra__put_u8(w, f ? (uint8_t)f->allow : 0);
    clra__put_u32(w, f ? (uint32_t)f->count : 0);
    for (size_t i = 0; f && i < f->count; i++)
        clra__put_u32(w, f->ids[i]);
}

/* A user_events provider's tracepoint configuration, after its event filter: the default
 * tracepoint name (NULL string when none), then the count of tracepoint sets and each set's
 * name and event ids. */
static void put_tracepoint_config(clra__writer_t *w, const clra__user_events_t *ue,
                                  const clra_trace_provider_t *p)
{
    uint32_t sets = 0;
    const clra__tracepoint_set_t *t;
    clra__put_string(w, ue->tracepoint);
    for (t = clra__provider_tracepoints(p); t; t = t->next)
        sets++;
    clra__put_u32(w, sets);
    for (t = clra__provider_tracepoints(p); t; t = t->next) {
        clra__put_string(w, t->name);
        clra__put_u32(w, (uint32_t)t->count);
        for (size_t i = 0; i < t->count; i++)
            clra__put_u32(w, t->ids[i]);
    }
}

/* CollectTracing5 for a user_events session: no buffer, format or stackwalk (the runtime
 * reads none), the rundown keyword, then the providers with their filters and tracepoints. */
static int build_user_events(clra__writer_t *w, const clra_trace_config_t *cfg,
                             const clra__user_events_t *ue)
{
    clra__begin_message(w, CLRA__SET_EVENTPIPE, (uint8_t)(CLRA__EVENTPIPE_STOP + 5));
    clra__put_u32(w, CLRA__SESSION_USER_EVENTS);
    clra__put_u64(w, cfg->rundown_keyword);
    clra__put_u32(w, (uint32_t)cfg->provider_count);
    for (size_t i = 0; i < cfg->provider_count; i++) {
        const clra_trace_provider_t *p = &cfg->providers[i];
        clra__put_u64(w, p->keywords);
        clra__put_u32(w, p->level);
        clra__put_string(w, p->name);
        clra__put_string(w, p->arguments);
        put_event_filter(w, p);
        put_tracepoint_config(w, ue, p);
    }
    return clra__end_message(w);
}

/* Fields in the order the runtime's parsers read them: (CT5: the session type,) buffer and
 * format, then the rundown/stackwalk fields of the version, then the provider list. Absent arguments travel
 * as the NULL string (count 0), as the runtime accepts. */
int clra__build_collect_tracing(clra__writer_t *w, const clra_trace_config_t *cfg, int version)
{
    if (version < 1 || version > 6)
        return CLRA_EINVAL;
    if (version == 5 && clra__trace_user_events(cfg))
        return build_user_events(w, cfg, clra__trace_user_events(cfg));
    clra__begin_message(w, CLRA__SET_EVENTPIPE, (uint8_t)(CLRA__EVENTPIPE_STOP + version));
    if (version >= 5)
        clra__put_u32(w, CLRA__SESSION_STREAMING);
    clra__put_u32(w, cfg->buffer_mb);
    clra__put_u32(w, CLRA__TRACE_FORMAT_NETTRACE);
    if (version == 2 || version == 3)
        clra__put_u8(w, cfg->rundown_keyword != 0);
    if (version >= 4)
        clra__put_u64(w, cfg->rundown_keyword);
    if (version >= 3)
        clra__put_u8(w, cfg->stackwalk != 0);
    clra__put_u32(w, (uint32_t)cfg->provider_count);
    for (size_t i = 0; i < cfg->provider_count; i++) {
        const clra_trace_provider_t *p = &cfg->providers[i];
        clra__put_u64(w, p->keywords);
        clra__put_u32(w, p->level);
        clra__put_string(w, p->name);
        clra__put_string(w, p->arguments);
        if (version >= 5)
            put_event_filter(w, p);
    }
    if (version == 6)
        clra__put_u32(w, clra__trace_buffering(cfg));
    return clra__end_message(w);
}

/* Older runtimes read 8 bytes without checking the length, so exactly 8 go out. */
int clra__build_stop_tracing(clra__writer_t *w, uint64_t session_id)
{
    clra__begin_message(w, CLRA__SET_EVENTPIPE, CLRA__EVENTPIPE_STOP);
    clra__put_u64(w, session_id);
    return clra__end_message(w);
}

/* The session id is the whole payload: a longer OK would mean stream bytes were eaten as
 * reply, a shorter one that the peer is not answering this command. */
int clra__parse_session_reply(const clra__header_t *h, const uint8_t *payload, size_t len,
                              uint64_t *id, clra_status_t *st)
{
    *id = 0;
    if (h->command_set == CLRA__SET_SERVER && h->command_id == CLRA__SERVER_ERROR) {
        int32_t hr;
        if (clra__parse_hresult_reply(h, payload, len, &hr) == CLRA_ERUNTIME) {
            st->hresult = hr;
            return CLRA_ERUNTIME;
        }
    }
    if (h->command_set != CLRA__SET_SERVER || h->command_id != CLRA__SERVER_OK || len != 8) {
        clra__detail(st, "expected OK with an 8-byte session id, got command set 0x%02X id "
                     "0x%02X with %zu payload bytes", h->command_set, h->command_id, len);
        return CLRA_EPROTO;
    }
    clra__reader_t r;
    clra__reader_init(&r, payload, len);
    *id = clra__get_u64(&r);
    if (*id == 0) {
        clra__detail(st, "the reply names session 0, which no runtime uses for a real session");
        return CLRA_EPROTO;
    }
    return 0;
}
