/* End-to-end: the infoprobe test profiler calls methods of every ICorProfilerInfo level, 1 to
 * 15, inside a real .NET process; these tests hold its answers against what the app itself
 * reports (its runtime version, its files, its threads, the arrays it holds, its environment). */
#define _GNU_SOURCE
#include "harness.h"
#include "runtime.h"
#include "test.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define INFOPROBE_CLSID "3E468266-414A-4419-B7D4-FB4EA48C57C8"
#define HELD_ARRAYS "25"
#define ARRAY_LEN "7777"            /* the length the app's "keep" command uses */
#define LOH_THRESHOLD_ENV "0x1D4C0" /* DOTNET_GCLOHThreshold is read as hex */
#define LOH_THRESHOLD "120000"
#define FUNCTION "ClrAttach.Sample.Program.Handle" /* compiled before attach: it runs commands */
#define LITERAL "pong" /* a literal of Program.Handle, so on the frozen heap */

/* The whole log line starting with prefix, copied into a static buffer; fails the test when
 * there is none. */
static const char *line_of(const char *log, const char *prefix)
{
    static char line[2048];
    size_t plen = strlen(prefix);
    for (const char *p = log; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        if (strncmp(p, prefix, plen) != 0)
            continue;
        size_t n = strcspn(p, "\n");
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
        return line;
    }
    test_fail(__FILE__, __LINE__, "no line starting with '%s' in the profiler's log:\n%s", prefix,
              log);
}

/* The value of key=VALUE (up to the next space) on the line starting with prefix. */
static const char *field(const char *log, const char *prefix, const char *key)
{
    static char value[1024];
    char pattern[128];
    const char *line = line_of(log, prefix);
    snprintf(pattern, sizeof pattern, " %s=", key);
    const char *at = strstr(line, pattern);
    ASSERT_MSG(at != NULL, "no %s= on the line: %s", key, line);
    at += strlen(pattern);
    snprintf(value, sizeof value, "%.*s", (int)strcspn(at, " "), at);
    return value;
}

/* Asserts the probe line starting with prefix passed and shows key=want. */
static void expect(const char *log, const char *prefix, const char *key, const char *want)
{
    ASSERT_CONTAINS(line_of(log, prefix), " ok ");
    const char *got = field(log, prefix, key);
    ASSERT_MSG(strcmp(got, want) == 0, "%s: %s=%s, expected %s", prefix, key, got, want);
}

/* Every level 1..15 has a passing probe, no probe failed, and the summary agrees. */
static void expect_every_level_ok(const char *log)
{
    char prefix[32];
    for (int level = 1; level <= 15; level++) {
        snprintf(prefix, sizeof prefix, "probe info%d ", level);
        int ok = 0;
        for (const char *p = log; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
            ok |= strncmp(p, prefix, strlen(prefix)) == 0 &&
                  memmem(p, strcspn(p, "\n"), " ok ", 4) != NULL;
        ASSERT_MSG(ok, "no passing probe of ICorProfilerInfo%d in the log:\n%s", level, log);
    }
    ASSERT_MSG(strstr(log, " FAIL ") == NULL, "a probe failed:\n%s", log);
    ASSERT_STREQ(field(log, "probe_done", "failed"), "0");
    ASSERT(atoi(field(log, "probe_done", "passed")) >= 15);
}

/* Runtime, module, assembly and domain answers match the app's own version, file and pid. */
static void expect_runtime_matches_app(const char *log, const app_t *a, const char *version)
{
    char major[16], pid[16], sample[PATH_MAX];
    snprintf(major, sizeof major, "%d", atoi(version));
    snprintf(pid, sizeof pid, "%d", (int)a->pid);
    ASSERT(realpath(CLRA_SAMPLE_DLL, sample) != NULL);
    expect(log, "probe info3 GetRuntimeInformation ", "type", "CoreCLR");
    expect(log, "probe info3 GetRuntimeInformation ", "major", major);
    expect(log, "probe info3 GetRuntimeInformation ", "version", version);
    expect(log, "probe info3 EnumModules ", "sample", sample);
    expect(log, "probe info3 EnumModules ", "corelib", "1");
    expect(log, "probe info1 GetModuleInfo ", "path", sample);
    expect(log, "probe info1 GetAssemblyInfo ", "name", "sample");
    expect(log, "probe info1 GetAppDomainInfo ", "pid", pid);
    expect(log, "probe info3 EnumJITedFunctions ", "function", FUNCTION);
    expect(log, "probe info1 GetFunctionInfo ", "in_sample", "1");
}

/* The managed threads' OS ids are threads of the app, the main one (tid == pid) included. */
static void expect_threads_of_app(const char *log, const app_t *a)
{
    char tids[1024], path[64];
    int count = atoi(field(log, "probe info4 EnumThreads ", "count")), seen = 0, main = 0;
    snprintf(tids, sizeof tids, "%s", field(log, "probe info1 GetThreadInfo ", "tids"));
    for (char *t = strtok(tids, ","); t; t = strtok(NULL, ","), seen++) {
        struct stat st;
        snprintf(path, sizeof path, "/proc/%d/task/%s", (int)a->pid, t);
        ASSERT_MSG(stat(path, &st) == 0, "thread %s is not a thread of process %d", t, (int)a->pid);
        main |= atoi(t) == (int)a->pid;
    }
    ASSERT_MSG(count >= 3, "only %d managed threads (main, churn and finalizer at least)", count);
    ASSERT_EQ(seen, count);
    ASSERT(main);
}

/* Heap answers match what the app holds: its arrays (count and length), its literal on the
 * frozen heap, its reloaded module's PDB bytes, the LOH threshold it was started with. */
static void expect_heaps_match_app(const char *log, const char *pdb_bytes)
{
    expect(log, "probe info15 EnumerateGCHeapObjects ", "arrays", HELD_ARRAYS);
    expect(log, "probe info2 GetArrayObjectInfo ", "length", ARRAY_LEN);
    expect(log, "probe info13 CreateHandle+GetObjectIDFromHandle ", "same_object", "1");
    expect(log, "probe info13 GetObjectIDFromHandle(after ForceGC) ", "length", ARRAY_LEN);
    expect(log, "probe info13 GetObjectIDFromHandle(after ForceGC) ", "found_in_heap", "1");
    expect(log, "probe info14 EnumerateNonGCObjects ", "literal", LITERAL);
    expect(log, "probe info14 EnumerateNonGCObjects ", "found", "1");
    expect(log, "probe info14 EnumerateNonGCObjects ", "outside_segments", "0");
    expect(log, "probe info10 IsFrozenObject ", "literal_frozen", "1");
    expect(log, "probe info10 IsFrozenObject(gc) ", "array_frozen", "0");
    expect(log, "probe info7 GetInMemorySymbolsLength+ReadInMemorySymbols ", "bytes", pdb_bytes);
    expect(log, "probe info7 GetInMemorySymbolsLength+ReadInMemorySymbols ", "magic", "BSJB");
    expect(log, "probe info10 GetLOHObjectSizeThreshold ", "threshold", LOH_THRESHOLD);
    expect(log, "probe info12 EventPipeStartSession+EventPipeWriteEvent+EventPipeStopSession ",
           "payload_intact", "1");
}

/* The documented refusals came with their documented HRESULTs. */
static void expect_documented_refusals(const char *log)
{
    expect(log, "probe info6 EnumNgenModuleMethodsInliningThisMethod ", "hr", "0x8013136F");
    expect(log, "probe info5 SetEventMask2(PINNEDOBJECT_ALLOCATED) ", "hr", "0x8013136F");
    expect(log, "probe info10 ResumeRuntime(not suspended) ", "hr", "0x80131363");
    expect(log, "probe info2 GetObjectGeneration(frozen) ", "hr", "0x80131389");
    expect(log, "probe info1 GetCurrentThreadID ", "hr", "0x80131355");
}

/* The probe needs ICorProfilerInfo15 (.NET 9+). On an older runtime the probe's own report of
 * the level it found is checked, then the test skips saying why. */
static void require_info15(const char *log, app_t *a)
{
    if (e2e_runtime_at_least(9, 0))
        return;
    ASSERT_CONTAINS(log, "the runtime offers only ICorProfilerInfo14");
    app_stop(a);
    SKIP("the probe calls ICorProfilerInfo15, which .NET 9 added; runtime %s offers "
         "ICorProfilerInfo14 (checked)", e2e_runtime_version());
}

/* An app prepared for the probe: started with a random variable and a raised LOH threshold,
 * holding its arrays and its reloaded module, with what it said about itself. */
typedef struct fixture {
    app_t a;
    char seed[64], seed_env[96], version[64], pdb[32];
} fixture_t;

/* Starts the app and has it hold its arrays and load its own dll and PDB from bytes. */
static void fixture_start(fixture_t *f)
{
    snprintf(f->seed, sizeof f->seed, "seed-%ld-%d", (long)time(NULL), (int)getpid());
    snprintf(f->seed_env, sizeof f->seed_env, "CLRPROF_INFO_SEED=%s", f->seed);
    const char *const env[] = {f->seed_env, "DOTNET_GCLOHThreshold=" LOH_THRESHOLD_ENV, NULL};
    app_start(&f->a, env);
    const char *version = app_command(&f->a, "version", 5000);
    snprintf(f->version, sizeof f->version, "%s", version + strlen("version "));
    ASSERT_STREQ(app_command(&f->a, "keep " HELD_ARRAYS, 5000),
                 "kept " HELD_ARRAYS " len=" ARRAY_LEN);
    const char *loaded = app_command(&f->a, "symbols", 10000);
    ASSERT_MSG(sscanf(loaded, "symbols-loaded pdb=%31s", f->pdb) == 1, "reply: %s", loaded);
}

/* Attaches the probe and waits until it has run (the nth time) and been unloaded again, which
 * it asks for itself. Returns the log from this run's InitializeForAttach on. */
static const char *run_probe(fixture_t *f, int nth)
{
    const char *out;
    char pid[16];
    snprintf(pid, sizeof pid, "%d", (int)f->a.pid);
    int rc = run_cli(&out, "attach", "--clsid", INFOPROBE_CLSID, "--data",
                     "function=" FUNCTION ";array_len=" ARRAY_LEN ";literal=" LITERAL
                     ";env_in=CLRPROF_INFO_SEED;env_out=CLRPROF_INFO_SET",
                     pid, profiler_path("infoprobe"), NULL);
    ASSERT_MSG(rc == 0, "attach failed with exit code %d:\n%s", rc, out);
    for (int waited = 0; app_log_count(&f->a, "probe_detached") < nth; waited += 20) {
        ASSERT_MSG(waited < 60000, "run %d of the probe did not finish and detach:\n%s", nth,
                   app_log(&f->a));
        usleep(20000);
    }
    app_wait_unmapped(&f->a, "libinfoprobe_profiler.so", 20000);
    const char *log = app_log(&f->a), *run = log;
    for (const char *p = log; (p = strstr(p, "InitializeForAttach")) != NULL; p++)
        run = p;
    return run;
}

TEST(info_probe_answers_every_info_level_like_the_app_does)
{
    fixture_t f;
    char want[160];
    fixture_start(&f);
    const char *log = run_probe(&f, 1);
    require_info15(log, &f.a);
    expect_every_level_ok(log);
    expect_runtime_matches_app(log, &f.a, f.version);
    expect_threads_of_app(log, &f.a);
    expect_heaps_match_app(log, f.pdb);
    expect_documented_refusals(log);
    expect(log, "probe info11 GetEnvironmentVariable ", "value", f.seed);
    /* A variable set through ICorProfilerInfo11 is the process's own, after the profiler left. */
    snprintf(want, sizeof want, "env CLRPROF_INFO_SET=infoprobe:%s", f.seed);
    ASSERT_STREQ(app_command(&f.a, "env CLRPROF_INFO_SET", 5000), want);
    app_assert_responsive(&f.a);
    app_stop(&f.a);
}

/* The probe suspends and resumes the runtime, walks the heap, makes and frees a GC handle and
 * runs an EventPipe session; afterwards the runtime takes it again and every answer holds. */
TEST(info_probe_leaves_the_runtime_able_to_run_it_again)
{
    fixture_t f;
    fixture_start(&f);
    require_info15(run_probe(&f, 1), &f.a);
    const char *log = run_probe(&f, 2);
    expect_every_level_ok(log);
    expect_heaps_match_app(log, f.pdb);
    ASSERT_EQ(app_log_count(&f.a, "probe_done passed="), 2);
    app_assert_responsive(&f.a);
    app_stop(&f.a);
}
