/* End-to-end: the runtime's own events (GC, allocations, contention, waits, exceptions, loader,
 * JIT, types, a GC heap snapshot, rundown) read by clrattach's layouts against Microsoft's
 * TraceEvent on the same trace, written by `clrattach trace` from the sample app on the runtime
 * under test: every field of every event both read, equal; and `convert --format json` shows
 * them by name. */
#define _GNU_SOURCE
#include "harness.h"
#include "runtime_lines.h"
#include "test.h"

#include "clrattach.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* GC, loader, JIT, IL maps, contention, exceptions, threading, types, type diagnostics, wait
 * handles (.NET 9+), allocation sampling (.NET 10: AllocationTick stops meanwhile, so ticks are
 * compared on 8 and 9), and a heap snapshot (GCHeapCollect with
 * GCHeapDump and type names: the GC dotnet-gcdump asks for), verbosely. */
#define RUNTIME_PROVIDERS "Microsoft-Windows-DotNETRuntime:0xc80019bc019:5"

/* What both readings must have compared, on every runtime: "id version name". */
static const char *const required[] = {
    "1 2 GCStart", "2 1 GCEnd", "4 2 GCHeapStats", "9 1 GCSuspendEEBegin",
    "3 1 GCRestartEEEnd", "15 0 BulkType", "16 0 GCBulkRootEdge",
    "18 0 GCBulkNode", "19 0 GCBulkEdge", "73 0 TypeLoadStart", "74 0 TypeLoadStop",
    "80 1 ExceptionThrown", "81 2 ContentionStart", "91 1 ContentionStop",
    "143 2 MethodLoadVerbose", "152 2 ModuleLoad", "154 1 AssemblyLoad",
    "190 1 MethodILToNativeMap"};

/* `clrattach trace` of the runtime's keywords for 3 s in a child, its output to /dev/null. */
static void trace_in_background(const app_t *a, const char *out, pid_t *pid)
{
    *pid = fork();
    ASSERT(*pid >= 0);
    if (*pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(126);
        execl(CLRA_CLI, "clrattach", "trace", "--providers", RUNTIME_PROVIDERS, "--duration",
              "3", "--output", out, app_pid_text(a), (char *)NULL);
        _exit(127);
    }
}

/* TraceEvent's reading (tracecheck --runtime) into a malloc'ed string (it runs to megabytes). */
static char *tracecheck_runtime(const char *trace, const char *dir)
{
    char path[600];
    snprintf(path, sizeof path, "%s/traceevent.txt", dir);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (fd < 0 || dup2(fd, 1) < 0)
            _exit(126);
        execl(CLRA_DOTNET, "dotnet", CLRA_TRACECHECK_DLL, "--runtime", trace, (char *)NULL);
        _exit(127);
    }
    int status;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "tracecheck failed (%d)", status);
    FILE *f = fopen(path, "rb");
    ASSERT(f != NULL);
    char *text = NULL;
    size_t cap = 0;
    ASSERT(getdelim(&text, &cap, '\0', f) >= 0 || feof(f));
    fclose(f);
    return text;
}

/* Whether ours has an event of "id version" of the runtime provider that both compared. */
static int compared(const char *ours, const runtime_compare_t *r, const char *kind)
{
    char want[120];
    unsigned id, version;
    ASSERT(sscanf(kind, "%u %u", &id, &version) == 2);
    snprintf(want, sizeof want, "rt Microsoft-Windows-DotNETRuntime %u %u\t", id, version);
    if (!strstr(ours, want))
        return 0;
    snprintf(want, sizeof want, "Microsoft-Windows-DotNETRuntime %u %u,", id, version);
    char only[620];
    snprintf(only, sizeof only, "%s,", r->only_ours);
    return strstr(only, want) == NULL;
}

/* convert --format json names the fields: the exceptions thrown, with their type. */
static void check_convert(const char *trace, const char *dir)
{
    char jsonl[600];
    const char *out;
    snprintf(jsonl, sizeof jsonl, "%s/runtime.jsonl", dir);
    ASSERT_EQ(run_cli(&out, "convert", "--output", jsonl, trace, NULL), 0);
    FILE *f = fopen(jsonl, "r");
    ASSERT(f != NULL);
    char *line = NULL; /* a heap snapshot batch, named and in hex, runs past 64 KiB */
    size_t cap = 0;
    int thrown = 0;
    while (getline(&line, &cap, f) > 0)
        thrown += strstr(line, "\"name\":\"ExceptionThrown\"") &&
                  strstr(line, "\"payload\":{\"ExceptionType\":\"System.InvalidOperationException\""
                               ",\"ExceptionMessage\":\"sample exception ") &&
                  strstr(line, "\"payload_hex\":\"");
    free(line);
    fclose(f);
    ASSERT_EQ(thrown, 3);
}

TEST(runtime_events_decode_field_by_field_as_traceevent_reads_them)
{
    app_t a;
    char out[512], why[512];
    pid_t tracer;
    int status;
    app_start(&a, NULL);
    int major = atoi(app_command(&a, "version", 10000) + strlen("version "));
    snprintf(out, sizeof out, "%s/runtime.nettrace", a.dir);
    trace_in_background(&a, out, &tracer);
    wait_for_stream(out, "clrattach trace");
    ASSERT_STREQ(app_command(&a, "gc 1", 10000), "gc-done 1");
    ASSERT_STREQ(app_command(&a, "throw 3", 10000), "thrown 3");
    ASSERT_STREQ(app_command(&a, "contend 10", 10000), "contended 40");
    ASSERT_STREQ(app_command(&a, "keep 1000", 10000), "kept 1000 len=7777");
    ASSERT_MSG(strncmp(app_command(&a, "load", 10000), "loaded ", 7) == 0, "load failed");
    ASSERT_EQ(waitpid(tracer, &status, 0), tracer);
    ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "clrattach trace failed (%d)",
               status);
    char *ours = runtime_lines(out, why, sizeof why);
    ASSERT_MSG(ours, "the layouts refused %s: %s", out, why);
    char *theirs = tracecheck_runtime(out, a.dir);
    runtime_compare_t r;
    int rc = runtime_lines_compare(ours, theirs, &r);
    printf("compared %zu events of %zu kinds, %zu fields; TraceEvent only: %s; ours only: %s; "
           "fields TraceEvent derives: %s; fields TraceEvent hides: %s\n", r.events, r.kinds,
           r.fields, r.only_theirs, r.only_ours, r.only_their_fields, r.only_our_fields);
    ASSERT_MSG(rc == 0, "%s", r.difference);
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        ASSERT_MSG(compared(ours, &r, required[i]), "no %s compared", required[i]);
    ASSERT_MSG(major < 9 || compared(ours, &r, "301 0 WaitHandleWaitStart"), "no wait compared");
    /* allocation sampling replaces the ticks, in every session, while a session asks for it */
    ASSERT_MSG(major < 10 || compared(ours, &r, "303 0 AllocationSampled"),
               "no AllocationSampled compared");
    ASSERT_MSG(major >= 10 || compared(ours, &r, "10 4 GCAllocationTick"),
               "no GCAllocationTick compared");
    ASSERT_MSG(strstr(ours, "rt Microsoft-Windows-DotNETRuntimeRundown 144 "),
               "no MethodDCEndVerbose");
    check_convert(out, a.dir);
    free(ours);
    free(theirs);
    app_stop(&a);
}
