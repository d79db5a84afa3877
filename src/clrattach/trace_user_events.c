/* trace_user_events.c - CollectTracing5's user_events sessions: which tracepoints the runtime
 * writes each provider's events to, and the user_events_data descriptor it registers them on.
 *
 * The runtime names each tracepoint "NAME <its field list>" when it registers it with the
 * kernel, so a name with a space or punctuation would change the event's format; names are
 * kept to letters, digits and '_' (what perf and ftrace accept without quoting).
 */
#define _GNU_SOURCE
#include "trace.h"
#include "util/file_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEBUGFS_TWIN "/sys/kernel/debug/tracing/user_events_data"

/* 0 when name is a usable tracepoint name; otherwise CLRA_EINVAL with the reason. */
static int check_name(const char *name, clra_status_t *st)
{
    size_t n = name ? strlen(name) : 0;
    if (n == 0 || n > CLRA_TRACE_MAX_TRACEPOINT_NAME ||
        strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != n) {
        clra__detail(st, "tracepoint name '%.140s': use 1 to %d letters, digits or '_'",
                     name ? name : "", CLRA_TRACE_MAX_TRACEPOINT_NAME);
        return CLRA_EINVAL;
    }
    return 0;
}

int clra_trace_config_set_user_events(clra_trace_config_t *cfg, const char *tracepoint,
                                      int data_fd, clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (!cfg || clra__trace_user_events(cfg) || data_fd < -1) {
        clra__detail(st, "%s", cfg && clra__trace_user_events(cfg)
                                   ? "the configuration is a user_events session already"
                                   : "a configuration and a descriptor (or -1) are required");
        return CLRA_EINVAL;
    }
    if (tracepoint && check_name(tracepoint, st) != 0)
        return CLRA_EINVAL;
    clra__user_events_t *ue = calloc(1, sizeof *ue);
    if (!ue || (tracepoint && !(ue->tracepoint = strdup(tracepoint)))) {
        free(ue);
        return CLRA_ENOMEM;
    }
    ue->data_fd = data_fd;
    cfg->reserved[1] = ue;
    return 0;
}

/* Appends one set to provider p's list (order kept: the request lists them as given). */
static int attach_set(clra_trace_provider_t *p, const char *name, const uint32_t *ids,
                      size_t count)
{
    clra__tracepoint_set_t *t = malloc(sizeof *t + count * sizeof t->ids[0]);
    if (!t || !(t->name = strdup(name))) {
        free(t);
        return CLRA_ENOMEM;
    }
    t->next = NULL;
    t->count = count;
    memcpy(t->ids, ids, count * sizeof ids[0]);
    clra__tracepoint_set_t **end = (clra__tracepoint_set_t **)&p->reserved[1];
    while (*end)
        end = &(*end)->next;
    *end = t;
    return 0;
}

/* Every check comes before the first change, so a refusal leaves cfg as it was. */
int clra_trace_config_add_tracepoint(clra_trace_config_t *cfg, const char *provider,
                                     const char *tracepoint, const uint32_t *ids, size_t count,
                                     clra_status_t *st)
{
    clra_status_t local;
    size_t found = 0;
    st = clra__status_begin(st, &local);
    if (!cfg || !clra__trace_user_events(cfg)) {
        clra__detail(st, "tracepoints belong to a user_events session; set one up first");
        return CLRA_EINVAL;
    }
    if (check_name(tracepoint, st) != 0)
        return CLRA_EINVAL;
    if (count == 0 || count > CLRA_TRACE_MAX_EVENT_IDS || !ids) {
        clra__detail(st, "tracepoint '%s' needs 1 to %d event ids, not %zu", tracepoint,
                     CLRA_TRACE_MAX_EVENT_IDS, count);
        return CLRA_EINVAL;
    }
    for (size_t i = 0; provider && i < cfg->provider_count; i++)
        found += strcmp(cfg->providers[i].name, provider) == 0;
    if (!found) {
        clra__detail(st, "tracepoint for '%s', which is not among the providers",
                     provider ? provider : "");
        return CLRA_EINVAL;
    }
    for (size_t i = 0; i < cfg->provider_count; i++)
        if (strcmp(cfg->providers[i].name, provider) == 0 &&
            attach_set(&cfg->providers[i], tracepoint, ids, count) != 0)
            return CLRA_ENOMEM;
    return 0;
}

/* Decimal ids separated by commas, as --event-ids reads them. */
static int parse_ids(const char *text, uint32_t *ids, size_t *count, clra_status_t *st)
{
    *count = 0;
    for (const char *p = text;;) {
        char *end;
        errno = 0;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || errno || v > 0xFFFFFFFFul || *p == '-' || *p == '+' || *p == ' ' ||
            (*end && *end != ',') || *count == CLRA_TRACE_MAX_EVENT_IDS) {
            clra__detail(st, "tracepoint ids '%.200s': write decimal event ids separated by "
                         "commas (at most %d)", text, CLRA_TRACE_MAX_EVENT_IDS);
            return CLRA_EINVAL;
        }
        ids[(*count)++] = (uint32_t)v;
        if (!*end)
            return 0;
        p = end + 1;
    }
}

int clra_trace_config_parse_tracepoint(clra_trace_config_t *cfg, const char *spec,
                                       clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    const char *colon = spec ? strrchr(spec, ':') : NULL;
    const char *eq = colon ? strchr(colon, '=') : NULL;
    if (!colon || colon == spec || !eq || eq == colon + 1) {
        clra__detail(st, "tracepoint '%.200s': write Provider:Tracepoint=ID[,ID...]",
                     spec ? spec : "");
        return CLRA_EINVAL;
    }
    char provider[512], name[CLRA_TRACE_MAX_TRACEPOINT_NAME + 2];
    size_t plen = (size_t)(colon - spec), nlen = (size_t)(eq - colon - 1);
    if (plen >= sizeof provider || nlen >= sizeof name) {
        clra__detail(st, "tracepoint '%.200s': the provider or tracepoint name is too long",
                     spec);
        return CLRA_EINVAL;
    }
    memcpy(provider, spec, plen);
    provider[plen] = '\0';
    memcpy(name, colon + 1, nlen);
    name[nlen] = '\0';
    uint32_t *ids = malloc(CLRA_TRACE_MAX_EVENT_IDS * sizeof *ids);
    size_t count;
    int rc = ids ? parse_ids(eq + 1, ids, &count, st) : CLRA_ENOMEM;
    if (rc == 0)
        rc = clra_trace_config_add_tracepoint(cfg, provider, name, ids, count, st);
    free(ids);
    return rc;
}

void clra__free_tracepoints(clra_trace_provider_t *p)
{
    clra__tracepoint_set_t *t = p->reserved[1];
    while (t) {
        clra__tracepoint_set_t *next = t->next;
        free(t->name);
        free(t);
        t = next;
    }
    p->reserved[1] = NULL;
}

void clra__free_user_events(clra_trace_config_t *cfg)
{
    clra__user_events_t *ue = cfg->reserved[1];
    if (ue)
        free(ue->tracepoint);
    free(ue);
    cfg->reserved[1] = NULL;
}

int clra__trace_user_events_check(const clra_trace_config_t *cfg, clra_status_t *st)
{
    const clra__user_events_t *ue = clra__trace_user_events(cfg);
    if (!ue)
        return 0;
    if (clra__trace_buffering(cfg) != CLRA_TRACE_BUFFERING_DROP) {
        clra__detail(st, "a user_events session has no buffer to block on; the buffering mode "
                     "is for streamed traces");
        return CLRA_EINVAL;
    }
    for (size_t i = 0; !ue->tracepoint && i < cfg->provider_count; i++)
        if (!clra__provider_tracepoints(&cfg->providers[i])) {
            clra__detail(st, "provider '%s' has no tracepoint: give a default tracepoint or "
                         "map its event ids to one", cfg->providers[i].name);
            return CLRA_EINVAL;
        }
    return 0;
}

/* Says what the machine lacks: no such file means no CONFIG_USER_EVENTS or no tracefs. */
static int open_failed(int err, clra_status_t *st)
{
    st->sys_errno = err;
    if (err == ENOENT)
        clra__detail(st, "%s does not exist: this kernel has no user_events (CONFIG_USER_EVENTS, "
                     "Linux 6.4 or later) or tracefs is not mounted (as root: mount -t tracefs "
                     "nodev /sys/kernel/tracing)", CLRA_TRACE_USER_EVENTS_DATA);
    else
        clra__detail(st, "cannot open %s: %s (user_events needs root or write access to it)",
                     CLRA_TRACE_USER_EVENTS_DATA, strerror(err));
    return err == EACCES || err == EPERM ? CLRA_EACCES : CLRA_EIO;
}

int clra__user_events_fd(const clra__user_events_t *ue, int *fd, int *opened, clra_status_t *st)
{
    *opened = 0;
    *fd = ue->data_fd;
    if (*fd >= 0)
        return 0;
    *fd = open(CLRA_TRACE_USER_EVENTS_DATA, O_RDWR | CLRA_O_CLOEXEC);
    if (*fd < 0 && errno == ENOENT)
        *fd = open(DEBUGFS_TWIN, O_RDWR | CLRA_O_CLOEXEC);
    if (*fd < 0)
        return open_failed(errno == ENOENT || errno == ENOTDIR ? ENOENT : errno, st);
    *opened = 1;
    return 0;
}
