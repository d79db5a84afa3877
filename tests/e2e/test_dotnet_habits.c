/* The dotnet tools' spellings of our options work against a real runtime: -p/--process-id,
 * -o/--output, --buffersize and --duration as a TimeSpan (issue 27: their users' habits). */
#define _GNU_SOURCE
#include "bg_cli.h"
#include "harness.h"
#include "hot_app.h" /* out_path: a->dir/NAME, removed with the app */
#include "test.h"
#include "trace_counts.h"

#include "clrattach.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TEST(dotnet_trace_spelling_traces_a_real_process)
{
    app_t a;
    bg_t b;
    app_start(&a, NULL);
    char out[512];
    snprintf(out, sizeof out, "%s", out_path(&a, "habit.nettrace"));
    bg_start(&b, "trace", "-p", app_pid_text(&a), "-o", out, "--buffersize", "8", "--duration",
             "00:00:00:03", "--providers", SAMPLE_PROVIDER, NULL);
    bg_wait_for(&b, "tracing process", 15000);
    ASSERT_STREQ(app_command(&a, "events 200", 10000), "events-done 200");
    ASSERT_EQ(bg_finish(&b, 60000), 0);
    const char *took = strstr(b.out, " bytes in "); /* 00:00:00:03 was read as 3 s */
    ASSERT_MSG(took && strtod(took + 10, NULL) >= 2.5 && strtod(took + 10, NULL) < 10,
               "not a 3 s trace: %s", b.out);
    trace_counts_t c;
    read_trace_counts(out, &c);
    assert_ticks(&c, 200);
    app_stop(&a);
}

TEST(dotnet_counters_and_stack_spellings_read_a_real_process)
{
    app_t a;
    const char *out_text;
    app_start(&a, NULL);
    char csv[512];
    snprintf(csv, sizeof csv, "%s", out_path(&a, "habit.csv"));
    int rc = run_cli(&out_text, "counters", "-p", app_pid_text(&a), "--duration", "00:00:02",
                     "-o", csv, "--format", "csv", NULL);
    ASSERT_MSG(rc == 0, "counters: exit %d: %s", rc, out_text);
    FILE *f = fopen(csv, "r");
    ASSERT_MSG(f != NULL, "counters wrote no %s", csv);
    char line[256] = "", row[256] = "";
    ASSERT(fgets(line, sizeof line, f) != NULL);
    ASSERT_STREQ(line, "Timestamp,Provider,Counter Name,Counter Type,Mean/Increment\n");
    ASSERT_MSG(fgets(row, sizeof row, f) != NULL, "no counter row after the header");
    ASSERT_CONTAINS(row, ",System.Runtime,");
    fclose(f);
    rc = run_cli(&out_text, "stack", "--process-id", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "stack -p: exit %d: %s", rc, out_text);
    ASSERT_CONTAINS(out_text, "Thread");
    app_stop(&a);
}

/* A directory for a diagnostic port's socket, made before the app that uses it. */
static void port_dir(char *dir, size_t cap)
{
    snprintf(dir, cap, "/tmp/clra-dport-XXXXXX");
    ASSERT(mkdtemp(dir) != NULL);
}

/* dotnet-trace's --diagnostic-port PATH (listen, its default): we listen, a runtime started
 * with DOTNET_DiagnosticPorts=PATH connects and waits at startup; the trace starts, the
 * runtime is let run, and its events are all in the file. */
TEST(trace_diagnostic_port_listens_for_a_runtime_and_lets_it_run)
{
    char dir[64], port[128], out[128], env[160];
    port_dir(dir, sizeof dir);
    snprintf(port, sizeof port, "%s/port.sock", dir);
    snprintf(out, sizeof out, "%s/port.nettrace", dir);
    bg_t b;
    bg_start(&b, "trace", "--diagnostic-port", port, "--providers", SAMPLE_PROVIDER,
             "--duration", "4", "-o", out, NULL);
    bg_wait_for(&b, "waiting up to", 15000);
    snprintf(env, sizeof env, "DOTNET_DiagnosticPorts=%s", port);
    const char *const envs[] = {env, NULL};
    app_t a;
    app_spawn(&a, envs);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "the app did not run: not resumed? %s", b.out);
    bg_wait_for(&b, "tracing process", 15000);
    char want[64];
    snprintf(want, sizeof want, "tracing process %s ", app_pid_text(&a));
    ASSERT_CONTAINS(b.out, want);
    ASSERT_STREQ(app_command(&a, "events 200", 10000), "events-done 200");
    ASSERT_EQ(bg_finish(&b, 60000), 0);
    trace_counts_t c;
    read_trace_counts(out, &c);
    assert_ticks(&c, 200);
    ASSERT_MSG(access(port, F_OK) != 0, "the listening socket %s was left behind", port);
    app_stop(&a);
    unlink(out);
    rmdir(dir);
}

/* --diagnostic-port PATH,connect (and --dport): the runtime's listening socket at PATH (its
 * default one: .NET 10 makes none for a listen port in DOTNET_DiagnosticPorts) is read by
 * counters and traced by trace, no PID given; a mode we do not know, or a PID beside the
 * port, is refused with exit 2. */
TEST(counters_and_trace_diagnostic_port_connect_to_a_listening_runtime)
{
    char dir[64], port[CLRA_PATH_MAX], spec[CLRA_PATH_MAX + 16], json[128], out[128];
    port_dir(dir, sizeof dir);
    snprintf(json, sizeof json, "%s/c.json", dir);
    snprintf(out, sizeof out, "%s/c.nettrace", dir);
    app_t a;
    app_start(&a, NULL);
    clra_endpoint_t ep;
    clra_status_t st;
    ASSERT_MSG(clra_endpoint_find(a.pid, &ep, &st) == 0, "no socket: %s", st.detail);
    snprintf(port, sizeof port, "%s", ep.path);
    snprintf(spec, sizeof spec, "%s,connect", port);
    const char *text;
    int rc = run_cli(&text, "counters", "--dport", spec, "--duration", "2", "--format", "JSON",
                     "-o", json, NULL);
    ASSERT_MSG(rc == 0, "counters --dport: exit %d: %s", rc, text);
    char *got = whole_file(json);
    ASSERT_MSG(got && strstr(got, "\"provider\": \"System.Runtime\""), "no System.Runtime "
               "value in %s: %.300s", json, got ? got : "(none)");
    free(got);
    bg_t b;
    bg_start(&b, "trace", "--diagnostic-port", spec, "--providers", SAMPLE_PROVIDER,
             "--duration", "3", "-o", out, NULL);
    bg_wait_for(&b, "tracing process", 15000);
    ASSERT_STREQ(app_command(&a, "events 100", 10000), "events-done 100");
    ASSERT_EQ(bg_finish(&b, 60000), 0);
    trace_counts_t c;
    read_trace_counts(out, &c);
    assert_ticks(&c, 100);
    snprintf(spec, sizeof spec, "%s,sideways", port);
    ASSERT_EQ(run_cli(&text, "trace", "--diagnostic-port", spec, NULL), 2);
    ASSERT_CONTAINS(text, "'sideways' is not connect, listen");
    ASSERT_EQ(run_cli(&text, "counters", "--dport", port, app_pid_text(&a), NULL), 2);
    ASSERT_CONTAINS(text, "give the target once");
    app_stop(&a);
    unlink(json);
    unlink(out);
    rmdir(dir);
}

/* --diagnostic-port PATH,connect to a runtime paused at startup by
 * DOTNET_DefaultDiagnosticPortSuspend=1: the trace starts, then lets it run (as dotnet-trace
 * does), so its first events are in the file. */
TEST(trace_diagnostic_port_connect_resumes_a_runtime_paused_at_startup)
{
    char dir[64], spec[CLRA_PATH_MAX + 16], out[128];
    port_dir(dir, sizeof dir);
    snprintf(out, sizeof out, "%s/paused.nettrace", dir);
    const char *const envs[] = {"DOTNET_DefaultDiagnosticPortSuspend=1", NULL};
    app_t a;
    app_spawn(&a, envs);
    clra_endpoint_t ep;
    clra_status_t st;
    int found = -1;
    for (int i = 0; i < 100 && found != 0; i++) {
        found = clra_endpoint_find(a.pid, &ep, &st);
        if (found != 0)
            usleep(100 * 1000);
    }
    ASSERT_MSG(found == 0, "the paused runtime made no socket: %s", st.detail);
    ASSERT_MSG(app_wait_ready(&a, 1500) != 0, "the app ran although its runtime should wait");
    snprintf(spec, sizeof spec, "%s,connect", ep.path);
    bg_t b;
    bg_start(&b, "trace", "--dport", spec, "--providers", SAMPLE_PROVIDER, "--duration", "4",
             "-o", out, NULL);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "the app did not run: not resumed? %s", b.out);
    ASSERT_STREQ(app_command(&a, "events 100", 10000), "events-done 100");
    ASSERT_EQ(bg_finish(&b, 60000), 0);
    trace_counts_t c;
    read_trace_counts(out, &c);
    assert_ticks(&c, 100);
    app_stop(&a);
    unlink(out);
    rmdir(dir);
}

/* dotnet-counters' own words: `counters collect` writes a file, csv unless --format says
 * otherwise (here JSON, in its capitals), and `EventCounters\System.Runtime` reads the
 * runtime's EventCounters (cpu-usage...) even where its Meter is the default (.NET 9+). */
TEST(counters_collect_and_eventcounters_prefix_read_as_dotnet_counters_does)
{
    app_t a;
    const char *text;
    app_start(&a, NULL);
    char csv[512], json[512];
    snprintf(csv, sizeof csv, "%s", out_path(&a, "collect.csv"));
    snprintf(json, sizeof json, "%s", out_path(&a, "collect.json"));
    int rc = run_cli(&text, "counters", "collect", "-p", app_pid_text(&a), "--duration", "2",
                     "--counters", "EventCounters\\System.Runtime", "-o", csv, NULL);
    ASSERT_MSG(rc == 0, "counters collect: exit %d: %s", rc, text);
    char *got = whole_file(csv);
    ASSERT_MSG(got && strncmp(got, "Timestamp,Provider,Counter Name,", 32) == 0,
               "collect wrote no csv: %.200s", got ? got : "(none)");
    ASSERT_CONTAINS(got, ",System.Runtime,CPU Usage (%),");
    ASSERT_EQ(strstr(got, "dotnet.process.cpu.time"), NULL);
    free(got);
    rc = run_cli(&text, "counters", "monitor", "-p", app_pid_text(&a), "--duration", "2",
                 "--format", "JSON", "-o", json, NULL);
    ASSERT_MSG(rc == 0, "counters monitor --format JSON: exit %d: %s", rc, text);
    got = whole_file(json);
    ASSERT_MSG(got && strstr(got, "\"provider\": \"System.Runtime\""), "no JSON: %.200s",
               got ? got : "(none)");
    free(got);
    app_stop(&a);
}
