/* trace_filter.c - per-provider event-id filters, the reason to use CollectTracing5.
 *
 * dotnet-trace's provider string (Name:Keywords:Level:Arguments) has no place for event ids
 * that could not be mistaken for provider arguments, so filters come separately, keyed by the
 * provider's name ("Name:ID,ID"); every provider string keeps meaning what it meant.
 */
#define _GNU_SOURCE
#include "trace.h"
#include "util/file_io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One copy per provider entry, so clra_trace_config_free can free each on its own. */
static int attach_filter(clra_trace_provider_t *p, int allow, const uint32_t *ids, size_t count)
{
    clra__event_filter_t *f = malloc(sizeof *f + count * sizeof f->ids[0]);
    if (!f)
        return CLRA_ENOMEM;
    f->allow = allow != 0;
    f->count = count;
    memcpy(f->ids, ids, count * sizeof ids[0]);
    p->reserved[0] = f;
    return 0;
}

/* Every check comes before the first change, so a refusal leaves cfg as it was. */
int clra_trace_config_filter_events(clra_trace_config_t *cfg, const char *provider, int allow,
                                    const uint32_t *ids, size_t count, clra_status_t *st)
{
    size_t found = 0;
    if (count == 0 || count > CLRA_TRACE_MAX_EVENT_IDS || !ids) {
        clra__detail(st, "provider '%s': an event filter needs 1 to %d ids, not %zu",
                     provider ? provider : "", CLRA_TRACE_MAX_EVENT_IDS, count);
        return CLRA_EINVAL;
    }
    for (size_t i = 0; provider && i < cfg->provider_count; i++) {
        if (strcmp(cfg->providers[i].name, provider) != 0)
            continue;
        if (clra__provider_filter(&cfg->providers[i])) {
            clra__detail(st, "provider '%s' has an event filter already; give all its ids in "
                         "one list", provider);
            return CLRA_EINVAL;
        }
        found++;
    }
    if (!found) {
        clra__detail(st, "event filter for '%s', which is not among the providers",
                     provider ? provider : "");
        return CLRA_EINVAL;
    }
    for (size_t i = 0; i < cfg->provider_count; i++)
        if (strcmp(cfg->providers[i].name, provider) == 0 &&
            attach_filter(&cfg->providers[i], allow, ids, count) != 0)
            return CLRA_ENOMEM;
    return 0;
}

/* The mode rides in reserved[0] as a number, so the public struct keeps its layout. */
int clra_trace_config_set_buffering(clra_trace_config_t *cfg, clra_trace_buffering_t mode,
                                    clra_status_t *st)
{
    if (mode != CLRA_TRACE_BUFFERING_DROP && mode != CLRA_TRACE_BUFFERING_BLOCK) {
        clra__detail(st, "buffering mode %d: use drop (0) or block (1)", (int)mode);
        return CLRA_EINVAL;
    }
    cfg->reserved[0] = (void *)(uintptr_t)mode;
    return 0;
}

/* Reads "ID[,ID...]" (decimal, each fitting 32 bits) into ids; the count, or -1. */
static long parse_ids(const char *text, uint32_t *ids, size_t cap)
{
    size_t n = 0;
    const char *at = text;
    for (;;) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(at, &end, 10);
        if (end == at || *at == '-' || *at == '+' || errno || v > 0xFFFFFFFFull || n == cap)
            return -1;
        ids[n++] = (uint32_t)v;
        if (*end == '\0')
            return (long)n;
        if (*end != ',')
            return -1;
        at = end + 1;
    }
}

int clra_trace_config_parse_event_filter(clra_trace_config_t *cfg, const char *spec, int allow,
                                         clra_status_t *st)
{
    const char *colon = spec ? strrchr(spec, ':') : NULL;
    if (!colon || colon == spec) {
        clra__detail(st, "event filter '%s': write it as Name:ID[,ID...]", spec ? spec : "");
        return CLRA_EINVAL;
    }
    uint32_t *ids = malloc(CLRA_TRACE_MAX_EVENT_IDS * sizeof *ids);
    char *name = clra__strndup(spec, (size_t)(colon - spec));
    if (!ids || !name) {
        free(ids);
        free(name);
        return CLRA_ENOMEM;
    }
    long n = parse_ids(colon + 1, ids, CLRA_TRACE_MAX_EVENT_IDS);
    int rc;
    if (n < 0) {
        clra__detail(st, "event filter '%s': the ids must be decimal numbers below 2^32 "
                     "separated by ',' (at most %d)", spec, CLRA_TRACE_MAX_EVENT_IDS);
        rc = CLRA_EINVAL;
    } else {
        rc = clra_trace_config_filter_events(cfg, name, allow, ids, (size_t)n, st);
    }
    free(ids);
    free(name);
    return rc;
}
