/* End-to-end: `clrattach launch --profile FILE` runs the sample app with clrattach's sampler as
 * its startup profiler and writes the profile once the app has ended: the app spins on
 * command ("spin N" burns N ms in ClrAttach.Sample.Hot.Spin), and the profile must hold it. */
#define _GNU_SOURCE
#include "bg_cli.h"
#include "harness.h"
#include "proc_status.h"
#include "test.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SPIN_FRAME "ClrAttach.Sample.Hot.Spin"

/* A directory of the test's own (app_stop removes the app's). */
typedef struct scratch {
    char dir[64], profile[128], err[128];
} scratch_t;

static void scratch_init(scratch_t *s, const char *profile_name)
{
    snprintf(s->dir, sizeof s->dir, "/tmp/clra-lprof-XXXXXX");
    ASSERT(mkdtemp(s->dir) != NULL);
    snprintf(s->profile, sizeof s->profile, "%s/%s", s->dir, profile_name);
    snprintf(s->err, sizeof s->err, "%s/launch.err", s->dir);
}

static void scratch_remove(const scratch_t *s)
{
    remove_dir(s->dir);
}

/* A file's text (static buffer; "" when absent). */
static const char *read_text(const char *path)
{
    static char text[1 << 20];
    text[0] = '\0';
    FILE *f = fopen(path, "r");
    if (f) {
        text[fread(text, 1, sizeof text - 1, f)] = '\0';
        fclose(f);
    }
    return text;
}

/* The samples of the folded lines whose stack contains frame. */
static long long folded_count(const char *folded, const char *frame)
{
    long long total = 0;
    for (const char *line = folded; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *space = memrchr(line, ' ', len);
        const char *hit = memmem(line, len, frame, strlen(frame));
        if (space && hit && hit < space)
            total += atoll(space + 1);
        line = end ? end + 1 : line + len;
    }
    return total;
}

static void launch_profiled(app_t *a, const scratch_t *s, const char *mode)
{
    const char *args[] = {"--profile", s->profile, "--profile-mode", mode, NULL};
    app_options_t o = {.stderr_path = s->err};
    app_spawn_launched_with(a, &o, args);
    ASSERT_MSG(app_wait_ready(a, 30000) == 0, "the launched app did not start within 30 s:\n%s",
               read_text(s->err));
}

TEST(launch_profile_samples_from_startup_and_writes_the_last_samples_at_exit)
{
    app_t a;
    scratch_t s;
    scratch_init(&s, "startup.folded");
    launch_profiled(&a, &s, "cpu");
    long long cpu_before = proc_thread_cpu_ms(a.pid, NULL);
    ASSERT_CONTAINS(app_command(&a, "spin 1500", 20000), "spun 1500");
    long long want = (proc_thread_cpu_ms(a.pid, NULL) - cpu_before) * 99 / 1000;
    int status = app_stop_with(&a, "exit 0"); /* Main returns: the runtime calls Shutdown */
    const char *err = read_text(s.err);
    ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "launch ended with status 0x%x:\n%s",
               (unsigned)status, err);
    ASSERT_CONTAINS(err, "clrattach launch: profile: ");
    ASSERT_MSG(!strstr(err, "missing") && !strstr(err, "warning"), "the sampler's exit samples "
               "or its drains were lost:\n%s", err);
    const char *folded = read_text(s.profile);
    long long spin = folded_count(folded, SPIN_FRAME);
    test_note("%lld samples in %s, %lld for the CPU the spin got", spin, SPIN_FRAME, want);
    /* 1.5 s of one spinning thread at 99 Hz is ~148 samples of an idle machine's CPU; a loaded
     * machine gives the thread less, and cpu mode samples what it got */
    ASSERT_MSG(spin >= 5 && spin * 10 >= want * 7, "%lld samples in %s, want at least 70%% of %lld:"
               "\n%.2000s", spin, SPIN_FRAME, want, folded);
    ASSERT_CONTAINS(folded, "ClrAttach.Sample.Program.Main;");
    scratch_remove(&s);
}

TEST(launch_profile_drains_before_passing_a_signal_on_in_wall_mode)
{
    app_t a;
    scratch_t s;
    scratch_init(&s, "wall.json");
    launch_profiled(&a, &s, "wall");
    ASSERT_CONTAINS(app_command(&a, "spin 500", 20000), "spun 500");
    usleep(300000);
    ASSERT(kill(a.launcher, SIGINT) == 0); /* launch alone, not the app: launch passes it on */
    int status = 0;
    pid_t done = 0;
    for (int i = 0; i < 1000 && done == 0; i++, usleep(10000))
        done = waitpid(a.launcher, &status, WNOHANG);
    app_stop_with(&a, "ping"); /* cleanup only: the launcher is reaped, nothing is written */
    const char *err = read_text(s.err);
    ASSERT_MSG(done == a.launcher, "launch did not end within 10 s of SIGINT:\n%s", err);
    ASSERT_MSG(WIFEXITED(status), "launch ended with status 0x%x:\n%s", (unsigned)status, err);
    ASSERT_CONTAINS(err, "draining the sampler, then passing the signal on");
    ASSERT_CONTAINS(err, "clrattach launch: profile: ");
    const char *json = read_text(s.profile);
    ASSERT_CONTAINS(json, "speedscope");
    ASSERT_CONTAINS(json, SPIN_FRAME);
    ASSERT_CONTAINS(json, "[blocked]"); /* the main thread waiting on stdin, in wall mode */
    scratch_remove(&s);
}

TEST(launch_profile_killed_launch_leaves_no_sampler_behind)
{
    app_t a;
    scratch_t s;
    scratch_init(&s, "killed.folded");
    launch_profiled(&a, &s, "cpu");
    /* launch holds the endpoint a moment after the library maps (before that, a startup
     * sampler has no hold timer: the SDK starts it at ProfilerAttachComplete only). */
    app_wait_log(&a, "held by a trigger", 10000);
    ASSERT(kill(a.launcher, SIGKILL) == 0); /* its hold on the endpoint hangs up */
    app_wait_unmapped(&a, "libsampler_profiler.so", 10000);
    app_assert_responsive(&a);
    const char *exit_line = "exit 0\n";
    ASSERT(write(a.to_app, exit_line, strlen(exit_line)) == (ssize_t)strlen(exit_line));
    app_stop(&a); /* reaps the killed launcher; the app ends by itself on "exit 0" */
    scratch_remove(&s);
}

TEST(launch_profile_refuses_a_second_profiler_and_an_unknown_extension)
{
    const char *out;
    int rc = run_cli(&out, "launch", "--profile", "/tmp/x.folded", "--profiler",
                     profiler_path("hello"), "--", "true", NULL);
    ASSERT_MSG(rc == 2, "exit %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, "cannot be combined with --profiler or --data");
    rc = run_cli(&out, "launch", "--profile", "/tmp/clra-profile.unknown", "--", "true", NULL);
    ASSERT_MSG(rc == 2, "exit %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, "cannot tell the profile format");
    rc = run_cli(&out, "launch", "--profile-hz", "50", "--trace", "Microsoft-Windows-DotNETRuntime",
                 "--", "true", NULL);
    ASSERT_MSG(rc == 2, "exit %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, "need --profile FILE");
    /* FILE is created before COMMAND starts: a bad path stops launch with nothing run. */
    rc = run_cli(&out, "launch", "--profile", "/nonexistent/dir/p.folded", "--", "/bin/sh", "-c",
                 "echo ran", NULL);
    ASSERT_MSG(rc == 2, "exit %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, "/nonexistent/dir/p.folded");
    ASSERT_MSG(!strstr(out, "ran"), "COMMAND ran:\n%s", out);
}

/* Issue 14: a startup-loaded sampler that nobody drains (launch died before it held the
 * endpoint; here a plain launch --profiler, which never drains) detaches itself after
 * startup_hold_ms instead of sampling until the program exits. */
TEST(a_startup_sampler_nobody_drains_detaches_itself_after_startup_hold_ms)
{
    app_t a;
    const char *args[] = {"--profiler", profiler_path("sampler"), "--clsid",
                          "8A3C5B1E-6F0D-4C2A-9E57-2D4F1B3A6C90", "--data",
                          "mode=cpu;startup_hold_ms=1500", NULL};
    app_spawn_launched(&a, NULL, args);
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "the launched app did not start within 30 s");
    double t0 = now_ms();
    app_wait_unmapped(&a, "libsampler_profiler.so", 15000);
    test_note("the startup sampler was unmapped %.0f ms after ready", now_ms() - t0);
    ASSERT_CONTAINS(app_log(&a), "sampler: not drained within the startup hold; detach hr=0x00000000");
    ASSERT_CONTAINS(app_log(&a), "ProfilerDetachSucceeded");
    app_assert_responsive(&a);
    app_stop(&a);
}
