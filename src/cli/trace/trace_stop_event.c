/* trace_stop_event.c - `clrattach trace --stopping-event-provider-name/-event-name/-payload-
 * filter`: the recorded stream is also fed to the library's streaming decoder, and the first
 * event of that provider (and name, and payload values) ends the recording, as dotnet-trace
 * collect does. The options follow dotnet-trace's rules: a name or filter needs the provider, a
 * filter needs the name, the filter is name:value pairs split at ',' and ':'. */
#define _GNU_SOURCE
#include "trace/trace_stop_event.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* strndup's job (the Windows C runtime has none). */
static char *copy_n(const char *p, size_t n)
{
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, p, n);
        s[n] = '\0';
    }
    return s;
}

/* Keeps a later value for a repeated name, as dotnet-trace's dictionary does. */
static int add_pair(trace_stop_event_t *e, const char *pair, size_t len)
{
    const char *colon = memchr(pair, ':', len);
    if (!colon || memchr(colon + 1, ':', len - (size_t)(colon - pair) - 1)) {
        fprintf(stderr, "clrattach: --stopping-event-payload-filter is name:value pairs separated "
                "by commas, not '%.*s'\n", (int)len, pair);
        return -1;
    }
    char *name = copy_n(pair, (size_t)(colon - pair));
    char *value = copy_n(colon + 1, len - (size_t)(colon - pair) - 1);
    int at = e->count;
    for (int i = 0; name && i < e->count; i++)
        if (strcmp(e->names[i], name) == 0)
            at = i;
    if (!name || !value || at == TRACE_STOP_FILTERS) {
        fprintf(stderr, "clrattach: --stopping-event-payload-filter: at most %d fields\n",
                TRACE_STOP_FILTERS);
        free(name);
        free(value);
        return -1;
    }
    if (at < e->count) {
        free(e->names[at]);
        free(e->values[at]);
    } else {
        e->count++;
    }
    e->names[at] = name;
    e->values[at] = value;
    return 0;
}

int trace_stop_event_settle(trace_stop_event_t *e)
{
    int provider = e->provider && *e->provider, event = e->event && *e->event;
    int filter = e->filter && *e->filter;
    if (!provider && (event || filter)) {
        fprintf(stderr, "clrattach: --stopping-event-event-name and --stopping-event-payload-"
                "filter need --stopping-event-provider-name\n");
        return -1;
    }
    if (!event && filter) {
        fprintf(stderr, "clrattach: --stopping-event-payload-filter needs "
                "--stopping-event-event-name\n");
        return -1;
    }
    if (!provider)
        e->provider = NULL;
    if (!event)
        e->event = NULL;
    for (const char *p = filter ? e->filter : NULL; p;) {
        size_t n = strcspn(p, ",");
        if (add_pair(e, p, n) != 0)
            return -1;
        p = p[n] ? p + n + 1 : NULL;
    }
    return 0;
}

void trace_stop_event_free(trace_stop_event_t *e)
{
    for (int i = 0; i < e->count; i++) {
        free(e->names[i]);
        free(e->values[i]);
    }
    e->count = 0;
}

/* Whether a payload value reads as expected: as dotnet-trace compares the value's invariant
 * text, so a bool is True or False (any case here) and a float any spelling of its number. */
static int value_is(const clra_nettrace_value_t *v, const char *expected)
{
    char buf[128];
    switch (v->field->type) {
    case CLRA_NETTRACE_STRING:
        return strcmp(v->text, expected) == 0;
    case CLRA_NETTRACE_BOOL:
        return strcasecmp(expected, v->i ? "true" : "false") == 0;
    case CLRA_NETTRACE_FLOAT: case CLRA_NETTRACE_DOUBLE: {
        char *end;
        double want = strtod(expected, &end);
        return end != expected && *end == '\0' && want == v->f;
    }
    default:
        clra_nettrace_value_format(v, buf, sizeof buf);
        return strcmp(buf, expected) == 0;
    }
}

/* The first event of the provider and name decides whether the filter's names exist at all. */
static int on_event(void *ctx, const clra_nettrace_event_t *ev)
{
    trace_stop_monitor_t *m = ctx;
    const trace_stop_event_t *e = m->e;
    const clra_nettrace_metadata_t *meta = ev->meta;
    if (m->matched || m->gave_up || !meta || strcmp(meta->provider, e->provider) != 0 ||
        (e->event && strcmp(meta->event_name, e->event) != 0))
        return 0;
    for (int i = 0; i < e->count; i++) {
        clra_nettrace_value_t v;
        char text[512];
        clra_status_t st;
        int rc = clra_nettrace_payload_get(meta, ev->payload, ev->payload_len, e->names[i], &v,
                                           text, sizeof text, &st);
        if (rc == CLRA_EINVAL) {
            m->gave_up = 1;
            fprintf(stderr, "clrattach: the event %s/%s has no payload field '%s', so the "
                    "stopping event can never match; recording goes on\n", meta->provider,
                    meta->event_name, cli_vis(e->names[i]));
            return 0;
        }
        if (rc != 0 || v.kind != CLRA_NETTRACE_VALUE || !value_is(&v, e->values[i]))
            return 0;
    }
    m->matched = 1;
    snprintf(m->what, sizeof m->what, "%s/%s", meta->provider,
             meta->event_name[0] ? meta->event_name : "(unnamed)");
    return 1; /* nothing more to look for */
}

int trace_stop_monitor_open(trace_stop_monitor_t *m, const trace_stop_event_t *e)
{
    memset(m, 0, sizeof *m);
    m->e = e;
    if (!e->provider)
        return 0;
    clra_nettrace_callbacks_t cb = {0};
    cb.event = on_event;
    if (clra_nettrace_decoder_new(&cb, m, &m->d) != 0) {
        fprintf(stderr, "clrattach: out of memory\n");
        return -1;
    }
    return 0;
}

void trace_stop_monitor_feed(trace_stop_monitor_t *m, const void *data, size_t len)
{
    clra_status_t st;
    if (!m->d || m->matched || m->gave_up)
        return;
    int rc = clra_nettrace_decoder_feed(m->d, data, len, &st);
    if (rc && !m->matched) {
        m->gave_up = 1;
        fprintf(stderr, "clrattach: cannot watch for the stopping event: %s; recording goes on\n",
                cli_vis(st.detail));
    }
}

void trace_stop_monitor_close(trace_stop_monitor_t *m)
{
    clra_nettrace_decoder_free(m->d);
    m->d = NULL;
}
