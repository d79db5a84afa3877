/* End-to-end: clrattach launch starts a real .NET program paused on its own diagnostic port and,
 * before any managed code runs, loads a startup profiler, queues startup hooks and starts a
 * trace. The test hook (tests/apps/hook) appends "begin pid=... call=N thread=T" and "end ..."
 * to $CLRA_HOOK_OUT; the sample app prints "ready" from Main and writes N "Tick" events of its
 * EventSource on "events N". */
#define _GNU_SOURCE
#include "clrattach.h"
#include "harness.h"
#include "runtime.h"
#include "nettrace_reader.h"
#include "test.h"
#include "trace_counts.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define LOADER_PROVIDER "Microsoft-Windows-DotNETRuntime:0x8:4" /* Loader keyword */

/* What a launch test keeps: the hook's record, launch's stderr and the trace, in one directory
 * removed at the end. */
typedef struct scratch {
    char dir[64];
    char hook_out[128];
    char hook_env[160]; /* CLRA_HOOK_OUT=... */
    char err[128];      /* launch's stderr */
    char trace[128];
} scratch_t;

static void scratch_init(scratch_t *s)
{
    snprintf(s->dir, sizeof s->dir, "/tmp/clra-launch-XXXXXX");
    ASSERT(mkdtemp(s->dir) != NULL);
    snprintf(s->hook_out, sizeof s->hook_out, "%s/hook.out", s->dir);
    snprintf(s->hook_env, sizeof s->hook_env, "CLRA_HOOK_OUT=%s", s->hook_out);
    snprintf(s->err, sizeof s->err, "%s/launch.err", s->dir);
    snprintf(s->trace, sizeof s->trace, "%s/launch.nettrace", s->dir);
}

static void scratch_remove(const scratch_t *s)
{
    remove_dir(s->dir);
}

/* A small file's text (static buffer; "" when it does not exist). */
static const char *read_text(const char *path)
{
    static char text[16384];
    text[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f) {
        text[fread(text, 1, sizeof text - 1, f)] = '\0';
        fclose(f);
    }
    return text;
}

TEST(launch_loads_the_profiler_through_initialize_before_main_and_passes_the_exit_code)
{
    app_t a;
    const char *args[] = {"--profiler", profiler_path("hello"), NULL};
    app_spawn_launched(&a, NULL, args);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "the launched app did not start within 30 s");
    ASSERT_NE(a.pid, a.launcher);
    /* Main printed "ready", so whatever the profiler logged by now came before Main. */
    const char *log = app_log(&a);
    ASSERT_CONTAINS(log, "Initialize;");
    ASSERT(strstr(log, "InitializeForAttach") == NULL);
    /* CoreLib is the first module the runtime loads: a startup profiler sees even that one. */
    ASSERT_CONTAINS(log, "ModuleLoadFinished n=1 name=System.Private.CoreLib.dll");
    ASSERT(app_maps_contains(&a, "libhello_profiler.so"));
    app_assert_responsive(&a);
    int status = app_stop_with(&a, "exit 42");
    ASSERT(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 42);
}

TEST(launch_passes_sigterm_on_and_reports_how_the_program_ended)
{
    app_t a;
    const char *args[] = {"--profiler", profiler_path("hello"), NULL};
    int status;
    app_spawn_launched(&a, NULL, args);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "the launched app did not start within 30 s");
    pid_t app = a.pid;
    ASSERT_EQ(kill(a.launcher, SIGTERM), 0);
    ASSERT_EQ(waitpid(a.launcher, &status, 0), a.launcher);
    ASSERT(WIFEXITED(status)); /* the launcher itself was not killed: it passed the signal on */
    ASSERT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
    ASSERT(kill(app, 0) != 0);
    app_stop(&a); /* both are gone already: this only cleans up */
}

TEST(launch_of_a_program_that_is_not_dotnet_says_so)
{
    const char *out;
    ASSERT_EQ(run_cli(&out, "launch", "--startup-hook", CLRA_HOOK_DLL, "--timeout", "5000", "--",
                      "/bin/true", NULL), 4);
    ASSERT_CONTAINS(out, "before its runtime connected");
}

/* One that cannot be executed at all is no .NET question: the exec's own reason, exit 4. */
TEST(launch_of_a_program_that_cannot_be_run_says_why)
{
    const char *out;
    ASSERT_EQ(run_cli(&out, "launch", "--startup-hook", CLRA_HOOK_DLL, "--", "/nonexistent/prog",
                      NULL), 4);
    ASSERT_CONTAINS(out, "clrattach launch: cannot run '/nonexistent/prog': No such file or "
                         "directory");
    ASSERT_MSG(!strstr(out, "not a .NET program"), "%s", out);
}

/* A launch that fails removes a trace file it made, never one that was there: the path may be
 * a link to someone's file or a device. */
TEST(launch_that_fails_keeps_an_existing_trace_output)
{
    const char *out;
    char dir[] = "/tmp/clra-e2e-keep-XXXXXX", kept[64], link[64], made[64], cmd[96];
    ASSERT(mkdtemp(dir) != NULL);
    snprintf(kept, sizeof kept, "%s/kept", dir);
    snprintf(link, sizeof link, "%s/link", dir);
    snprintf(made, sizeof made, "%s/made.nettrace", dir);
    FILE *f = fopen(kept, "w");
    ASSERT(f != NULL && fputs("keep", f) >= 0 && fclose(f) == 0);
    ASSERT(symlink(kept, link) == 0);
    ASSERT_EQ(run_cli(&out, "launch", "--trace", SAMPLE_PROVIDER, "--trace-output", link,
                      "--timeout", "5000", "--", "/bin/true", NULL), 4);
    struct stat sb;
    ASSERT_MSG(lstat(link, &sb) == 0 && S_ISLNK(sb.st_mode), "the link was removed: %s", out);
    ASSERT(stat(kept, &sb) == 0);
    ASSERT_EQ(run_cli(&out, "launch", "--trace", SAMPLE_PROVIDER, "--trace-output", made,
                      "--timeout", "5000", "--", "/bin/true", NULL), 4);
    ASSERT_MSG(access(made, F_OK) != 0, "the file launch made stayed: %s", out);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ASSERT_EQ(system(cmd), 0);
}

/* dotnet run would start the app as a second runtime that inherits the paused port. */
TEST(launch_refuses_dotnet_run_which_would_leave_the_app_paused)
{
    const char *out;
    ASSERT_EQ(run_cli(&out, "launch", "--startup-hook", CLRA_HOOK_DLL, "--", "dotnet", "run",
                      NULL), 2);
    ASSERT_CONTAINS(out, "'dotnet run' runs the SDK");
    ASSERT_CONTAINS(out, "launch the app itself");
}

TEST(launch_usage_errors_say_what_is_missing)
{
    const char *out;
    ASSERT_EQ(run_cli(&out, "launch", "--profiler", "/nonexistent/libx.so", "--", "/bin/true",
                      NULL), 2);
    ASSERT_CONTAINS(out, "cannot read the profiler /nonexistent/libx.so");
    ASSERT_EQ(run_cli(&out, "launch", NULL), 2);
    ASSERT_CONTAINS(out, "expected -- COMMAND");
    ASSERT_EQ(run_cli(&out, "launch", "--", "/bin/true", NULL), 2);
    ASSERT_CONTAINS(out, "nothing to do: give --profile, --profiler, --startup-hook or --trace");
    ASSERT_EQ(run_cli(&out, "launch", "--trace-output", "/tmp/x.nettrace", "--startup-hook",
                      CLRA_HOOK_DLL, "--", "/bin/true", NULL), 2);
    ASSERT_CONTAINS(out, "need --trace PROVIDERS");
    ASSERT_EQ(run_cli(&out, "launch", "--duration", "3", "--profiler", "/bin/true",
                      "--", "/bin/true", NULL), 2);
    ASSERT_CONTAINS(out, "need --trace PROVIDERS");
    ASSERT_EQ(run_cli(&out, "launch", "--trace", SAMPLE_PROVIDER, "--format", "svg", "--",
                      "/bin/true", NULL), 2);
    ASSERT_CONTAINS(out, "--format is nettrace, speedscope, chromium, flamegraph, folded or "
                         "pprof");
    ASSERT_EQ(run_cli(&out, "launch", "--trace", SAMPLE_PROVIDER ":0xZZ", "--", "/bin/true",
                      NULL), 2);
    ASSERT_CONTAINS(out, "bad --trace: provider 'ClrAttach-Sample': keywords '0xZZ'");
    ASSERT_EQ(run_cli(&out, "launch", "--trace", SAMPLE_PROVIDER, "--trace-output",
                      "/nonexistent/dir/t.nettrace", "--", "/bin/true", NULL), 2);
    ASSERT_CONTAINS(out, "cannot write /nonexistent/dir/t.nettrace");
}

/* Applied while the runtime is paused, ApplyStartupHook is answered at once and the hook waits
 * for the runtime's own startup hooks: on the main thread, before Main. */
TEST(launch_startup_hook_runs_on_the_main_thread_before_main)
{
    scratch_t s;
    app_t a;
    char expect[128];
    scratch_init(&s);
    const char *env[] = {s.hook_env, "CLRA_HOOK_DELAY_MS=1500", NULL};
    const char *args[] = {"--startup-hook", CLRA_HOOK_DLL, NULL};
    app_options_t o = {.env = env, .stderr_path = s.err};
    app_spawn_launched_with(&a, &o, args);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "the launched app did not start within 30 s");
    /* Read at "ready": Main printed it, so whatever is in the file came before Main. */
    const char *ran = read_text(s.hook_out);
    snprintf(expect, sizeof expect, "begin pid=%d call=1 thread=1 ", (int)a.pid);
    ASSERT_CONTAINS(ran, expect);
    snprintf(expect, sizeof expect, "end pid=%d call=1\n", (int)a.pid);
    ASSERT_CONTAINS(ran, expect);
    snprintf(expect, sizeof expect, "env CLRA_HOOK_RAN=%d:1", (int)a.pid);
    ASSERT_STREQ(app_command(&a, "env CLRA_HOOK_RAN", 5000), expect);
    snprintf(expect, sizeof expect, "process %d runs startup hook %s before Main", (int)a.pid,
             CLRA_HOOK_DLL);
    ASSERT_CONTAINS(read_text(s.err), expect);
    int status = app_stop_with(&a, "exit 7");
    ASSERT(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 7);
    scratch_remove(&s);
}

/* A bad hook would end the program with an unhandled exception (and no reply), so it is
 * refused before COMMAND starts: the shell that would run the app never writes its mark. */
TEST(launch_refuses_an_invalid_startup_hook_before_starting_the_program)
{
    scratch_t s;
    char script[512], mark[128];
    const char *out;
    scratch_init(&s);
    snprintf(mark, sizeof mark, "%s/started", s.dir);
    snprintf(script, sizeof script, "echo started > '%s'; exec '%s' %s '%s' --seconds 1 </dev/null",
             mark, e2e_dotnet(), e2e_runtime_args(), CLRA_SAMPLE_DLL);
    ASSERT_EQ(run_cli(&out, "launch", "--startup-hook", CLRA_BADHOOK_DIR "/badhook_instance.dll",
                      "--", "/bin/sh", "-c", script, NULL), 2);
    ASSERT_CONTAINS(out, "refusing the startup hook " CLRA_BADHOOK_DIR "/badhook_instance.dll");
    ASSERT_CONTAINS(out, "COMMAND was not started");
    ASSERT_EQ(run_cli(&out, "launch", "--profiler", profiler_path("hello"), "--startup-hook",
                      CLRA_SAMPLE_DLL, "--", "/bin/sh", "-c", script, NULL), 2);
    ASSERT_CONTAINS(out, "no class StartupHook");
    ASSERT_MSG(access(mark, F_OK) != 0, "the program was started although the hook was bad");
    /* The same script with a good hook does start (so the mark above means something). */
    ASSERT_EQ(run_cli(&out, "launch", "--startup-hook", CLRA_HOOK_DLL, "--", "/bin/sh", "-c",
                      script, NULL), 0);
    ASSERT_MSG(access(mark, F_OK) == 0, "the script never ran: %s", out);
    scratch_remove(&s);
}

/* The trace starts while the runtime is paused, so it holds the loads of CoreLib and of the
 * app's own assembly, which come before Main; a trace of the running app has none of them. */
TEST(launch_trace_holds_the_startup_and_every_event_and_ends_with_the_program)
{
    scratch_t s;
    app_t a;
    trace_counts_t launched, attached;
    const char *out;
    char expect[256];
    scratch_init(&s);
    const char *args[] = {"--trace", SAMPLE_PROVIDER "," LOADER_PROVIDER, "--trace-output",
                          s.trace, NULL};
    app_options_t o = {.stderr_path = s.err};
    app_spawn_launched_with(&a, &o, args);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "the launched app did not start within 30 s");
    ASSERT_STREQ(app_command(&a, "events 250", 10000), "events-done 250");
    int status = app_stop(&a); /* a normal exit: the runtime ends the trace itself */
    ASSERT(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    read_trace_counts(s.trace, &launched);
    assert_ticks(&launched, 250);
    test_note("launched: %d module loads, sample.dll %d, CoreLib %d", launched.loads,
              launched.loads_sample, launched.loads_corelib);
    ASSERT_EQ(launched.loads_sample, 1);
    ASSERT_EQ(launched.loads_corelib, 1);
    snprintf(expect, sizeof expect, "clrattach launch: wrote %s: ", s.trace);
    ASSERT_CONTAINS(read_text(s.err), expect);
    ASSERT_CONTAINS(read_text(s.err), "CollectTracing1: valid (NetTrace 4, ");

    app_start(&a, NULL);
    ASSERT_EQ(run_cli(&out, "trace", "--providers", LOADER_PROVIDER, "--no-rundown",
                      "--duration", "1", "--output", s.trace, app_pid_text(&a), NULL), 0);
    read_trace_counts(s.trace, &attached);
    ASSERT_EQ(attached.loads_sample, 0);
    ASSERT_EQ(attached.loads_corelib, 0);
    app_stop(&a);
    scratch_remove(&s);
}

/* .NET 10 dies of SIGINT without ending its EventPipe sessions; launch stops the trace first,
 * so the file is complete, and then passes the signal on. */
TEST(launch_sigint_stops_the_trace_then_passes_the_signal_on)
{
    scratch_t s;
    app_t a;
    trace_counts_t seen;
    int status;
    scratch_init(&s);
    const char *args[] = {"--trace", SAMPLE_PROVIDER, "--trace-output", s.trace, NULL};
    app_options_t o = {.stderr_path = s.err};
    app_spawn_launched_with(&a, &o, args);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "the launched app did not start within 30 s");
    ASSERT_STREQ(app_command(&a, "events 40", 10000), "events-done 40");
    pid_t app = a.pid;
    ASSERT_EQ(kill(a.launcher, SIGINT), 0);
    ASSERT_EQ(waitpid(a.launcher, &status, 0), a.launcher);
    ASSERT(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 128 + SIGINT); /* the program died of the SIGINT passed on */
    ASSERT(kill(app, 0) != 0);
    ASSERT_CONTAINS(read_text(s.err), "Interrupt: stopping the trace, then passing the signal on");
    read_trace_counts(s.trace, &seen);
    assert_ticks(&seen, 40);
    app_stop(&a); /* both are gone already: this only cleans up */
    scratch_remove(&s);
}

/* Polls a file until it holds text (up to timeout_ms); whether it did. */
static int wait_for_text(const char *path, const char *text, int timeout_ms)
{
    for (int waited = 0; waited <= timeout_ms; waited += 100) {
        if (strstr(read_text(path), text))
            return 1;
        usleep(100000);
    }
    return 0;
}

/* --duration ends the trace while the program runs on: the file is complete at once, the
 * --format files are written from it, and events after the stop are not in it. */
TEST(launch_trace_duration_stops_the_trace_writes_the_formats_and_the_program_runs_on)
{
    scratch_t s;
    app_t a;
    trace_counts_t seen;
    char expect[256], folded[160], speedscope[160];
    scratch_init(&s);
    const char *args[] = {"--trace", SAMPLE_PROVIDER ",Microsoft-DotNETCore-SampleProfiler",
                          "--trace-output", s.trace, "--duration", "4", "--format",
                          "speedscope,folded", NULL};
    app_options_t o = {.stderr_path = s.err};
    app_spawn_launched_with(&a, &o, args);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "the launched app did not start within 30 s");
    ASSERT_STREQ(app_command(&a, "events 30", 10000), "events-done 30");
    ASSERT_STREQ(app_command(&a, "spin 300", 10000), "spun 300");
    snprintf(expect, sizeof expect, "clrattach launch: --duration 4 s passed: stopping the "
             "trace; process %d runs on", (int)a.pid);
    ASSERT_MSG(wait_for_text(s.err, expect, 15000), "no early stop:\n%s", read_text(s.err));
    snprintf(expect, sizeof expect, "clrattach launch: wrote %s: ", s.trace);
    ASSERT_MSG(wait_for_text(s.err, "(folded, from the trace's CPU samples)", 15000),
               "no conversion:\n%s", read_text(s.err));
    ASSERT_CONTAINS(read_text(s.err), expect);
    ASSERT_CONTAINS(read_text(s.err), ": valid (NetTrace ");
    /* the program runs on, untraced */
    ASSERT_STREQ(app_command(&a, "events 20", 10000), "events-done 20");
    read_trace_counts(s.trace, &seen);
    assert_ticks(&seen, 30);
    snprintf(folded, sizeof folded, "%s/launch.folded", s.dir);
    snprintf(speedscope, sizeof speedscope, "%s/launch.speedscope.json", s.dir);
    char *text = whole_file(folded);
    ASSERT_CONTAINS(text, "ClrAttach.Sample.Hot.Spin");
    free(text);
    text = whole_file(speedscope);
    ASSERT_CONTAINS(text, "{\"$schema\":\"https://www.speedscope.app/");
    ASSERT_CONTAINS(text, "ClrAttach.Sample.Hot.Spin");
    free(text);
    int status = app_stop(&a);
    ASSERT(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    scratch_remove(&s);
}

/* The stopping event ends the trace as in `clrattach trace`; the program runs on. */
TEST(launch_trace_stops_at_the_stopping_event_and_the_program_runs_on)
{
    scratch_t s;
    app_t a;
    trace_counts_t seen;
    char expect[256];
    scratch_init(&s);
    const char *args[] = {"--trace", SAMPLE_PROVIDER, "--trace-output", s.trace,
                          "--stopping-event-provider-name", "ClrAttach-Sample",
                          "--stopping-event-event-name", "Tick",
                          "--stopping-event-payload-filter", "Sequence:7", NULL};
    app_options_t o = {.stderr_path = s.err};
    app_spawn_launched_with(&a, &o, args);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "the launched app did not start within 30 s");
    ASSERT_STREQ(app_command(&a, "events 5", 10000), "events-done 5"); /* 0..4: no match */
    usleep(1500 * 1000);
    ASSERT_EQ(strstr(read_text(s.err), "stopping the trace"), NULL);
    ASSERT_STREQ(app_command(&a, "events 10", 10000), "events-done 10"); /* 0..9: 7 matches */
    snprintf(expect, sizeof expect, "clrattach launch: the stopping event ClrAttach-Sample/Tick "
             "arrived: stopping the trace; process %d runs on", (int)a.pid);
    ASSERT_MSG(wait_for_text(s.err, expect, 15000), "no stop:\n%s", read_text(s.err));
    ASSERT_MSG(wait_for_text(s.err, ": valid (NetTrace ", 15000), "%s", read_text(s.err));
    ASSERT_STREQ(app_command(&a, "events 30", 10000), "events-done 30");
    read_trace_counts(s.trace, &seen);
    ASSERT_MSG(seen.ticks == 15 && seen.bad_text == 0, "%d Ticks in the trace, 15 before the "
               "stop", seen.ticks);
    int status = app_stop(&a);
    ASSERT(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    scratch_remove(&s);
}

/* All three at once, in launch's order: the trace starts first, so it sees the hook assembly
 * load; the profiler sees CoreLib load; the hook runs before Main; the exit code passes. The
 * trace goes to the default file, COMMAND's base name and the program's pid. */
TEST(launch_profiler_hook_and_trace_together)
{
    scratch_t s;
    app_t a;
    trace_counts_t seen;
    char expect[128], cwd[512], trace[700];
    scratch_init(&s);
    const char *env[] = {s.hook_env, NULL};
    const char *args[] = {"--profiler", profiler_path("hello"), "--startup-hook", CLRA_HOOK_DLL,
                          "--trace", SAMPLE_PROVIDER "," LOADER_PROVIDER, NULL};
    app_options_t o = {.env = env, .stderr_path = s.err};
    app_spawn_launched_with(&a, &o, args);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "the launched app did not start within 30 s");
    const char *log = app_log(&a);
    ASSERT_CONTAINS(log, "Initialize;");
    ASSERT_CONTAINS(log, "ModuleLoadFinished n=1 name=System.Private.CoreLib.dll");
    snprintf(expect, sizeof expect, "end pid=%d call=1\n", (int)a.pid);
    ASSERT_CONTAINS(read_text(s.hook_out), expect);
    ASSERT(app_maps_contains(&a, "libhello_profiler.so"));
    ASSERT_STREQ(app_command(&a, "events 10", 10000), "events-done 10");
    ASSERT(getcwd(cwd, sizeof cwd) != NULL);
    const char *base = strrchr(e2e_dotnet(), '/') ? strrchr(e2e_dotnet(), '/') + 1 : e2e_dotnet();
    snprintf(trace, sizeof trace, "%s/%s-%d.nettrace", cwd, base, (int)a.pid);
    int status = app_stop_with(&a, "exit 42");
    ASSERT(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 42);
    const char *err = read_text(s.err);
    ASSERT_CONTAINS(err, "runs with startup profiler");
    ASSERT_CONTAINS(err, ": valid (NetTrace 4, ");
    read_trace_counts(trace, &seen);
    unlink(trace);
    assert_ticks(&seen, 10);
    ASSERT_EQ(seen.loads_hook, 1);
    ASSERT_EQ(seen.loads_sample, 1);
    scratch_remove(&s);
}

/* A program killed by SIGSEGV before it connected is a crash, not "not a .NET program"
 * (issue 17, messages); the exit code stays 4, "never connected". */
TEST(launch_of_a_program_killed_by_sigsegv_says_it_crashed)
{
    const char *out;
    int rc = run_cli(&out, "launch", "--profiler", profiler_path("hello"), "--timeout", "5000",
                     "--", "/bin/sh", "-c", "kill -SEGV $$", NULL);
    ASSERT_MSG(rc == 4, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "was killed by signal 11");
    ASSERT_MSG(!strstr(out, "not a .NET program"), "%s", out);
}
