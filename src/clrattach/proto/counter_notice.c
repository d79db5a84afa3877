/* counter_notice.c - what System.Diagnostics.Metrics (MetricsEventSource) says about a counter
 * session rather than a value: errors, limits reached, a second session refused.
 *
 * Each such event carries the session it concerns as a string (sessionId, or runningSessionId
 * for MultipleSessionsNotSupportedError: the session that holds the Meters, so the notice is
 * for every other session) and, for errors, errorMessage.
 */
#define _GNU_SOURCE
#include "clrattach.h"

#include <stdio.h>
#include <string.h>

typedef struct notice {
    char session[64], running[64], message[400], fields[400];
} notice_t;

/* Keeps the session ids and the message; every other member as "name=value" for the text. */
static int take(void *ctx, const clra_nettrace_value_t *v)
{
    notice_t *n = ctx;
    if (v->kind != CLRA_NETTRACE_VALUE || !v->name)
        return 0;
    const char *t = v->text ? v->text : "";
    if (strcmp(v->name, "sessionId") == 0)
        snprintf(n->session, sizeof n->session, "%s", t);
    else if (strcmp(v->name, "runningSessionId") == 0)
        snprintf(n->running, sizeof n->running, "%s", t);
    else if (strcmp(v->name, "errorMessage") == 0) /* its first line: no stack trace */
        snprintf(n->message, sizeof n->message, "%.*s", (int)strcspn(t, "\r\n"), t);
    else {
        char text[96];
        size_t used = strlen(n->fields);
        clra_nettrace_value_format(v, text, sizeof text);
        snprintf(n->fields + used, sizeof n->fields - used, "%s%s=%s", used ? ", " : "", v->name,
                 text);
    }
    return 0;
}

int clra_counter_notice_get(const clra_nettrace_event_t *ev, const char *session_id, char *msg,
                            size_t cap)
{
    const clra_nettrace_metadata_t *m = ev ? ev->meta : NULL;
    if (!m || !msg || cap == 0 || strcmp(m->provider, "System.Diagnostics.Metrics") != 0)
        return 0;
    const char *e = m->event_name;
    int error = strcmp(e, "Error") == 0, callback = strcmp(e, "ObservableInstrumentCallbackError") == 0,
        series = strcmp(e, "TimeSeriesLimitReached") == 0,
        histograms = strcmp(e, "HistogramLimitReached") == 0,
        refused = strcmp(e, "MultipleSessionsNotSupportedError") == 0,
        mismatch = strcmp(e, "MultipleSessionsConfiguredIncorrectlyError") == 0;
    if (!error && !callback && !series && !histograms && !refused && !mismatch)
        return 0;
    notice_t n = {0};
    if (clra_nettrace_payload_walk(m, ev->payload, ev->payload_len, take, &n, NULL) != 0)
        return 0;
    if (session_id && ((refused && strcmp(n.running, session_id) == 0) ||
                       (!refused && n.session[0] && strcmp(n.session, session_id) != 0)))
        return 0;
    if (refused)
        snprintf(msg, cap, "another metrics session (%s) holds the process's Meters, and the "
                 "runtime serves one at a time: no Meter values for this session (EventCounters "
                 "still come)", n.running[0] ? n.running : "of another tool");
    else if (mismatch)
        snprintf(msg, cap, "the process's metrics session was configured otherwise by another "
                 "tool (%s): no Meter values for this one", n.fields);
    else if (callback)
        snprintf(msg, cap, "an observable instrument's callback threw in the process: %s",
                 n.message);
    else if (series)
        snprintf(msg, cap, "the time series limit (MaxTimeSeries) is reached: not every Meter "
                 "value is shown");
    else if (histograms)
        snprintf(msg, cap, "the histogram limit (MaxHistograms) is reached: not every histogram "
                 "is shown");
    else
        snprintf(msg, cap, "the process's metrics collection failed: %s", n.message);
    return 1;
}
