/* End-to-end: CollectTracing5 event-id filters on the real runtime. The sample app's Tick
 * (ClrAttach-Sample id 1) and the runtime's loader events (ModuleLoad is id 152) are traced
 * with filters; the file must lack exactly the filtered ids. Before .NET 10 the option must be
 * refused, naming the version it needs. */
#define _GNU_SOURCE
#include "harness.h"
#include "runtime.h"
#include "test.h"
#include "trace_counts.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define LOADER_PROVIDER RUNTIME_PROVIDER ":0x8:4" /* Loader keyword, Informational */
#define MODULE_LOAD 152

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

/* Traces the app for 3 s with one filter option; while it runs, the app writes 20 Ticks and
 * loads an assembly it had not loaded. Counts the finished file into c. */
static void filtered_trace(app_t *a, const char *opt, const char *filter, trace_counts_t *c)
{
    char out[300], log[300];
    snprintf(out, sizeof out, "%s/filtered.nettrace", a->dir);
    snprintf(log, sizeof log, "%s/trace.log", a->dir);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        dup2(fd, 2);
        execl(CLRA_CLI, "clrattach", "trace", "--providers", SAMPLE_PROVIDER "," LOADER_PROVIDER,
              opt, filter, "--duration", "3", "--output", out, app_pid_text(a), (char *)NULL);
        _exit(127);
    }
    for (int waited = 0; !strstr(slurp(log), "CollectTracing5); Ctrl-C"); waited += 20) {
        ASSERT_MSG(waited < 15000, "the trace did not start:\n%s", slurp(log));
        usleep(20000);
    }
    ASSERT_STREQ(app_command(a, "events 20", 10000), "events-done 20");
    ASSERT_CONTAINS(app_command(a, "load", 10000), "loaded ");
    int status;
    ASSERT(waitpid(pid, &status, 0) == pid);
    ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "trace failed:\n%s", slurp(log));
    read_trace_counts(out, c);
}

/* Runtime events other than id: how many, and one id that came. */
static int others(const trace_counts_t *c, int id, int *one)
{
    int n = 0;
    for (int i = 0; i < 1024; i++)
        if (i != id && c->runtime_ids[i] > 0) {
            n += c->runtime_ids[i];
            *one = i;
        }
    return n;
}

/* Before .NET 10: UNKNOWN_COMMAND, and the CLI says what needs which version. */
static int refused_before_net10(app_t *a)
{
    const char *out;
    char path[300];
    if (e2e_runtime_at_least(10, 0))
        return 0;
    snprintf(path, sizeof path, "%s/refused.nettrace", a->dir);
    int rc = run_cli(&out, "trace", "--providers", SAMPLE_PROVIDER, "--exclude-event-ids",
                     SAMPLE_PROVIDER ":1", "--duration", "1", "--output", path, app_pid_text(a),
                     NULL);
    ASSERT_MSG(rc == 10, "exit %d on %s: %s", rc, e2e_runtime_version(), out);
    ASSERT_CONTAINS(out, "does not know CollectTracing5, which an event-id filter");
    ASSERT_CONTAINS(out, "it needs .NET 10 or later");
    app_assert_responsive(a);
    app_stop(a);
    return 1;
}

TEST(trace_exclude_event_ids_drops_exactly_those_ids)
{
    app_t a;
    trace_counts_t c;
    int one = -1;
    app_start(&a, NULL);
    if (refused_before_net10(&a))
        return;
    filtered_trace(&a, "--exclude-event-ids", RUNTIME_PROVIDER ":152", &c);
    int rest = others(&c, MODULE_LOAD, &one);
    test_note("without ModuleLoad: %d other runtime events (e.g. id %d), %d Ticks", rest, one,
              c.ticks);
    ASSERT_EQ(c.runtime_ids[MODULE_LOAD], 0);
    ASSERT(rest > 0); /* the provider's other loader events came */
    assert_ticks(&c, 20);                      /* and the other provider was not filtered */
    app_stop(&a);
}

TEST(trace_event_ids_keeps_only_those_ids)
{
    app_t a;
    trace_counts_t c;
    int one = -1;
    app_start(&a, NULL);
    if (refused_before_net10(&a))
        return;
    filtered_trace(&a, "--event-ids", RUNTIME_PROVIDER ":152", &c);
    ASSERT(c.runtime_ids[MODULE_LOAD] >= 1); /* System.Xml.Linq's load */
    ASSERT(c.loads >= 1);
    ASSERT_MSG(others(&c, MODULE_LOAD, &one) == 0, "runtime event id %d came through", one);
    assert_ticks(&c, 20);
    app_stop(&a);
}

TEST(trace_exclude_event_ids_of_the_apps_own_source_leaves_no_tick)
{
    app_t a;
    trace_counts_t c;
    app_start(&a, NULL);
    if (refused_before_net10(&a))
        return;
    filtered_trace(&a, "--exclude-event-ids", SAMPLE_PROVIDER ":1", &c);
    ASSERT_EQ(c.ticks, 0);
    ASSERT(c.runtime_ids[MODULE_LOAD] >= 1); /* the other provider, unfiltered, came */
    app_stop(&a);
}

/* No runtime here knows CollectTracing6 (.NET 11; 10.0.14 answers UNKNOWN_COMMAND): block mode
 * is refused with the version it needs, and the app is unharmed; dotnet-trace's spellings of
 * the mode (Block, 1) ask for the same. */
TEST(trace_buffering_mode_block_needs_net11)
{
    app_t a;
    const char *out;
    char path[300];
    app_start(&a, NULL);
    snprintf(path, sizeof path, "%s/block.nettrace", a.dir);
    static const char *const spellings[] = {"block", "Block", "1"};
    for (int i = 0; i < 3; i++) {
        int rc = run_cli(&out, "trace", "--providers", SAMPLE_PROVIDER, "--buffering-mode",
                         spellings[i], "--duration", "1", "--output", path, app_pid_text(&a),
                         NULL);
        if (rc == 0 && e2e_runtime_at_least(11, 0))
            continue; /* a runtime that has it: the trace simply worked */
        ASSERT_MSG(rc == 10, "%s: exit %d on %s: %s", spellings[i], rc, e2e_runtime_version(),
                   out);
        ASSERT_CONTAINS(out, "DS_IPC_E_UNKNOWN_COMMAND");
        ASSERT_CONTAINS(out, "does not know CollectTracing6, which the blocking buffering mode");
        ASSERT_CONTAINS(out, "it needs .NET 11 or later");
    }
    ASSERT_EQ(run_cli(&out, "trace", "--buffering-mode", "sideways", app_pid_text(&a), NULL), 2);
    ASSERT_CONTAINS(out, "--buffering-mode is drop or block (0 or 1), not 'sideways'");
    app_assert_responsive(&a);
    app_stop(&a);
}
