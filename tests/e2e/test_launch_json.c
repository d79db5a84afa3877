/* End-to-end: `clrattach launch --json` writes JSON Lines on its stdout, where the program's
 * own output never goes (it comes on launch's stderr): an "event":"started" object with the
 * real program's pid as soon as it runs, and one "event":"result" object when launch ends,
 * whose trace and profile members describe the files on disk; a launch that fails writes the
 * result alone, with the error members and the exit code text mode gives. */
#define _GNU_SOURCE
#include "harness.h"
#include "json_check.h"
#include "proc_status.h"
#include "test.h"
#include "trace_counts.h"

#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The next line of launch's stdout, which must be one JSON object (static buffer). */
static const char *next_object(const app_t *a, int timeout_ms)
{
    static char line[2][16384];
    static int turn;
    char *out = line[turn ^= 1];
    ASSERT_MSG(read_line_within(a->launch_json, out, sizeof line[0], timeout_ms) == 0,
               "launch wrote no JSON line within %d ms", timeout_ms);
    ASSERT_MSG(json_is_valid(out) && out[0] == '{', "not one JSON object: %s", out);
    return out;
}

/* Whether launch's stdout ends here: closed, with nothing more in it. */
static int stdout_ended(const app_t *a)
{
    struct pollfd p = {a->launch_json, POLLIN, 0};
    char c;
    return poll(&p, 1, 5000) == 1 && read(a->launch_json, &c, 1) == 0;
}

/* The sum of the counts that end the lines of a folded profile. */
static long long folded_total(const char *text)
{
    long long sum = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *space = memrchr(line, ' ', len);
        if (space)
            sum += atoll(space + 1);
        line += len + (end != NULL);
    }
    return sum;
}

/* Ends the program with command ("exit 3") and waits for launch: its wait status. The JSON
 * stays readable (app_stop, which closes it, only cleans up afterwards). */
static int end_program(app_t *a, const char *command)
{
    int status;
    ASSERT(dprintf(a->to_app, "%s\n", command) > 0);
    ASSERT_EQ(waitpid(a->launcher, &status, 0), a->launcher);
    return status;
}

/* A scratch directory for the files launch writes. */
static void scratch(char *dir, size_t cap)
{
    snprintf(dir, cap, "/tmp/clra-launch-json-XXXXXX");
    ASSERT(mkdtemp(dir) != NULL);
}

/* The started object names the program that runs: the pid it printed itself, launch's child. */
static int assert_started(const app_t *a, const char *started)
{
    ASSERT_STREQ(json_value(started, "event"), "started");
    ASSERT_MSG(json_value(started, "pid") != NULL, "no pid in %s", started);
    int pid = atoi(json_value(started, "pid"));
    ASSERT_EQ(pid, a->ready_pid);
    ASSERT_EQ(proc_status_field(pid, "PPid", 10), a->launcher);
    return pid;
}

TEST(launch_json_gives_the_pid_at_start_and_the_checked_trace_and_exit_at_the_end)
{
    app_t a;
    trace_counts_t seen;
    struct stat sb;
    char dir[64], trace[128], folded[128], want[400];
    scratch(dir, sizeof dir);
    snprintf(trace, sizeof trace, "%s/launch.nettrace", dir);
    snprintf(folded, sizeof folded, "%s/launch.folded", dir);
    const char *args[] = {"--json", "--profiler", profiler_path("hello"), "--trace",
                          SAMPLE_PROVIDER ",Microsoft-DotNETCore-SampleProfiler",
                          "--trace-output", trace, "--format", "folded", NULL};
    app_options_t o = {.launch_json = 1};
    app_spawn_launched_with(&a, &o, args);
    const char *started = next_object(&a, 30000);
    /* the program's "ready" comes through launch's stderr: its stdout is not ours */
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "no ready line on launch's stderr");
    int pid = assert_started(&a, started);
    ASSERT_STREQ(json_value(started, "output"), trace);
    ASSERT_STREQ(json_value(started, "loaded"), "true");
    ASSERT(app_maps_contains(&a, "libhello_profiler.so"));
    ASSERT_STREQ(app_command(&a, "events 5", 10000), "events-done 5");
    ASSERT_STREQ(app_command(&a, "spin 300", 10000), "spun 300");
    int status = end_program(&a, "exit 3");
    ASSERT(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 3);

    const char *result = next_object(&a, 10000);
    ASSERT_STREQ(json_value(result, "event"), "result");
    ASSERT_STREQ(json_value(result, "ok"), "true");
    ASSERT_EQ(atoi(json_value(result, "pid")), pid);
    ASSERT_CONTAINS(result, "\"program\":{\"exit_code\":3}");
    ASSERT_CONTAINS(result, ",\"exit_code\":3,\"elapsed_ms\":"); /* launch's own, the same */
    ASSERT_STREQ(json_value(result, "status"), "valid");
    ASSERT_STREQ(json_value(result, "stopped_by"), "program-exit");
    ASSERT(stat(trace, &sb) == 0);
    ASSERT_EQ(atoll(json_value(result, "bytes")), sb.st_size);
    snprintf(want, sizeof want, "{\"format\":\"folded\",\"path\":\"%s\",\"ok\":true}", folded);
    ASSERT_CONTAINS(result, want);
    free(whole_file(folded));
    read_trace_counts(trace, &seen);
    assert_ticks(&seen, 5);
    ASSERT_MSG(stdout_ended(&a), "more than two lines on launch's stdout");
    app_stop(&a); /* both are gone already: this only cleans up */
    remove_dir(dir);
}

/* SIGINT to launch stops the trace first; the result says so and how the program died. */
TEST(launch_json_result_says_the_signal_stopped_the_trace_and_killed_the_program)
{
    app_t a;
    int status;
    char dir[64], trace[128];
    scratch(dir, sizeof dir);
    snprintf(trace, sizeof trace, "%s/launch.nettrace", dir);
    const char *args[] = {"--json", "--trace", SAMPLE_PROVIDER, "--trace-output", trace, NULL};
    app_options_t o = {.launch_json = 1};
    app_spawn_launched_with(&a, &o, args);
    const char *started = next_object(&a, 30000);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "no ready line on launch's stderr");
    assert_started(&a, started);
    ASSERT_STREQ(app_command(&a, "events 4", 10000), "events-done 4");
    ASSERT_EQ(kill(a.launcher, SIGINT), 0);
    ASSERT_EQ(waitpid(a.launcher, &status, 0), a.launcher);
    ASSERT(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 128 + SIGINT);
    const char *result = next_object(&a, 5000);
    ASSERT_CONTAINS(result, "\"program\":{\"exit_code\":130,\"signal\":2,\"signal_name\":");
    ASSERT_STREQ(json_value(result, "stopped_by"), "signal");
    ASSERT_STREQ(json_value(result, "status"), "valid");
    ASSERT_STREQ(json_value(result, "ok"), "true");
    trace_counts_t seen;
    read_trace_counts(trace, &seen);
    assert_ticks(&seen, 4);
    app_stop(&a); /* both are gone already: this only cleans up */
    remove_dir(dir);
}

/* The profile member describes FILE: its samples are the sum of the folded file's counts. */
TEST(launch_json_profile_member_matches_the_written_file)
{
    app_t a;
    char dir[64], file[128];
    scratch(dir, sizeof dir);
    snprintf(file, sizeof file, "%s/startup.folded", dir);
    const char *args[] = {"--json", "--profile", file, NULL};
    app_options_t o = {.launch_json = 1};
    app_spawn_launched_with(&a, &o, args);
    const char *started = next_object(&a, 30000);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "no ready line on launch's stderr");
    assert_started(&a, started);
    ASSERT_STREQ(json_value(started, "loaded"), "true");
    ASSERT_STREQ(app_command(&a, "spin 500", 10000), "spun 500");
    int status = end_program(&a, "exit 0");
    ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    const char *result = next_object(&a, 10000);
    ASSERT_STREQ(json_value(result, "written"), "true");
    ASSERT_STREQ(json_value(result, "last_samples"), "true");
    char *text = whole_file(file);
    long long sum = folded_total(text);
    free(text);
    ASSERT_MSG(sum > 0, "no samples in %s", file);
    ASSERT_EQ(atoll(json_value(result, "samples")), sum);
    app_stop(&a);
    remove_dir(dir);
}

/* A profiler the runtime accepted but never loaded (a wrong CLSID) is no success of launch's,
 * whatever COMMAND's exit: loaded false in both lines, ok false, COMMAND's exit code as ours. */
TEST(launch_json_profiler_the_runtime_did_not_load_is_not_ok)
{
    app_t a;
    const char *args[] = {"--json", "--timeout", "1500", "--clsid",
                          "11111111-2222-3333-4444-555555555555", "--profiler",
                          profiler_path("hello"), NULL};
    app_options_t o = {.launch_json = 1};
    app_spawn_launched_with(&a, &o, args);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "no ready line on launch's stderr");
    const char *started = next_object(&a, 30000);
    assert_started(&a, started);
    ASSERT_STREQ(json_value(started, "loaded"), "false");
    ASSERT(!app_maps_contains(&a, "libhello_profiler.so"));
    int status = end_program(&a, "exit 0");
    ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    const char *result = next_object(&a, 10000);
    ASSERT_STREQ(json_value(result, "ok"), "false");
    ASSERT_STREQ(json_value(result, "loaded"), "false");
    ASSERT_CONTAINS(result, ",\"exit_code\":0,\"elapsed_ms\":");
    app_stop(&a);
}

/* Failures before the program runs: the result object alone on stdout, as other verbs write
 * it, with the exit code text mode gives (the text mode's own tests: test_launch.c). */
TEST(launch_json_failures_are_the_error_object_with_the_exit_codes_of_text_mode)
{
    const char *out, *err, *text; /* run_cli and run_cli_split share out's buffer */
    ASSERT_EQ(run_cli(&text, "launch", "--profiler", "/nonexistent/libx.so", "--", "/bin/true",
                      NULL), 2);
    ASSERT_EQ(run_cli_split(&out, &err, "launch", "--json", "--profiler", "/nonexistent/libx.so",
                            "--", "/bin/true", NULL), 2);
    ASSERT_MSG(json_is_valid(out) && strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
    ASSERT_STREQ(json_value(out, "ok"), "false");
    ASSERT_STREQ(json_value(out, "error"), "CLRA_EINVAL");
    ASSERT_CONTAINS(json_value(out, "detail"), "cannot read the profiler /nonexistent/libx.so");
    ASSERT_CONTAINS(out, "\"exit_code\":2,");

    ASSERT_EQ(run_cli(&text, "launch", "--startup-hook", CLRA_HOOK_DLL, "--timeout", "5000",
                      "--", "/nonexistent/program", NULL), 4);
    ASSERT_EQ(run_cli_split(&out, &err, "launch", "--json", "--startup-hook", CLRA_HOOK_DLL,
                            "--timeout", "5000", "--", "/nonexistent/program", NULL), 4);
    ASSERT_MSG(json_is_valid(out), "%s", out);
    ASSERT_STREQ(json_value(out, "error"), "CLRA_ENOTDOTNET");
    ASSERT_STREQ(json_value(out, "detail"),
                 "cannot run '/nonexistent/program': No such file or directory");
    ASSERT_EQ(json_value(out, "pid"), NULL); /* it never ran */
    ASSERT_CONTAINS(out, "\"exit_code\":4,");
    ASSERT_CONTAINS(err, "cannot run '/nonexistent/program'");

    ASSERT_EQ(run_cli_split(&out, &err, "launch", "--json", "--startup-hook", CLRA_HOOK_DLL,
                            "--timeout", "5000", "--", "/bin/true", NULL), 4);
    ASSERT_MSG(json_is_valid(out), "%s", out);
    ASSERT_STREQ(json_value(out, "error"), "CLRA_ENOTDOTNET");
    ASSERT_CONTAINS(json_value(out, "detail"), "/bin/true exited (code 0) before its runtime "
                                               "connected");
    ASSERT_MSG(json_value(out, "pid") != NULL, "the program ran, yet no pid: %s", out);

    ASSERT_EQ(run_cli_split(&out, &err, "launch", "--json", "--startup-hook", CLRA_SAMPLE_DLL,
                            "--", "/bin/true", NULL), 2);
    ASSERT_STREQ(json_value(out, "error"), "CLRA_EINVAL");
    ASSERT_CONTAINS(json_value(out, "detail"), "no class StartupHook");
    ASSERT_EQ(run_cli_split(&out, &err, "launch", "--json", "--trace", SAMPLE_PROVIDER,
                            "--trace-output", "/nonexistent/dir/t.nettrace", "--", "/bin/true",
                            NULL), 2);
    ASSERT_STREQ(json_value(out, "detail"), "cannot create the --trace-output file "
                                            "/nonexistent/dir/t.nettrace: No such file or "
                                            "directory");
}
