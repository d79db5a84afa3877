/* End-to-end: dotnet-trace's shorthands on the real runtime. --profile gc-collect must record
 * the GCs the sample app forces (and no exceptions; before .NET 9 without its rundown), --clrevents gc+exception the exceptions it
 * throws, and --name must find the sample app by name, or refuse, listing both, when two run. */
#define _GNU_SOURCE
#include "harness.h"
#include "runtime.h"
#include "test.h"
#include "trace_counts.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GC_START 1          /* GCStart_V2, Microsoft-Windows-DotNETRuntime */
#define GC_END 2            /* GCEnd_V1 */
#define EXCEPTION_THROWN 80 /* ExceptionThrown_V1 */
#define MODULE_LOAD 152     /* ModuleLoad_V2 (Loader keyword) */

/* Reads the whole file into a static buffer ("" when missing). */
static const char *slurp(const char *path)
{
    static char text[16384];
    text[0] = '\0';
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n = read(fd, text, sizeof text - 1);
        text[n > 0 ? n : 0] = '\0';
        close(fd);
    }
    return text;
}

typedef struct run {
    pid_t pid;
    char out[300], log[300];
} run_t;

/* Starts `clrattach trace ARGS... --duration 3 --output <dir>/presets.nettrace`, its output
 * in a log, and waits until the session has started. */
static void trace_start(run_t *r, app_t *a, const char *const *args)
{
    const char *argv[24] = {"clrattach", "trace"};
    int n = 2;
    snprintf(r->out, sizeof r->out, "%s/presets.nettrace", a->dir);
    snprintf(r->log, sizeof r->log, "%s/trace.log", a->dir);
    for (; *args && n < 16; args++)
        argv[n++] = *args;
    argv[n++] = "--duration";
    argv[n++] = "3";
    argv[n++] = "--output";
    argv[n++] = r->out;
    argv[n] = NULL;
    r->pid = fork();
    ASSERT(r->pid >= 0);
    if (r->pid == 0) {
        int fd = open(r->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        execv(CLRA_CLI, (char *const *)argv);
        _exit(127);
    }
    for (int waited = 0; !strstr(slurp(r->log), "); Ctrl-C"); waited += 20) {
        int status;
        ASSERT_MSG(waitpid(r->pid, &status, WNOHANG) == 0, "the trace ended early:\n%s",
                   slurp(r->log));
        ASSERT_MSG(waited < 15000, "the trace did not start:\n%s", slurp(r->log));
        usleep(20000);
    }
}

/* Waits for the trace to end by its duration and counts the file. */
static void trace_finish(run_t *r, trace_counts_t *c)
{
    int status;
    ASSERT(waitpid(r->pid, &status, 0) == r->pid);
    ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "trace failed:\n%s",
               slurp(r->log));
    read_trace_counts(r->out, c);
}

TEST(trace_profile_gc_collect_records_the_forced_gcs_and_no_exceptions)
{
    app_t a;
    run_t r;
    trace_counts_t c;
    app_start(&a, NULL);
    const char *args[] = {"--profile", "gc-collect", app_pid_text(&a), NULL};
    trace_start(&r, &a, args);
    if (e2e_runtime_at_least(9, 0)) {
        ASSERT_CONTAINS(slurp(r.log), "CollectTracing4"); /* the GC-only rundown keyword */
    } else {
        /* Before .NET 9 CollectTracing4 is unknown: once more without rundown, as dotnet-trace
         * does. */
        ASSERT_CONTAINS(slurp(r.log), "does not know CollectTracing4");
        ASSERT_CONTAINS(slurp(r.log), "CollectTracing2); Ctrl-C");
    }
    ASSERT_STREQ(app_command(&a, "gc 3", 10000), "gc-done 3");
    ASSERT_CONTAINS(app_command(&a, "throw 3", 10000), "thrown ");
    trace_finish(&r, &c);
    ASSERT_MSG(c.runtime_ids[GC_START] >= 3 && c.runtime_ids[GC_END] >= 3,
               "%d GCStart, %d GCEnd for 3 forced GCs", c.runtime_ids[GC_START],
               c.runtime_ids[GC_END]);
    ASSERT_EQ(c.runtime_ids[EXCEPTION_THROWN], 0);
    app_stop(&a);
}

TEST(trace_clrevents_gc_exception_records_the_thrown_exceptions)
{
    app_t a;
    run_t r;
    trace_counts_t c;
    app_start(&a, NULL);
    const char *args[] = {"--clrevents", "gc+Exception", "--clreventlevel", "informational",
                          app_pid_text(&a), NULL};
    trace_start(&r, &a, args);
    ASSERT_CONTAINS(app_command(&a, "throw 5", 10000), "thrown ");
    ASSERT_STREQ(app_command(&a, "gc 2", 10000), "gc-done 2");
    ASSERT_CONTAINS(app_command(&a, "load", 10000), "loaded ");
    trace_finish(&r, &c);
    ASSERT_MSG(c.runtime_ids[EXCEPTION_THROWN] >= 5, "%d ExceptionThrown for 5 throws",
               c.runtime_ids[EXCEPTION_THROWN]);
    ASSERT(c.runtime_ids[GC_START] >= 2);
    ASSERT_EQ(c.runtime_ids[MODULE_LOAD], 0); /* the Loader keyword was not asked for */
    app_stop(&a);
}

TEST(trace_name_finds_the_one_sample_app_and_refuses_two_listing_both)
{
    app_t a, b;
    const char *out;
    char pid_a[24], pid_b[24];
    app_start(&a, NULL);
    app_start(&b, NULL);
    snprintf(pid_a, sizeof pid_a, "\n  %s ", app_pid_text(&a));
    snprintf(pid_b, sizeof pid_b, "\n  %s ", app_pid_text(&b));
    int rc = run_cli(&out, "trace", "--name", "SAMPLE", "--duration", "1", "--output",
                     "/dev/null", NULL);
    ASSERT_MSG(rc == 2, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "2 .NET processes are named 'SAMPLE'");
    ASSERT_CONTAINS(out, pid_a);
    ASSERT_CONTAINS(out, pid_b);
    rc = run_cli(&out, "trace", "--name", "no-such-app-here", "--duration", "1", NULL);
    ASSERT_MSG(rc == 3, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "no .NET process named 'no-such-app-here'");
    rc = run_cli(&out, "trace", "--name", "sample", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 2, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "not both");
    app_stop(&b);

    run_t r;
    trace_counts_t c;
    const char *args[] = {"--name", "sample", "--providers", SAMPLE_PROVIDER, NULL};
    trace_start(&r, &a, args);
    char want[48];
    snprintf(want, sizeof want, "tracing process %s into", app_pid_text(&a));
    ASSERT_CONTAINS(slurp(r.log), want);
    ASSERT_STREQ(app_command(&a, "events 50", 10000), "events-done 50");
    trace_finish(&r, &c);
    assert_ticks(&c, 50);
    app_stop(&a);
}
