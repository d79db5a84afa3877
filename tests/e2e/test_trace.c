/* End-to-end: `clrattach trace` and the trace API against a real .NET 10 runtime. The sample
 * app's EventSource "ClrAttach-Sample" writes a known number of Tick events; the tests read
 * the written .nettrace back and count them. */
#define _GNU_SOURCE
#include "bg_cli.h"
#include "harness.h"
#include "runtime.h"
#include "nettrace_reader.h"
#include "test.h"
#include "trace_counts.h"

#include "clrattach.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define GC_PROVIDER "Microsoft-Windows-DotNETRuntime:0x1:4"

static char trace_dir[64];

/* A private directory for trace files (the app's directory goes when the app stops). */
static const char *trace_path(const char *name)
{
    static char path[128];
    char *dir = trace_dir;
    if (!dir[0]) {
        snprintf(dir, sizeof trace_dir, "/tmp/clra-trace-XXXXXX");
        ASSERT(mkdtemp(dir) != NULL);
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

/* Removes the trace files once a test has passed (a failure leaves them to look at). */
static void trace_cleanup(void)
{
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", trace_dir);
    if (trace_dir[0] && system(cmd) != 0)
        test_note("could not remove %s", trace_dir);
    trace_dir[0] = '\0';
}

TEST(trace_counts_every_event_of_an_event_source_and_ends_cleanly)
{
    app_t a;
    bg_t b;
    const char *out = trace_path("ticks.nettrace");
    app_start(&a, NULL);
    bg_start(&b, "trace", "--providers", SAMPLE_PROVIDER, "--duration", "4", "--output", out,
             app_pid_text(&a), NULL);
    bg_wait_for(&b, "tracing process", 15000);
    ASSERT_STREQ(app_command(&a, "events 500", 10000), "events-done 500");
    ASSERT_EQ(bg_finish(&b, 60000), 0);
    ASSERT_CONTAINS(b.out, "CollectTracing1: valid (NetTrace 4");
    trace_counts_t c;
    read_trace_counts(out, &c);
    assert_ticks(&c, 500);
    ASSERT_MSG(c.ticks_with_stack == 500, "%d of 500 Ticks carry a stack", c.ticks_with_stack);
    ASSERT_MSG(c.rundown > 0, "no rundown events in a default trace");
    app_stop(&a);
    trace_cleanup();
}

TEST(trace_sigint_mid_trace_stops_cleanly_and_keeps_every_event)
{
    app_t a;
    bg_t b;
    const char *out = trace_path("sigint.nettrace");
    app_start(&a, NULL);
    bg_start(&b, "trace", "--providers", SAMPLE_PROVIDER "," GC_PROVIDER, "--output", out,
             app_pid_text(&a), NULL);
    bg_wait_for(&b, "tracing process", 15000);
    ASSERT_STREQ(app_command(&a, "events 300", 10000), "events-done 300");
    ASSERT_STREQ(app_command(&a, "gc 2", 10000), "gc-done 2");
    kill(b.pid, SIGINT);
    ASSERT_EQ(bg_finish(&b, 60000), 0);
    ASSERT_CONTAINS(b.out, "stopping: waiting for the rundown");
    ASSERT_CONTAINS(b.out, ": valid (NetTrace 4");
    trace_counts_t c;
    read_trace_counts(out, &c);
    assert_ticks(&c, 300);
    app_stop(&a);
    trace_cleanup();
}

/* Runs a 2-second JSON trace of the sample provider with extra options; returns the output. */
static const char *json_trace(app_t *a, const char *path, const char *opt)
{
    const char *output;
    int rc = opt ? run_cli(&output, "trace", "--providers", SAMPLE_PROVIDER, "--duration", "2",
                           "--json", "--output", path, opt, app_pid_text(a), NULL)
                 : run_cli(&output, "trace", "--providers", SAMPLE_PROVIDER, "--duration", "2",
                           "--json", "--output", path, app_pid_text(a), NULL);
    ASSERT_MSG(rc == 0, "exit %d: %s", rc, output);
    ASSERT_CONTAINS(output, "\"valid\":true");
    return output;
}

/* Before .NET 9 the runtime answers UNKNOWN_COMMAND to CollectTracing3/4 (seen on 8.0.0 and
 * 8.0.31): the option is refused with exit 10 naming the command and the version it needs,
 * the app unharmed. Returns whether it was (and stopped the app). */
static int refused_before_net9(app_t *a, const char *opt, const char *command)
{
    const char *out;
    char detail[96];
    if (e2e_runtime_at_least(9, 0))
        return 0;
    int rc = run_cli(&out, "trace", "--providers", SAMPLE_PROVIDER, "--duration", "1", opt,
                     "--output", trace_path("refused.nettrace"), app_pid_text(a), NULL);
    ASSERT_MSG(rc == 10, "exit %d on %s: %s", rc, e2e_runtime_version(), out);
    ASSERT_CONTAINS(out, "DS_IPC_E_UNKNOWN_COMMAND");
    snprintf(detail, sizeof detail, "does not know %s", command);
    ASSERT_CONTAINS(out, detail);
    ASSERT_CONTAINS(out, "it needs .NET 9 or later");
    app_assert_responsive(a);
    app_stop(a);
    trace_cleanup();
    return 1;
}

TEST(trace_no_rundown_uses_collecttracing2_and_writes_no_rundown_events)
{
    app_t a;
    trace_counts_t with, without;
    app_start(&a, NULL);
    ASSERT_CONTAINS(json_trace(&a, trace_path("rundown.nettrace"), NULL), "\"command_version\":1");
    ASSERT_CONTAINS(json_trace(&a, trace_path("norundown.nettrace"), "--no-rundown"),
                    "\"command_version\":2");
    read_trace_counts(trace_path("rundown.nettrace"), &with);
    read_trace_counts(trace_path("norundown.nettrace"), &without);
    test_note("rundown events: %d with rundown, %d without", with.rundown, without.rundown);
    ASSERT_MSG(with.rundown > 100, "only %d rundown events with rundown on", with.rundown);
    ASSERT_EQ(without.rundown, 0);
    app_stop(&a);
    trace_cleanup();
}

TEST(trace_no_stackwalk_uses_collecttracing3_and_events_carry_empty_stacks)
{
    app_t a;
    bg_t b;
    const char *out = trace_path("nostack.nettrace");
    app_start(&a, NULL);
    if (refused_before_net9(&a, "--no-stackwalk", "CollectTracing3"))
        return;
    bg_start(&b, "trace", "--providers", SAMPLE_PROVIDER, "--no-stackwalk", "--duration", "3",
             "--output", out, app_pid_text(&a), NULL);
    bg_wait_for(&b, "CollectTracing3); Ctrl-C", 15000);
    ASSERT_STREQ(app_command(&a, "events 50", 10000), "events-done 50");
    ASSERT_EQ(bg_finish(&b, 60000), 0);
    trace_counts_t c;
    read_trace_counts(out, &c);
    assert_ticks(&c, 50);
    ASSERT_EQ(c.ticks_without_stack, 50);
    app_stop(&a);
    trace_cleanup();
}

TEST(trace_custom_rundown_keyword_uses_collecttracing4_and_narrows_the_rundown)
{
    app_t a;
    trace_counts_t full, loader;
    app_start(&a, NULL);
    if (refused_before_net9(&a, "--rundown-keyword=0x8", "CollectTracing4"))
        return;
    json_trace(&a, trace_path("full.nettrace"), NULL);
    ASSERT_CONTAINS(json_trace(&a, trace_path("loader.nettrace"), "--rundown-keyword=0x8"),
                    "\"command_version\":4");
    read_trace_counts(trace_path("full.nettrace"), &full);
    read_trace_counts(trace_path("loader.nettrace"), &loader);
    test_note("rundown events: %d default, %d with keyword 0x8 (loader)", full.rundown,
              loader.rundown);
    ASSERT(loader.rundown > 0);
    ASSERT(loader.rundown < full.rundown);
    app_stop(&a);
    trace_cleanup();
}

/* A process that exits normally shuts EventPipe down: the runtime itself writes the rundown
 * and the end marker before the stream closes. */
TEST(trace_target_exiting_normally_ends_the_trace_complete)
{
    app_t a;
    bg_t b;
    const char *out = trace_path("exit.nettrace");
    app_start(&a, NULL);
    bg_start(&b, "trace", "--providers", SAMPLE_PROVIDER, "--output", out, app_pid_text(&a), NULL);
    bg_wait_for(&b, "tracing process", 15000);
    ASSERT_STREQ(app_command(&a, "events 20", 10000), "events-done 20");
    app_stop(&a);
    ASSERT_EQ(bg_finish(&b, 30000), 0);
    ASSERT_CONTAINS(b.out, "the stream ended before the trace was stopped (the process exited)");
    trace_counts_t c;
    read_trace_counts(out, &c);
    assert_ticks(&c, 20);
    ASSERT(c.rundown > 0);
    trace_cleanup();
}

TEST(trace_target_killed_mid_trace_says_the_file_is_incomplete)
{
    app_t a;
    bg_t b;
    clra_nettrace_info_t info;
    clra_status_t st;
    const char *out = trace_path("killed.nettrace");
    app_start(&a, NULL);
    bg_start(&b, "trace", "--providers", SAMPLE_PROVIDER, "--output", out, app_pid_text(&a), NULL);
    bg_wait_for(&b, "tracing process", 15000);
    /* The session starts before the runtime writes its header: kill once some of the stream
     * is on disk, or the file may be empty (seen once on a loaded machine). */
    struct stat sb;
    ASSERT_STREQ(app_command(&a, "events 20", 10000), "events-done 20");
    for (int i = 0; i < 1000 && (stat(out, &sb) != 0 || sb.st_size < 64); i++)
        usleep(10000);
    ASSERT_MSG(stat(out, &sb) == 0 && sb.st_size >= 64, "%s stayed under 64 bytes", out);
    kill(a.pid, SIGKILL);
    ASSERT_EQ(bg_finish(&b, 30000), 8);
    ASSERT_CONTAINS(b.out, "incomplete (no end marker)");
    ASSERT_CONTAINS(b.out, "the stream ended before the trace was stopped: the process exited");
    ASSERT_EQ(clra_nettrace_check_file(out, &info, &st), 0);
    ASSERT_EQ(info.state, CLRA_NETTRACE_INCOMPLETE);
    ASSERT_EQ(info.version, 4);
    signal(SIGPIPE, SIG_IGN); /* app_stop writes to the dead app's stdin */
    app_stop(&a);
    trace_cleanup();
}

/* A stopped (SIGSTOP) target never answers StopTracing: the --timeout bounds the wait, and a
 * second Ctrl-C ends it at once. */
TEST(trace_stop_of_a_frozen_target_times_out_or_aborts_on_a_second_ctrl_c)
{
    app_t a;
    bg_t b;
    app_start(&a, NULL);
    bg_start(&b, "trace", "--providers", SAMPLE_PROVIDER, "--timeout", "1500", "--output",
             trace_path("frozen.nettrace"), app_pid_text(&a), NULL);
    bg_wait_for(&b, "tracing process", 15000);
    app_freeze(&a);
    kill(b.pid, SIGINT);
    double t0 = now_ms();
    ASSERT_EQ(bg_finish(&b, 30000), 7);
    test_note("stop gave up after %.0f ms", now_ms() - t0);
    ASSERT_CONTAINS(b.out, "no reply to StopTracing before the deadline");
    ASSERT_CONTAINS(b.out, "incomplete (no end marker)");
    kill(a.pid, SIGCONT);
    bg_start(&b, "trace", "--providers", SAMPLE_PROVIDER, "--output",
             trace_path("aborted.nettrace"), app_pid_text(&a), NULL);
    bg_wait_for(&b, "tracing process", 15000);
    app_freeze(&a);
    kill(b.pid, SIGINT);
    bg_wait_for(&b, "stopping: waiting", 15000);
    kill(b.pid, SIGINT);
    ASSERT_EQ(bg_finish(&b, 10000), 130);
    ASSERT_CONTAINS(b.out, "second interrupt: aborting; the trace file is incomplete");
    kill(a.pid, SIGCONT);
    app_assert_responsive(&a);
    app_stop(&a);
    trace_cleanup();
}

TEST(trace_bad_provider_spec_exits_2_naming_the_provider_and_the_bad_part)
{
    const char *output;
    app_t a;
    app_start(&a, NULL);
    ASSERT_EQ(run_cli(&output, "trace", "--providers", SAMPLE_PROVIDER ":0xZZ", app_pid_text(&a),
                      NULL), 2);
    ASSERT_CONTAINS(output, "provider 'ClrAttach-Sample': keywords '0xZZ' are not hexadecimal");
    ASSERT_EQ(run_cli(&output, "trace", "--providers", SAMPLE_PROVIDER ":1:Loud", app_pid_text(&a),
                      NULL), 2);
    ASSERT_CONTAINS(output, "level 'Loud' is not 0-5");
    app_assert_responsive(&a);
    app_stop(&a);
    trace_cleanup();
}

/* Collects stream bytes in memory for the library-level test. */
typedef struct membuf {
    uint8_t *data;
    size_t len, cap;
} membuf_t;

static int mem_sink(void *ctx, const void *data, size_t len)
{
    membuf_t *m = ctx;
    if (m->len + len > m->cap) {
        m->cap = (m->len + len) * 2;
        m->data = realloc(m->data, m->cap);
    }
    memcpy(m->data + m->len, data, len);
    m->len += len;
    return 0;
}

/* The API a launcher would use: a session over a connection it opened itself. */
TEST(trace_api_session_over_an_open_connection_counts_events)
{
    app_t a;
    clra_endpoint_t ep;
    clra_status_t st;
    clra_trace_config_t cfg;
    clra_trace_session_t s;
    membuf_t m = {0};
    app_start(&a, NULL);
    ASSERT_EQ(clra_endpoint_find(a.pid, &ep, &st), 0);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    ASSERT(strlen(ep.path) < sizeof sa.sun_path);
    memcpy(sa.sun_path, ep.path, strlen(ep.path) + 1);
    ASSERT_EQ(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    clra_trace_config_init(&cfg);
    cfg.rundown_keyword = 0;
    ASSERT_EQ(clra_trace_config_parse_providers(&cfg, SAMPLE_PROVIDER, &st), 0);
    clra_connection_t *conn;
    ASSERT_EQ(clra_connection_from_fd(fd, &conn), 0);
    clra_target_t t = clra_target_connection(conn), pid = clra_target_pid(a.pid);
    ASSERT_MSG(clra_trace_start(&t, &cfg, 10000, &s, &st) == 0, "%s", st.detail);
    ASSERT_EQ(s.command_version, 2);
    ASSERT_NE(s.id, 0);
    ASSERT_STREQ(app_command(&a, "events 40", 10000), "events-done 40");
    ASSERT_EQ(clra_trace_pump(&s, mem_sink, &m, 300, &st), 0);
    ASSERT_MSG(clra_trace_stop(&s, &pid, mem_sink, &m, 30000, &st) == 0, "%s", st.detail);
    ASSERT(s.eof);
    ASSERT_EQ(s.bytes, m.len);
    clra_trace_session_close(&s);
    trace_counts_t c;
    count_trace(m.data, m.len, &c);
    assert_ticks(&c, 40);
    free(m.data);
    clra_trace_config_free(&cfg);
    app_stop(&a);
    trace_cleanup();
}

/* --max-size caps what a target can make us write (issue 17): the trace stops by itself once
 * the file reaches the size, cleanly (rundown and end marker), and says so. */
TEST(trace_max_size_stops_the_trace_cleanly_at_the_cap)
{
    app_t a;
    bg_t b;
    struct stat sb;
    const char *out = trace_path("capped.nettrace");
    app_start(&a, NULL);
    bg_start(&b, "trace", "--providers", SAMPLE_PROVIDER, "--max-size", "65536", "--output", out,
             app_pid_text(&a), NULL);
    bg_wait_for(&b, "tracing process", 15000);
    app_command(&a, "events 20000", 30000);
    ASSERT_EQ(bg_finish(&b, 60000), 0);
    ASSERT_CONTAINS(b.out, "the file reached --max-size (65536 bytes)");
    ASSERT_CONTAINS(b.out, ": valid (NetTrace");
    ASSERT(stat(out, &sb) == 0);
    ASSERT_MSG(sb.st_size >= 65536 && sb.st_size < 65536 + (16 << 20) + (2 << 20),
               "the file holds %lld bytes", (long long)sb.st_size);
    app_stop(&a);
    trace_cleanup();
}
