/* trace_presets.c - `trace`'s shorthands for providers, dotnet-trace's --profile and
 * --clrevents/--clreventlevel, merged with --providers by dotnet-trace's rules (the library
 * holds the tables and the rules), and the lists --list-profiles and --list-clrevents print. */
#define _GNU_SOURCE
#include "trace/trace_record.h"

#include <string.h>

#define UNKNOWN_COMMAND ((int32_t)0x80131385) /* DS_IPC_E_UNKNOWN_COMMAND */
#define DEFAULT_PROFILES "dotnet-common,dotnet-sampled-thread-time"

/* --list-profiles: each profile with the providers it enables, in --providers syntax. */
void trace_list_profiles(FILE *f)
{
    size_t n;
    const clra_trace_profile_t *p = clra_trace_profile_list(&n);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s%s%s\n    %s\n", p[i].name, p[i].only_for ? "  (dotnet-trace " : "",
                p[i].only_for ? "collect-linux only)" : "", p[i].description);
        for (size_t j = 0; j < p[i].provider_count; j++) {
            const clra_trace_profile_provider_t *q = &p[i].providers[j];
            fprintf(f, "    %s:0x%llx:%u%s\n", q->name, (unsigned long long)q->keywords,
                    (unsigned)q->level, q->arguments ? ":(arguments)" : "");
        }
        if (!p[i].only_for && p[i].rundown_keyword != CLRA_TRACE_RUNDOWN_DEFAULT)
            fprintf(f, "    rundown keyword 0x%llx\n", (unsigned long long)p[i].rundown_keyword);
    }
}

/* --list-clrevents: every keyword name --clrevents takes, with its bit. */
void trace_list_clrevents(FILE *f)
{
    size_t n;
    const clra_trace_keyword_t *k = clra_trace_runtime_keywords(&n);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "%-32s 0x%llx\n", k[i].name, (unsigned long long)k[i].mask);
}

/* After a bad --clrevents: every name there is, so the fix needs no second command. */
static void say_known_keywords(void)
{
    size_t n;
    const clra_trace_keyword_t *k = clra_trace_runtime_keywords(&n);
    size_t col = 80;
    fprintf(stderr, "  known keywords:");
    for (size_t i = 0; i < n; i++) {
        size_t w = strlen(k[i].name) + 1;
        col = col + w > 78 ? 4 + w : col + w;
        fprintf(stderr, "%s%s", col == 4 + w ? "\n    " : " ", k[i].name);
    }
    fprintf(stderr, "\n");
}

/* The profiles (given, or dotnet-trace's default pair when nothing names a provider), then
 * --clrevents; explicit --providers win over both, as in dotnet-trace. 0, or -1 after saying
 * why. */
int trace_presets_apply(trace_opts_t *o)
{
    clra_status_t st;
    const char *profiles = o->profiles;
    if (o->clreventlevel && !o->clrevents) {
        fprintf(stderr, "clrattach trace: --clreventlevel needs --clrevents\n");
        return -1;
    }
    if (!profiles && !o->clrevents && o->cfg.provider_count == 0) {
        profiles = DEFAULT_PROFILES;
        if (!o->json)
            fprintf(stderr, "clrattach trace: no --providers, --profile or --clrevents: using "
                    "the profiles " DEFAULT_PROFILES " (as dotnet-trace does)\n");
    }
    if (profiles) {
        if (clra_trace_config_add_profiles(&o->cfg, profiles, &st) != 0) {
            fprintf(stderr, "clrattach trace: bad --profile: %s\n", cli_vis(st.detail));
            return -1;
        }
        if (o->tr.rundown_on) /* dotnet-trace's --rundown adds the usual rundown */
            o->cfg.rundown_keyword |= CLRA_TRACE_RUNDOWN_DEFAULT;
        o->rundown_fallback = !o->tr.rundown_off && !o->tr.have_keyword &&
                              o->cfg.rundown_keyword != CLRA_TRACE_RUNDOWN_DEFAULT;
    }
    if (!o->clrevents)
        return 0;
    int rc = clra_trace_config_add_runtime_keywords(&o->cfg, o->clrevents, o->clreventlevel, &st);
    if (rc < 0) {
        fprintf(stderr, "clrattach trace: bad --clrevents or --clreventlevel: %s\n",
                cli_vis(st.detail));
        if (strstr(st.detail, "keyword"))
            say_known_keywords();
        return -1;
    }
    if (rc == 1 && !o->json)
        fprintf(stderr, "clrattach trace: --clrevents ignored: " CLRA_TRACE_RUNTIME_PROVIDER
                " is already named by --providers or --profile (as dotnet-trace does)\n");
    return 0;
}

int trace_start_session(const trace_opts_t *o, const clra_target_t *target,
                        clra_trace_session_t *s, clra_status_t *st)
{
    int rc = clra_trace_start(target, &o->cfg, (int)o->timeout_ms, s, st);
    if (rc != CLRA_ERUNTIME || st->hresult != UNKNOWN_COMMAND || !o->rundown_fallback)
        return rc;
    clra_trace_config_t plain = o->cfg; /* shares the providers; only the rundown differs */
    plain.rundown_keyword = 0;
    if (clra_trace_config_version(&plain) >= clra_trace_config_version(&o->cfg))
        return rc; /* something else needs the newer command too */
    if (!o->json)
        fprintf(stderr, "clrattach trace: this runtime does not know CollectTracing%d, which "
                "the profile's own rundown needs (.NET 9 or later); tracing without rundown, "
                "as dotnet-trace does\n", clra_trace_config_version(&o->cfg));
    return clra_trace_start(target, &plain, (int)o->timeout_ms, s, st);
}
