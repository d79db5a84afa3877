/* counters.c - what a counter session enables: dotnet-counters' providers and arguments.
 *
 * EventCounters providers: Informational, no keywords, EventCounterIntervalSec. Meters: the
 * System.Diagnostics.Metrics provider with keyword 0x2 (time series values) and the meters in
 * its Metrics argument. System.Runtime is one or the other, never both: its EventCounters, or
 * with CLRA_COUNTERS_RUNTIME_METER its .NET 9+ Meter, whose instruments have other names (one
 * set of names is what people read; dotnet-counters 10 shows the Meter on .NET 9 and later).
 */
#define _GNU_SOURCE
#include "util/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Adds one EventCounters provider. */
static int add_event_source(clra_trace_config_t *cfg, const char *name, size_t len,
                            unsigned interval_s, clra_status_t *st)
{
    char provider[256], args[64];
    if (len == 0 || len >= sizeof provider) {
        clra__detail(st, "a provider name of %zu characters in the counter list (1 to %zu)",
                     len, sizeof provider - 1);
        return CLRA_EINVAL;
    }
    memcpy(provider, name, len);
    provider[len] = '\0';
    snprintf(args, sizeof args, "EventCounterIntervalSec=%u", interval_s);
    return clra_trace_config_add_provider(cfg, provider, 0, 4, args, st);
}

int clra_counters_config(clra_trace_config_t *cfg, const char *providers, unsigned interval_s,
                         const char *session_id, clra_status_t *st)
{
    return clra_counters_config2(cfg, providers, interval_s, session_id, 0, st);
}

int clra_counters_config2(clra_trace_config_t *cfg, const char *providers, unsigned interval_s,
                          const char *session_id, unsigned flags, clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (!cfg || interval_s == 0)
        return CLRA_EINVAL;
    const char *list = providers && providers[0] ? providers : CLRA_COUNTERS_DEFAULT;
    char meters[4096] = "";
    size_t used = 0;
    for (const char *p = list;;) {
        size_t len = strcspn(p, ",");
        int runtime = len == strlen(CLRA_COUNTERS_DEFAULT) &&
                      strncmp(p, CLRA_COUNTERS_DEFAULT, len) == 0;
        int meter = !runtime || (flags & CLRA_COUNTERS_RUNTIME_METER);
        int counters = !runtime || (flags & CLRA_COUNTERS_RUNTIME_EVENTCOUNTERS) ||
                       !(flags & CLRA_COUNTERS_RUNTIME_METER);
        int rc = counters ? add_event_source(cfg, p, len, interval_s, st) : 0;
        if (rc)
            return rc;
        if (meter && used + len + 2 < sizeof meters)
            used += (size_t)snprintf(meters + used, sizeof meters - used, "%s%.*s",
                                     used ? "," : "", (int)len, p);
        if (!p[len])
            break;
        p += len + 1;
    }
    cfg->rundown_keyword = 0;
    if (!used)
        return 0;
    char *args;
    if (asprintf(&args, "SessionId=%s;Metrics=%s;RefreshInterval=%u;MaxTimeSeries=1000;"
                 "MaxHistograms=10", session_id ? session_id : "clrattach", meters,
                 interval_s) < 0)
        return CLRA_ENOMEM;
    int rc = clra_trace_config_add_provider(cfg, "System.Diagnostics.Metrics", 0x2, 4, args, st);
    free(args);
    return rc;
}
