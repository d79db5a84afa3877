/* End-to-end: `clrattach profile` and `clrattach stack` against tests/apps/hot, whose threads
 * spend known shares of CPU in known methods. Every profile ends with the sampler unloaded. */
#define _GNU_SOURCE
#include "harness.h"
#include "hot_app.h"
#include "json_check.h"
#include "proc_status.h"
#include "test.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SAMPLER_SO "libsampler_profiler.so"
#define TARGET_EXITED 11
/* The 70/30 thread's Seventy share of Seventy+Thirty, measured by CPU time, within this. */
#define SHARE_TOLERANCE 0.08

TEST(profile_cpu_mode_gives_the_70_30_shares_within_8_points_and_unloads)
{
    app_t a;
    const char *out;
    hot_start(&a, "--only-hot");
    int rc = run_cli(&out, "profile", "--method", "walk", "--duration", "5", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "profile failed (%d):\n%s", rc, out);
    double seventy = top_total(out, "ClrAttach.Hot.Shares.Seventy");
    double thirty = top_total(out, "ClrAttach.Hot.Shares.Thirty");
    ASSERT_MSG(seventy > 0 && thirty > 0, "both methods should be sampled:\n%s", out);
    double share = seventy / (seventy + thirty);
    test_note("Seventy %.2f%%, Thirty %.2f%%: share %.3f", seventy, thirty, share);
    ASSERT_MSG(share > 0.70 - SHARE_TOLERANCE && share < 0.70 + SHARE_TOLERANCE,
               "Seventy's share of the hot thread is %.3f, want 0.70 +- %.2f:\n%s", share,
               SHARE_TOLERANCE, out);
    ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    app_stop(&a);
}

TEST(profile_wall_mode_shows_the_blocked_thread_and_cpu_mode_does_not)
{
    app_t a;
    const char *out;
    hot_start(&a, NULL);
    const char *wall = out_path(&a, "wall.folded"), *cpu = out_path(&a, "cpu.folded");
    int rc = run_cli(&out, "profile", "--method", "walk", "--mode", "wall", "--duration", "2", "--output", wall,
                     app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "wall profile failed (%d):\n%s", rc, out);
    ASSERT_CONTAINS(slurp(wall), "ClrAttach.Hot.Blocking.Wait;System.Threading.Monitor.Wait;[blocked] ");
    rc = run_cli(&out, "profile", "--method", "walk", "--mode", "cpu", "--duration", "2", "--output", cpu,
                 app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "cpu profile failed (%d):\n%s", rc, out);
    ASSERT_CONTAINS(slurp(cpu), "ClrAttach.Hot.Shares.Run");
    ASSERT_MSG(!strstr(slurp(cpu), "Blocking.Wait"), "a thread that never runs was sampled in cpu "
               "mode:\n%s", slurp(cpu));
    ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    app_stop(&a);
}

TEST(stack_names_nested_generic_and_async_frames_and_walks_1000_deep)
{
    app_t a;
    const char *out;
    hot_start(&a, NULL);
    int rc = run_cli(&out, "stack", "--method", "walk", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "stack failed (%d):\n%s", rc, out);
    ASSERT_CONTAINS(out, "\"blocked\":\n    System.Threading.Monitor.Wait\n    ClrAttach.Hot.Blocking.Wait\n");
    ASSERT_CONTAINS(out, "ClrAttach.Hot.Outer+Inner+Gen`1[System.Int32].Spin[System.Int64]");
    int deep = 0;
    for (const char *p = strstr(out, "\"deep\":"); p && (p = strstr(p, "ClrAttach.Hot.Deep.Recurse\n")); p++)
        deep++;
    ASSERT_MSG(deep >= 1000, "the deep thread shows %d Recurse frames, want 1000", deep);
    ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    rc = run_cli(&out, "profile", "--method", "walk", "--mode", "wall", "--duration", "3", "--format", "folded",
                 app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "wall profile failed (%d):\n%s", rc, out);
    ASSERT_CONTAINS(out, "ClrAttach.Hot.AsyncWork+<RunAsync>d__0.MoveNext");
    app_stop(&a);
}

TEST(two_profiles_in_a_row_each_unload_and_count_their_own_samples)
{
    app_t a;
    const char *out;
    hot_start(&a, "--only-hot");
    for (int i = 0; i < 2; i++) {
        const char *path = out_path(&a, i ? "two.folded" : "one.folded");
        long long cpu_before = proc_thread_cpu_ms(a.pid, "hot");
        int rc = run_cli(&out, "profile", "--duration", "2", "--output", path, "--json",
                         app_pid_text(&a), NULL);
        ASSERT_MSG(rc == 0, "profile %d failed (%d):\n%s", i + 1, rc, out);
        /* cpu mode samples the CPU the thread got: 99 a second of it, less what a loaded
         * machine took away */
        long long want = (proc_thread_cpu_ms(a.pid, "hot") - cpu_before) * 99 / 1000;
        long long samples = atoll(json_value(out, "samples"));
        long long folded = 0;
        for (const char *l = slurp(path); *l; l = strchr(l, '\n') + 1)
            folded += atoll(strrchr(strndupa(l, (size_t)(strchr(l, '\n') - l)), ' ') + 1);
        ASSERT_MSG(samples >= 5 && samples * 2 >= want && folded == samples, "profile %d: %lld "
                   "samples reported, %lld in the folded file, %lld for the hot thread's CPU",
                   i + 1, samples, folded, want);
        /* The sampler's statistics of the last drain outlive the session (they were wiped). */
        ASSERT_CONTAINS(json_value(out, "sampler"), "mode=cpu hz=99 ticks=");
        ASSERT_CONTAINS(json_value(out, "sampler"), " suspensions=");
        ASSERT_STREQ(json_value(out, "dropped"), "0");
        ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    }
    app_stop(&a);
}

/* The runtime unloads a detached profiler once every thread has left it and its callbacks
 * have drained; the sampler hints how long that takes (detach_expected_ms). Wall mode over
 * deep stacks is where a tick caught by the detach used to leave the runtime suspended. */
TEST(wall_profiles_unload_within_twice_the_detach_hint)
{
    app_t a;
    const char *out;
    hot_start(&a, NULL);
    for (int i = 0; i < 3; i++) {
        int rc = run_cli(&out, "profile", "--method", "walk", "--mode", "wall", "--duration", "1", "--format",
                         "folded", "--output", out_path(&a, "hint.folded"), "--json",
                         app_pid_text(&a), NULL);
        ASSERT_MSG(rc == 0, "wall profile %d failed (%d):\n%s", i + 1, rc, out);
        long long hint = atoll(json_value(out, "detach_expected_ms"));
        long long unload = atoll(json_value(out, "unload_ms"));
        ASSERT_MSG(hint > 0 && unload >= 0 && unload <= 2 * hint + 1500,
                   "profile %d: unloaded after %lld ms, hint %lld ms:\n%s", i + 1, unload,
                   hint, out);
        ASSERT(!app_maps_contains(&a, SAMPLER_SO));
        /* The sampler's statistics outlive the session (they were once wiped before the report). */
        const char *stats = json_value(out, "sampler");
        ASSERT_MSG(stats && strstr(stats, "mode=wall") && !strstr(stats, " suspensions=0 "),
                   "profile %d: sampler statistics '%s'", i + 1, stats ? stats : "(none)");
    }
    app_stop(&a);
}

/* Starts `clrattach profile ARGS... PID` in the background; its output goes to log. */
static pid_t profile_in_background(const app_t *a, const char *log, const char *output)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 1);
        dup2(fd, 2);
        execl(CLRA_CLI, CLRA_CLI, "profile", "--method", "walk", "--duration", "60", "--output", output,
              app_pid_text(a), (char *)NULL);
        _exit(127);
    }
    return pid;
}

static int wait_exit(pid_t pid, int timeout_ms)
{
    int status = 0;
    for (int i = 0; i < timeout_ms / 10; i++) {
        if (waitpid(pid, &status, WNOHANG) == pid)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        usleep(10000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

TEST(profile_ctrl_c_stops_early_writes_the_samples_and_unloads)
{
    app_t a;
    hot_start(&a, "--only-hot");
    const char *log = out_path(&a, "log"), *folded = out_path(&a, "int.folded");
    pid_t cli = profile_in_background(&a, log, folded);
    sleep(3);
    ASSERT(app_maps_contains(&a, SAMPLER_SO));
    kill(cli, SIGINT);
    int rc = wait_exit(cli, 15000);
    ASSERT_MSG(rc == 0, "profile after Ctrl-C exited %d:\n%s", rc, slurp(log));
    ASSERT_CONTAINS(slurp(folded), "ClrAttach.Hot.Shares.Seventy");
    ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    app_stop(&a);
}

TEST(profile_of_a_target_that_exits_writes_what_was_gathered_and_says_so)
{
    app_t a;
    hot_start(&a, "--only-hot");
    const char *log = out_path(&a, "log"), *folded = out_path(&a, "exit.folded");
    pid_t cli = profile_in_background(&a, log, folded);
    sleep(3);
    ASSERT(write(a.to_app, "exit\n", 5) == 5);
    int rc = wait_exit(cli, 20000);
    ASSERT_MSG(rc == TARGET_EXITED, "profile of an exiting target exited %d, want %d:\n%s", rc,
               TARGET_EXITED, slurp(log));
    ASSERT_CONTAINS(slurp(log), "exited while sampled");
    ASSERT_CONTAINS(slurp(folded), "ClrAttach.Hot.Shares.Seventy");
    app_stop(&a);
}

/* With --json and no --output, stdout is the one JSON object and nothing else: the top table
 * goes inside it as "profile" (it was printed before the object). Stderr is left out. */
TEST(profile_json_without_output_puts_one_json_document_on_stdout)
{
    app_t a;
    char command[512], text[16384];
    hot_start(&a, "--only-hot");
    snprintf(command, sizeof command, "'%s' profile --duration 1 --json %s 2>/dev/null",
             CLRA_CLI, app_pid_text(&a));
    FILE *p = popen(command, "r");
    ASSERT(p != NULL);
    size_t n = fread(text, 1, sizeof text - 1, p);
    text[n] = '\0';
    int status = pclose(p);
    app_stop(&a);
    ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d: %s", status, text);
    ASSERT_MSG(json_is_valid(text), "stdout is not one JSON document:\n%s", text);
    ASSERT_CONTAINS(json_value(text, "profile"), "self%");
    ASSERT_CONTAINS(text, "ClrAttach.Hot.Work.Burn");
}
