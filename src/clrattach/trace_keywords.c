/* trace_keywords.c - the runtime provider's keywords by name (dotnet-trace's --clrevents and
 * --clreventlevel), so "gc+exception" means what it means to dotnet-trace.
 *
 * Names and values: the runtime's ClrEtwAll.man (Microsoft-Windows-DotNETRuntime keywords)
 * and dotnet-trace's ProviderUtils.cs table, aliases included ("fusion" and "assemblyloader"
 * are one bit; "gcheapcollect", "managedheapcollect" and dotnet-trace's spelling
 * "managedheadcollect" another).
 */
#define _GNU_SOURCE
#include "trace.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

static const clra_trace_keyword_t keywords[] = {
    {"gc", 0x1},
    {"gchandle", 0x2},
    {"fusion", 0x4},
    {"assemblyloader", 0x4},
    {"loader", 0x8},
    {"jit", 0x10},
    {"ngen", 0x20},
    {"startenumeration", 0x40},
    {"endenumeration", 0x80},
    {"security", 0x400},
    {"appdomainresourcemanagement", 0x800},
    {"jittracing", 0x1000},
    {"interop", 0x2000},
    {"contention", 0x4000},
    {"exception", 0x8000},
    {"threading", 0x10000},
    {"jittedmethodiltonativemap", 0x20000},
    {"overrideandsuppressngenevents", 0x40000},
    {"type", 0x80000},
    {"gcheapdump", 0x100000},
    {"gcsampledobjectallocationhigh", 0x200000},
    {"gcheapsurvivalandmovement", 0x400000},
    {"gcheapcollect", 0x800000},
    {"managedheapcollect", 0x800000},
    {"managedheadcollect", 0x800000},
    {"gcheapandtypenames", 0x1000000},
    {"gcsampledobjectallocationlow", 0x2000000},
    {"perftrack", 0x20000000},
    {"stack", 0x40000000},
    {"threadtransfer", 0x80000000},
    {"debugger", 0x100000000},
    {"monitoring", 0x200000000},
    {"codesymbols", 0x400000000},
    {"eventsource", 0x800000000},
    {"compilation", 0x1000000000},
    {"compilationdiagnostic", 0x2000000000},
    {"methoddiagnostic", 0x4000000000},
    {"typediagnostic", 0x8000000000},
    {"jitinstrumentationdata", 0x10000000000},
    {"profiler", 0x20000000000},
    {"waithandle", 0x40000000000},
    {"allocationsampling", 0x80000000000},
};
#define KEYWORD_COUNT (sizeof keywords / sizeof keywords[0])

const clra_trace_keyword_t *clra_trace_runtime_keywords(size_t *count)
{
    if (count)
        *count = KEYWORD_COUNT;
    return keywords;
}

/* The mask of one name of len bytes, or 0 when it names no keyword. */
static uint64_t lookup(const char *name, size_t len)
{
    for (size_t i = 0; i < KEYWORD_COUNT; i++)
        if (strlen(keywords[i].name) == len && strncasecmp(keywords[i].name, name, len) == 0)
            return keywords[i].mask;
    return 0;
}

int clra_trace_runtime_keywords_parse(const char *names, uint64_t *mask, clra_status_t *st)
{
    *mask = 0;
    if (!names || !names[0]) {
        clra__detail(st, "no keyword names given (join names such as gc, exception, jit, "
                     "loader, contention with '+': gc+exception)");
        return CLRA_EINVAL;
    }
    for (const char *p = names;;) {
        size_t len = strcspn(p, "+");
        uint64_t bit = lookup(p, len);
        if (!bit) {
            clra__detail(st, "'%.*s' is not a keyword of the runtime provider (names such as "
                         "gc, exception, jit, loader, contention; joined by '+')",
                         (int)(len > 64 ? 64 : len), p);
            *mask = 0;
            return CLRA_EINVAL;
        }
        *mask |= bit;
        if (!p[len])
            return 0;
        p += len + 1;
    }
}

int clra_trace_config_add_runtime_keywords(clra_trace_config_t *cfg, const char *names,
                                           const char *level, clra_status_t *st)
{
    uint64_t mask;
    uint32_t lv;
    clra_status_t local;
    st = st ? st : &local;
    memset(st, 0, sizeof *st);
    int rc = clra_trace_runtime_keywords_parse(names, &mask, st);
    if (rc)
        return rc;
    if (clra__trace_parse_level(level ? level : "", level ? strlen(level) : 0, &lv) != 0) {
        clra__detail(st, "level '%s' is not 0-5 or one of LogAlways, Critical, Error, Warning, "
                     "Informational, Verbose", level);
        return CLRA_EINVAL;
    }
    for (size_t i = 0; i < cfg->provider_count; i++)
        if (strcasecmp(cfg->providers[i].name, CLRA_TRACE_RUNTIME_PROVIDER) == 0)
            return 1;
    return clra_trace_config_add_provider(cfg, CLRA_TRACE_RUNTIME_PROVIDER, mask, lv, NULL, st);
}
