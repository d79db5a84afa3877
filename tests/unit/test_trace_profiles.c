/* Unit tests of dotnet-trace's --profile and --clrevents tables and merging rules. The
 * expected values are written by hand from dotnet-trace 10.0's sources (dotnet/diagnostics
 * src/Tools/dotnet-trace: ListProfilesCommandHandler.cs, ProviderUtils.cs, CollectCommand.cs)
 * and the runtime's ClrEtwAll.man, not taken from the code under test. */
#include "test.h"

#include "clrattach.h"

#include <string.h>

#define RT "Microsoft-Windows-DotNETRuntime"

static const clra_trace_provider_t *find(const clra_trace_config_t *cfg, const char *name)
{
    for (size_t i = 0; i < cfg->provider_count; i++)
        if (strcmp(cfg->providers[i].name, name) == 0)
            return &cfg->providers[i];
    return NULL;
}

/* Adds names to a fresh configuration, which must succeed. */
static void profiles_ok(const char *names, clra_trace_config_t *cfg)
{
    clra_status_t st;
    clra_trace_config_init(cfg);
    int rc = clra_trace_config_add_profiles(cfg, names, &st);
    ASSERT_MSG(rc == 0, "'%s' was refused: %s", names, st.detail);
}

static void assert_provider(const clra_trace_config_t *cfg, const char *name,
                            unsigned long long keywords, unsigned level)
{
    const clra_trace_provider_t *p = find(cfg, name);
    ASSERT_MSG(p != NULL, "no provider %s", name);
    ASSERT_MSG(p->keywords == keywords, "%s: keywords 0x%llx, want 0x%llx", name,
               (unsigned long long)p->keywords, keywords);
    ASSERT_EQ(p->level, level);
}

TEST(trace_profile_list_is_dotnet_traces_in_its_order)
{
    static const char *const names[] = {"dotnet-common", "dotnet-sampled-thread-time",
                                        "gc-verbose",    "gc-collect",
                                        "database",      "cpu-sampling",
                                        "thread-time"};
    size_t n;
    const clra_trace_profile_t *p = clra_trace_profile_list(&n);
    ASSERT_EQ(n, 7);
    for (size_t i = 0; i < n; i++)
        ASSERT_STREQ(p[i].name, names[i]);
    ASSERT_STREQ(p[5].only_for, "collect-linux");
    ASSERT_STREQ(p[6].only_for, "collect-linux");
    ASSERT_EQ(p[5].provider_count, 0);
    ASSERT(clra_trace_profile_find("GC-Collect") == &p[3]);
    ASSERT(clra_trace_profile_find("gc") == NULL);
}

TEST(trace_profile_dotnet_common_is_runtime_0x100003801D_informational)
{
    clra_trace_config_t cfg;
    profiles_ok("dotnet-common", &cfg);
    ASSERT_EQ(cfg.provider_count, 1);
    assert_provider(&cfg, RT, 0x100003801DULL, 4);
    ASSERT_EQ(cfg.rundown_keyword, 0x80020139ULL);
    clra_trace_config_free(&cfg);
}

TEST(trace_profile_sampled_thread_time_is_the_sample_profiler)
{
    clra_trace_config_t cfg;
    profiles_ok("dotnet-sampled-thread-time", &cfg);
    ASSERT_EQ(cfg.provider_count, 1);
    assert_provider(&cfg, "Microsoft-DotNETCore-SampleProfiler", 0, 4);
    clra_trace_config_free(&cfg);
}

TEST(trace_profile_gc_verbose_is_gc_gchandle_exception_at_verbose)
{
    clra_trace_config_t cfg;
    profiles_ok("gc-verbose", &cfg);
    ASSERT_EQ(cfg.provider_count, 1);
    assert_provider(&cfg, RT, 0x8003, 5);
    clra_trace_config_free(&cfg);
}

TEST(trace_profile_gc_collect_is_gc_on_public_and_private_with_gc_rundown)
{
    clra_trace_config_t cfg;
    profiles_ok("gc-collect", &cfg);
    ASSERT_EQ(cfg.provider_count, 2);
    assert_provider(&cfg, RT, 0x1, 4);
    assert_provider(&cfg, "Microsoft-Windows-DotNETRuntimePrivate", 0x1, 4);
    ASSERT_EQ(cfg.rundown_keyword, 0x1);
    clra_trace_config_free(&cfg);
}

TEST(trace_profile_database_is_tpl_flow_ids_and_diagnosticsource_commands)
{
    clra_trace_config_t cfg;
    profiles_ok("database", &cfg);
    ASSERT_EQ(cfg.provider_count, 2);
    assert_provider(&cfg, "System.Threading.Tasks.TplEventSource", 0x80, 4);
    assert_provider(&cfg, "Microsoft-Diagnostics-DiagnosticSource", 0x3, 5);
    const char *a = find(&cfg, "Microsoft-Diagnostics-DiagnosticSource")->arguments;
    ASSERT(a != NULL);
    const char *head = "FilterAndPayloadSpecs=\"SqlClientDiagnosticListener/System.Data."
                       "SqlClient.WriteCommandBefore@Activity1Start:-Command;";
    ASSERT(strncmp(a, head, strlen(head)) == 0);
    ASSERT_CONTAINS(a, "\r\nSqlClientDiagnosticListener/System.Data.SqlClient."
                       "WriteCommandAfter@Activity1Stop:\r\n");
    ASSERT_CONTAINS(a, "Command.CommandExecuting@Activity2Start:-Command.CommandText;Command;"
                       "ConnectionId;IsAsync;");
    ASSERT_CONTAINS(a, "Command.CommandExecuted@Activity2Stop:\"");
    ASSERT_EQ(a[strlen(a) - 1], '"');
    clra_trace_config_free(&cfg);
}

TEST(trace_profile_explicit_providers_win_over_the_profile)
{
    clra_trace_config_t cfg;
    clra_status_t st;
    clra_trace_config_init(&cfg);
    ASSERT_EQ(clra_trace_config_parse_providers(&cfg, RT ":0x8000:5", &st), 0);
    ASSERT_EQ(clra_trace_config_add_profiles(&cfg, "gc-collect", &st), 0);
    ASSERT_EQ(cfg.provider_count, 2);
    assert_provider(&cfg, RT, 0x8000, 5); /* kept as given, not OR-ed with GC */
    assert_provider(&cfg, "Microsoft-Windows-DotNETRuntimePrivate", 0x1, 4);
    clra_trace_config_free(&cfg);
}

TEST(trace_profile_first_profile_naming_a_provider_wins_and_rundowns_unite)
{
    clra_trace_config_t cfg;
    profiles_ok("gc-verbose,dotnet-common", &cfg);
    ASSERT_EQ(cfg.provider_count, 1);
    assert_provider(&cfg, RT, 0x8003, 5);
    clra_trace_config_free(&cfg);
    profiles_ok("gc-collect, dotnet-sampled-thread-time", &cfg);
    ASSERT_EQ(cfg.provider_count, 3);
    ASSERT_EQ(cfg.rundown_keyword, 0x80020139ULL | 0x1);
    clra_trace_config_free(&cfg);
}

TEST(trace_profile_names_take_any_case_blanks_and_empty_entries)
{
    clra_trace_config_t cfg;
    profiles_ok(" GC-Collect ,, ", &cfg);
    ASSERT_EQ(cfg.provider_count, 2);
    clra_trace_config_free(&cfg);
}

/* A refused list must leave the configuration as it was. */
static const char *profiles_bad(const char *names)
{
    static clra_status_t st;
    clra_trace_config_t cfg;
    clra_trace_config_init(&cfg);
    ASSERT_EQ(clra_trace_config_add_profiles(&cfg, names, &st), CLRA_EINVAL);
    ASSERT_EQ(cfg.provider_count, 0);
    ASSERT_EQ(cfg.rundown_keyword, CLRA_TRACE_RUNDOWN_DEFAULT);
    clra_trace_config_free(&cfg);
    return st.detail;
}

TEST(trace_profile_unknown_name_is_refused_with_the_known_ones)
{
    const char *d = profiles_bad("gc-collect,gc-colect");
    ASSERT_CONTAINS(d, "no profile 'gc-colect'");
    ASSERT_CONTAINS(d, "dotnet-common, dotnet-sampled-thread-time, gc-verbose, gc-collect, "
                       "database");
    ASSERT_CONTAINS(profiles_bad(" , "), "no profile named");
    ASSERT_CONTAINS(profiles_bad(""), "no profile named");
}

TEST(trace_profile_collect_linux_profiles_are_refused_saying_whose_they_are)
{
    ASSERT_CONTAINS(profiles_bad("cpu-sampling"), "dotnet-trace collect-linux");
    ASSERT_CONTAINS(profiles_bad("dotnet-common,thread-time"), "'thread-time'");
}

TEST(trace_clrevents_every_name_has_the_value_of_clretwall)
{
    static const struct {
        const char *name;
        unsigned long long mask;
    } want[] = {
        {"gc", 0x1}, {"gchandle", 0x2}, {"fusion", 0x4}, {"assemblyloader", 0x4},
        {"loader", 0x8}, {"jit", 0x10}, {"ngen", 0x20}, {"startenumeration", 0x40},
        {"endenumeration", 0x80}, {"security", 0x400}, {"appdomainresourcemanagement", 0x800},
        {"jittracing", 0x1000}, {"interop", 0x2000}, {"contention", 0x4000},
        {"exception", 0x8000}, {"threading", 0x10000}, {"jittedmethodiltonativemap", 0x20000},
        {"overrideandsuppressngenevents", 0x40000}, {"type", 0x80000},
        {"gcheapdump", 0x100000}, {"gcsampledobjectallocationhigh", 0x200000},
        {"gcheapsurvivalandmovement", 0x400000}, {"gcheapcollect", 0x800000},
        {"managedheapcollect", 0x800000}, {"managedheadcollect", 0x800000},
        {"gcheapandtypenames", 0x1000000}, {"gcsampledobjectallocationlow", 0x2000000},
        {"perftrack", 0x20000000}, {"stack", 0x40000000}, {"threadtransfer", 0x80000000},
        {"debugger", 0x100000000}, {"monitoring", 0x200000000}, {"codesymbols", 0x400000000},
        {"eventsource", 0x800000000}, {"compilation", 0x1000000000},
        {"compilationdiagnostic", 0x2000000000}, {"methoddiagnostic", 0x4000000000},
        {"typediagnostic", 0x8000000000}, {"jitinstrumentationdata", 0x10000000000},
        {"profiler", 0x20000000000}, {"waithandle", 0x40000000000},
        {"allocationsampling", 0x80000000000},
    };
    size_t n;
    const clra_trace_keyword_t *k = clra_trace_runtime_keywords(&n);
    ASSERT_EQ(n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < n; i++) {
        uint64_t mask;
        ASSERT_STREQ(k[i].name, want[i].name);
        ASSERT_EQ(clra_trace_runtime_keywords_parse(want[i].name, &mask, NULL), 0);
        ASSERT_MSG(mask == want[i].mask, "%s: 0x%llx, want 0x%llx", want[i].name,
                   (unsigned long long)mask, want[i].mask);
    }
}

TEST(trace_clrevents_names_join_with_plus_in_any_case)
{
    uint64_t mask;
    ASSERT_EQ(clra_trace_runtime_keywords_parse("gc+exception", &mask, NULL), 0);
    ASSERT_EQ(mask, 0x8001);
    ASSERT_EQ(clra_trace_runtime_keywords_parse("GC+Jit+Loader+gc", &mask, NULL), 0);
    ASSERT_EQ(mask, 0x19);
}

TEST(trace_clrevents_unknown_or_empty_names_are_refused_by_name)
{
    uint64_t mask = 7;
    clra_status_t st;
    ASSERT_EQ(clra_trace_runtime_keywords_parse("gc+exceptions", &mask, &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "'exceptions' is not a keyword");
    ASSERT_EQ(mask, 0);
    ASSERT_EQ(clra_trace_runtime_keywords_parse("gc+", &mask, &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "'' is not a keyword");
    ASSERT_EQ(clra_trace_runtime_keywords_parse("gc, jit", &mask, &st), CLRA_EINVAL);
    ASSERT_EQ(clra_trace_runtime_keywords_parse("", &mask, &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "no keyword names");
}

TEST(trace_clrevents_add_the_runtime_provider_at_the_level_given)
{
    static const struct {
        const char *level;
        unsigned want;
    } cases[] = {{NULL, 4}, {"", 4}, {"verbose", 5}, {"0", 0}, {"Warning", 3}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        clra_trace_config_t cfg;
        clra_status_t st;
        clra_trace_config_init(&cfg);
        int rc = clra_trace_config_add_runtime_keywords(&cfg, "gc+exception", cases[i].level,
                                                        &st);
        ASSERT_MSG(rc == 0, "level %s: %d %s", cases[i].level, rc, st.detail);
        ASSERT_EQ(cfg.provider_count, 1);
        assert_provider(&cfg, RT, 0x8001, cases[i].want);
        clra_trace_config_free(&cfg);
    }
}

TEST(trace_clrevents_are_ignored_when_the_runtime_provider_is_named_already)
{
    clra_trace_config_t cfg;
    clra_status_t st;
    clra_trace_config_init(&cfg);
    ASSERT_EQ(clra_trace_config_add_profiles(&cfg, "gc-collect", &st), 0);
    ASSERT_EQ(clra_trace_config_add_runtime_keywords(&cfg, "exception", "5", &st), 1);
    assert_provider(&cfg, RT, 0x1, 4);
    ASSERT_EQ(clra_trace_config_add_runtime_keywords(&cfg, "exception", "6", &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "level '6'");
    ASSERT_EQ(clra_trace_config_add_runtime_keywords(&cfg, "nope", NULL, &st), CLRA_EINVAL);
    ASSERT_EQ(cfg.provider_count, 2);
    clra_trace_config_free(&cfg);
}
