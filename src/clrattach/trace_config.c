/* trace_config.c - what an EventPipe session collects: providers, buffer, rundown, stacks.
 *
 * The provider list syntax is dotnet-trace's (Name[:Keywords[:Level[:Arguments]]], comma
 * separated), so commands people already use carry over. Every limit the runtime enforces
 * with a bare BAD_ENCODING (docs/protocol.md 3.2) is checked here first, where the
 * error can say which provider and which part is wrong.
 */
#define _GNU_SOURCE
#include "trace.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LEVEL_DEFAULT 4 /* Informational, as dotnet-trace defaults */

void clra_trace_config_init(clra_trace_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->buffer_mb = CLRA_TRACE_DEFAULT_BUFFER_MB;
    cfg->rundown_keyword = CLRA_TRACE_RUNDOWN_DEFAULT;
    cfg->stackwalk = 1;
}

void clra__trace_free_providers(clra_trace_config_t *cfg)
{
    for (size_t i = 0; i < cfg->provider_count; i++) {
        free(cfg->providers[i].name);
        free(cfg->providers[i].arguments);
        free(cfg->providers[i].reserved[0]);
        clra__free_tracepoints(&cfg->providers[i]);
    }
    free(cfg->providers);
    cfg->providers = NULL;
    cfg->provider_count = cfg->provider_cap = 0;
}

void clra_trace_config_free(clra_trace_config_t *cfg)
{
    clra__trace_free_providers(cfg);
    clra__free_user_events(cfg);
}

static int is_utf8(const char *s)
{
    return clra__utf8_to_utf16(s, strlen(s), NULL, 0) >= 0;
}

/* Checks one provider against the runtime's rules, so a refusal never reaches the wire. */
static int check_provider(const char *name, uint32_t level, const char *arguments,
                          clra_status_t *st)
{
    if (!name || !name[0]) {
        clra__detail(st, "a provider needs a non-empty name");
        return CLRA_EINVAL;
    }
    if (level > CLRA_TRACE_LEVEL_MAX) {
        clra__detail(st, "provider '%s': level %u is above 5 (Verbose)", name, (unsigned)level);
        return CLRA_EINVAL;
    }
    if (!is_utf8(name) || (arguments && !is_utf8(arguments))) {
        clra__detail(st, "provider '%s': the name or arguments are not valid UTF-8", name);
        return CLRA_EENCODING;
    }
    return 0;
}

int clra_trace_config_add_provider(clra_trace_config_t *cfg, const char *name, uint64_t keywords,
                                   uint32_t level, const char *arguments, clra_status_t *st)
{
    int rc = check_provider(name, level, arguments, st);
    if (rc)
        return rc;
    if (cfg->provider_count >= CLRA_TRACE_MAX_PROVIDERS) {
        clra__detail(st, "more than %d providers; the runtime accepts at most that many",
                     CLRA_TRACE_MAX_PROVIDERS);
        return CLRA_EINVAL;
    }
    if (cfg->provider_count == cfg->provider_cap) {
        size_t cap = cfg->provider_cap ? cfg->provider_cap * 2 : 8;
        clra_trace_provider_t *grown = realloc(cfg->providers, cap * sizeof *grown);
        if (!grown)
            return CLRA_ENOMEM;
        cfg->providers = grown;
        cfg->provider_cap = cap;
    }
    clra_trace_provider_t *p = &cfg->providers[cfg->provider_count];
    p->name = strdup(name);
    p->arguments = arguments ? strdup(arguments) : NULL;
    p->keywords = keywords;
    p->level = level;
    p->reserved[0] = p->reserved[1] = NULL;
    if (!p->name || (arguments && !p->arguments)) {
        free(p->name);
        free(p->arguments);
        return CLRA_ENOMEM;
    }
    cfg->provider_count++;
    return 0;
}

/* The oldest command carrying every option wins: runtimes answer newer command ids with
 * UNKNOWN_COMMAND, so this reaches the widest range of runtimes without a probe round trip
 * (each probe is a connection to a single-threaded server). CT1 implies rundown with the
 * default keyword and stacks; CT2 adds the rundown bool; CT3 the stackwalk bool; CT4 replaces
 * the rundown bool with a keyword (docs/protocol.md 3.2). */
int clra_trace_config_version(const clra_trace_config_t *cfg)
{
    uint64_t rk = cfg->rundown_keyword;
    int plain_rundown = rk == 0 || rk == CLRA_TRACE_RUNDOWN_DEFAULT;
    if (clra__trace_user_events(cfg))
        return 5; /* only CT5 has the session type; CT6's trailing mode is for streams */
    if (clra__trace_buffering(cfg) != CLRA_TRACE_BUFFERING_DROP)
        return 6;
    for (size_t i = 0; i < cfg->provider_count; i++)
        if (clra__provider_filter(&cfg->providers[i]))
            return 5;
    if (!plain_rundown)
        return 4;
    if (!cfg->stackwalk)
        return 3;
    return rk == 0 ? 2 : 1;
}

const char *clra_trace_version_runtime(int version)
{
    switch (version) {
    case 1:
    case 2:
        return ".NET Core 3.0";
    case 3:
    case 4:
        return ".NET 9";
    case 5:
        return ".NET 10";
    default:
        return ".NET 11";
    }
}

int clra__trace_config_check(const clra_trace_config_t *cfg, clra_status_t *st)
{
    if (cfg->provider_count == 0 || cfg->provider_count > CLRA_TRACE_MAX_PROVIDERS) {
        clra__detail(st, "%zu providers: a session needs 1 to %d", cfg->provider_count,
                     CLRA_TRACE_MAX_PROVIDERS);
        return CLRA_EINVAL;
    }
    if (cfg->buffer_mb == 0) {
        clra__detail(st, "the session buffer must be at least 1 MB");
        return CLRA_EINVAL;
    }
    for (size_t i = 0; i < cfg->provider_count; i++) {
        const clra_trace_provider_t *p = &cfg->providers[i];
        int rc = check_provider(p->name, p->level, p->arguments, st);
        if (rc)
            return rc;
    }
    return clra__trace_user_events_check(cfg, st);
}
