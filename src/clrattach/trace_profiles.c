/* trace_profiles.c - dotnet-trace's named provider sets (--profile), so `clrattach trace
 * --profile gc-collect` enables what `dotnet-trace collect --profile gc-collect` does.
 *
 * The table follows dotnet-trace 10.0's list-profiles (dotnet/diagnostics,
 * src/Tools/dotnet-trace/CommandLine/Commands/ListProfilesCommandHandler.cs) and its merging
 * rules (ProviderUtils.cs ComputeProviderConfig, CollectCommand.cs): providers named
 * explicitly win over a profile's, the first profile naming a provider wins over later ones,
 * and the session's rundown keyword is the union of the profiles'. Keyword values are the
 * runtime's (ClrEtwAll.man) and TraceEvent's (TplEtwProvider, DiagnosticSource).
 */
#define _GNU_SOURCE
#include "trace.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define RUNTIME "Microsoft-Windows-DotNETRuntime"
#define KW_GC 0x1ull
#define KW_GCHANDLE 0x2ull
#define KW_EXCEPTION 0x8000ull
#define TPL_TASKS_FLOW_ACTIVITY_IDS 0x80ull
#define DIAGSOURCE_MESSAGES_EVENTS 0x3ull /* Messages 0x1 | Events 0x2 */

/* GC, AssemblyLoader, Loader, JIT, Exception, Threading, JittedMethodILToNativeMap,
 * Compilation: 0x100003801D. */
#define DOTNET_COMMON_KEYWORDS                                                                 \
    (0x1ull | 0x4ull | 0x8ull | 0x10ull | 0x8000ull | 0x10000ull | 0x20000ull | 0x1000000000ull)

/* The database profile's DiagnosticSource filter: SqlClient's and EF Core's command events
 * mapped to activities, with the payload fields dotnet-trace asks for. In double quotes
 * because it holds ';' (the argument syntax clra_trace_config_add_provider takes). */
#define DATABASE_SPECS                                                                          \
    "FilterAndPayloadSpecs=\""                                                                  \
    "SqlClientDiagnosticListener/System.Data.SqlClient.WriteCommandBefore@Activity1Start:"      \
    "-Command;Command.CommandText;ConnectionId;Operation;Command.Connection.ServerVersion;"      \
    "Command.CommandTimeout;Command.CommandType;Command.Connection.ConnectionString;"            \
    "Command.Connection.Database;Command.Connection.DataSource;Command.Connection.PacketSize\r\n" \
    "SqlClientDiagnosticListener/System.Data.SqlClient.WriteCommandAfter@Activity1Stop:\r\n"    \
    "Microsoft.EntityFrameworkCore/Microsoft.EntityFrameworkCore.Database.Command."             \
    "CommandExecuting@Activity2Start:-Command.CommandText;Command;ConnectionId;IsAsync;"        \
    "Command.Connection.ClientConnectionId;Command.Connection.ServerVersion;"                   \
    "Command.CommandTimeout;Command.CommandType;Command.Connection.ConnectionString;"            \
    "Command.Connection.Database;Command.Connection.DataSource;Command.Connection.PacketSize\r\n" \
    "Microsoft.EntityFrameworkCore/Microsoft.EntityFrameworkCore.Database.Command."             \
    "CommandExecuted@Activity2Stop:\""

static const clra_trace_profile_provider_t dotnet_common[] = {
    {RUNTIME, DOTNET_COMMON_KEYWORDS, 4, NULL},
};
static const clra_trace_profile_provider_t sampled_thread_time[] = {
    {"Microsoft-DotNETCore-SampleProfiler", 0, 4, NULL},
};
static const clra_trace_profile_provider_t gc_verbose[] = {
    {RUNTIME, KW_GC | KW_GCHANDLE | KW_EXCEPTION, 5, NULL},
};
static const clra_trace_profile_provider_t gc_collect[] = {
    {RUNTIME, KW_GC, 4, NULL},
    {"Microsoft-Windows-DotNETRuntimePrivate", KW_GC, 4, NULL},
};
static const clra_trace_profile_provider_t database[] = {
    {"System.Threading.Tasks.TplEventSource", TPL_TASKS_FLOW_ACTIVITY_IDS, 4, NULL},
    {"Microsoft-Diagnostics-DiagnosticSource", DIAGSOURCE_MESSAGES_EVENTS, 5, DATABASE_SPECS},
};

#define N(a) (sizeof a / sizeof a[0])
static const clra_trace_profile_t profiles[] = {
    {"dotnet-common",
     "the runtime's low-overhead events: GC, loader, JIT, exceptions, threading, IL maps, "
     "compilation (Microsoft-Windows-DotNETRuntime:0x100003801D:4)",
     dotnet_common, N(dotnet_common), CLRA_TRACE_RUNDOWN_DEFAULT, NULL, {0}},
    {"dotnet-sampled-thread-time",
     "managed thread stacks sampled about 100 times a second (where wall-clock time goes)",
     sampled_thread_time, N(sampled_thread_time), CLRA_TRACE_RUNDOWN_DEFAULT, NULL, {0}},
    {"gc-verbose", "GC collections, GC handles and sampled allocations, at Verbose",
     gc_verbose, N(gc_verbose), CLRA_TRACE_RUNDOWN_DEFAULT, NULL, {0}},
    {"gc-collect",
     "GC collections only, at very low overhead; rundown of GC state only (.NET 9 or later)",
     gc_collect, N(gc_collect), KW_GC, NULL, {0}},
    {"database", "ADO.NET (SqlClient) and Entity Framework Core commands", database,
     N(database), CLRA_TRACE_RUNDOWN_DEFAULT, NULL, {0}},
    {"cpu-sampling", "kernel CPU samples (dotnet-trace collect-linux --on-cpu; not EventPipe)",
     NULL, 0, 0, "collect-linux", {0}},
    {"thread-time",
     "kernel context switches (dotnet-trace collect-linux --off-cpu; not EventPipe)", NULL, 0,
     0, "collect-linux", {0}},
};

const clra_trace_profile_t *clra_trace_profile_list(size_t *count)
{
    if (count)
        *count = N(profiles);
    return profiles;
}

const clra_trace_profile_t *clra_trace_profile_find(const char *name)
{
    for (size_t i = 0; name && i < N(profiles); i++)
        if (strcasecmp(profiles[i].name, name) == 0)
            return &profiles[i];
    return NULL;
}

/* The names an error message offers, so a typo is fixed without another command. */
static void list_names(char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    for (size_t i = 0; i < N(profiles) && n < cap; i++)
        if (!profiles[i].only_for)
            n += (size_t)snprintf(out + n, cap - n, "%s%s", i ? ", " : "", profiles[i].name);
}

/* Splits names at commas into up to cap profiles, each checked; 0 or CLRA_EINVAL. */
static int resolve(const char *names, const clra_trace_profile_t **found, size_t cap,
                   size_t *count, clra_status_t *st)
{
    char known[256], word[64];
    list_names(known, sizeof known);
    *count = 0;
    for (const char *p = names; p && *p;) {
        size_t len = strcspn(p, ","), skip = strspn(p, " \t");
        size_t end = len;
        while (end > skip && (p[end - 1] == ' ' || p[end - 1] == '\t'))
            end--;
        if (end > skip) {
            snprintf(word, sizeof word, "%.*s", (int)(end - skip), p + skip);
            const clra_trace_profile_t *pr = clra_trace_profile_find(word);
            if (!pr || end - skip >= sizeof word) {
                clra__detail(st, "no profile '%.*s' (known: %s)", (int)(end - skip), p + skip,
                             known);
                return CLRA_EINVAL;
            }
            if (pr->only_for) {
                clra__detail(st, "profile '%s' is dotnet-trace %s's (kernel events through "
                             "perf), not an EventPipe session; clrattach trace takes: %s",
                             pr->name, pr->only_for, known);
                return CLRA_EINVAL;
            }
            if (*count == cap) {
                clra__detail(st, "more than %zu profile names", cap);
                return CLRA_EINVAL;
            }
            found[(*count)++] = pr;
        }
        p += len + (p[len] == ',');
    }
    if (*count == 0) {
        clra__detail(st, "no profile named (known: %s)", known);
        return CLRA_EINVAL;
    }
    return 0;
}

static int has_provider(const clra_trace_config_t *cfg, const char *name)
{
    for (size_t i = 0; i < cfg->provider_count; i++)
        if (strcasecmp(cfg->providers[i].name, name) == 0)
            return 1;
    return 0;
}

int clra_trace_config_add_profiles(clra_trace_config_t *cfg, const char *names,
                                   clra_status_t *st)
{
    const clra_trace_profile_t *found[32];
    size_t count;
    clra_status_t local;
    st = st ? st : &local;
    memset(st, 0, sizeof *st);
    if (!cfg) {
        clra__detail(st, "no configuration");
        return CLRA_EINVAL;
    }
    int rc = resolve(names, found, N(found), &count, st);
    uint64_t rundown = 0;
    for (size_t i = 0; !rc && i < count; i++) {
        rundown |= found[i]->rundown_keyword;
        for (size_t j = 0; !rc && j < found[i]->provider_count; j++) {
            const clra_trace_profile_provider_t *p = &found[i]->providers[j];
            if (!has_provider(cfg, p->name))
                rc = clra_trace_config_add_provider(cfg, p->name, p->keywords, p->level,
                                                    p->arguments, st);
        }
    }
    if (!rc)
        cfg->rundown_keyword = rundown;
    return rc;
}
