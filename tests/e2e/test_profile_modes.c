/* End-to-end: the signal sampler's modes and hazards (issue 25) against tests/apps/hot --modes
 * (Modes.cs): a 3:1 CPU split, 1,000-deep recursion, exceptions in a loop, threads starting
 * and ending, a sleeping thread beside a busy one in wall mode, `stack` by signal, and a target
 * that exits mid-profile. After every detach the app runs on, no timer of ours is left and its
 * signal disposition is what it was (SigCgt). */
#define _GNU_SOURCE
#include "bg_cli.h"
#include "harness.h"
#include "hot_app.h"
#include "json_check.h"
#include "proc_status.h"
#include "test.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SAMPLER_SO "libsampler_profiler.so"
#define TARGET_EXITED 11

/* POSIX timers of the app (/proc/PID/timers: one "ID:" line each), -1 when unreadable. */
static int timers(const app_t *a)
{
    return (int)proc_lines(a->pid, "timers", "ID:");
}

/* Sums the counts of a --threads folded file's lines under thread name that contain frame
 * (NULL: any) and, if leaf_blocked, end in [blocked]. */
static long long count(const char *folded, const char *name, const char *frame, int blocked)
{
    char root[64];
    long long n = 0;
    snprintf(root, sizeof root, "[thread %s ", name);
    for (const char *l = folded; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        const char *end = strchr(l, '\n') ? strchr(l, '\n') : l + strlen(l);
        char *line = strndupa(l, (size_t)(end - l));
        char *space = strrchr(line, ' ');
        if (strncmp(line, root, strlen(root)) != 0 || !space)
            continue;
        *space = '\0';
        int is_blocked = strlen(line) >= 10 && strcmp(line + strlen(line) - 10, ";[blocked]") == 0;
        if ((!frame || strstr(line, frame)) && (blocked < 0 || blocked == is_blocked))
            n += atoll(space + 1);
    }
    return n;
}

/* The number after " key=" in the sampler's statistics line, -1 when absent. */
static long long info_number(const char *info, const char *key)
{
    char pat[32];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *at = info ? strstr(info, pat) : NULL;
    return at ? atoll(at + strlen(pat)) : -1;
}

/* The deepest line of thread name, in frames. */
static int deepest(const char *folded, const char *name)
{
    char root[64];
    int most = 0;
    snprintf(root, sizeof root, "[thread %s ", name);
    for (const char *l = folded; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        const char *end = strchr(l, '\n') ? strchr(l, '\n') : l + strlen(l);
        int n = 0;
        if (strncmp(l, root, strlen(root)) != 0)
            continue;
        for (const char *c = l; c < end; c++)
            n += *c == ';';
        most = n > most ? n : most;
    }
    return most;
}

/* After a detach: the app alive, our library gone, no timer more than before, SigCgt as before. */
static void assert_clean(app_t *a, unsigned long long caught, int timers_before)
{
    ASSERT(kill(a->pid, 0) == 0);
    app_wait_unmapped(a, SAMPLER_SO, 5000);
    unsigned long long now = proc_status_field(a->pid, "SigCgt", 16);
    ASSERT_MSG(now == caught, "SigCgt after the detach %llx, before %llx", now, caught);
    if (timers_before >= 0)
        ASSERT_MSG(timers(a) == timers_before, "%d POSIX timers after the detach, %d before",
                   timers(a), timers_before);
}

TEST(signal_cpu_profile_finds_a_3_to_1_split_bounds_deep_stacks_and_survives_throws_and_churn)
{
    app_t a;
    bg_t b;
    hot_start(&a, "--modes");
    unsigned long long caught = proc_status_field(a.pid, "SigCgt", 16);
    int before = timers(&a), most_timers = 0, most_threads = 0;
    bg_start(&b, "profile", "--duration", "3", "--hz", "499", "--threads", "--json", "--format", "folded",
             "--output", out_path(&a, "cpu.folded"), app_pid_text(&a), NULL);
    double t0 = now_ms();
    while (now_ms() - t0 < 2800 && kill(b.pid, 0) == 0) { /* timers follow the threads */
        int t = timers(&a), threads = (int)proc_status_field(a.pid, "Threads", 10);
        most_timers = t > most_timers ? t : most_timers;
        most_threads = threads > most_threads ? threads : most_threads;
        usleep(50000);
    }
    int rc = bg_finish(&b, 20000);
    ASSERT_MSG(rc == 0, "profile exited %d:\n%s", rc, b.out);
    ASSERT_STREQ(json_value(b.out, "method"), "signal");
    const char *folded = slurp(out_path(&a, "cpu.folded"));
    long long three = count(folded, "split", "Modes.Three", -1);
    long long one = count(folded, "split", "Modes.One", -1);
    double share = three + one ? 100.0 * (double)three / (double)(three + one) : 0;
    int depth = deepest(folded, "deep");
    long long thrower = count(folded, "thrower", "Modes.Throw", -1);
    test_note("split: Three %.1f%% of %lld (want 75 +- 5); deep: %d frames; thrower: %lld; "
              "timers at most %d for at most %d threads (%d before)", share, three + one, depth,
              thrower, most_timers, most_threads, before);
    ASSERT_MSG(three + one >= 60 && share >= 70 && share <= 80, "Three has %.1f%% of %lld:\n%s",
               share, three + one, folded);
    ASSERT_MSG(depth >= 100 && depth <= 131, "deepest deep stack %d frames:\n%s", depth, folded);
    ASSERT_CONTAINS(folded, "[thread deep ");
    ASSERT_MSG(thrower >= 1, "no thrower samples:\n%s", folded);
    if (before >= 0)
        ASSERT_MSG(most_timers - before <= most_threads, "%d timers for %d threads",
                   most_timers - before, most_threads);
    assert_clean(&a, caught, before);
    app_stop(&a);
}

TEST(signal_wall_profile_marks_a_sleeping_thread_blocked_and_a_busy_one_running)
{
    app_t a;
    const char *out;
    hot_start(&a, "--modes");
    unsigned long long caught = proc_status_field(a.pid, "SigCgt", 16);
    int before = timers(&a);
    int rc = run_cli(&out, "profile", "--mode", "wall", "--duration", "2", "--threads", "--json",
                     "--format", "folded", "--output", out_path(&a, "wall.folded"),
                     app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "profile --mode wall exited %d:\n%s", rc, out);
    ASSERT_STREQ(json_value(out, "method"), "signal");
    const char *folded = slurp(out_path(&a, "wall.folded"));
    long long nap = count(folded, "napper", NULL, -1), nap_blocked = count(folded, "napper", NULL, 1);
    long long busy = count(folded, "split", NULL, -1), busy_blocked = count(folded, "split", NULL, 1);
    long long wait_long = count(folded, "turns", "Modes.NapLong", 1);
    long long wait_short = count(folded, "turns", "Modes.NapShort", 1);
    long long waits = wait_long + wait_short;
    double long_share = waits ? (double)wait_long / (double)waits : 0;
    const char *info = json_value(out, "sampler");
    long long samples = info_number(info, "samples"), queued = info_number(info, "queued");
    long long repeated = info_number(info, "repeated");
    test_note("napper %lld samples, %lld blocked; split %lld, %lld blocked; turns NapLong %lld, "
              "NapShort %lld; %lld samples, %lld signals, %lld stored again unwoken", nap,
              nap_blocked, busy, busy_blocked, wait_long, wait_short, samples, queued, repeated);
    /* 2 s at 99 Hz is 198 ticks; with more than 16 threads each is visited every other tick */
    ASSERT_MSG(nap >= 40 && nap <= 260 && busy >= 40 && busy <= 260, "napper %lld, split %lld "
               "samples:\n%s", nap, busy, folded);
    ASSERT_MSG(nap_blocked * 10 >= nap * 9, "napper blocked in %lld of %lld", nap_blocked, nap);
    ASSERT_MSG(busy_blocked * 10 <= busy, "split blocked in %lld of %lld", busy_blocked, busy);
    /* a waiting thread not woken for every sample still shows where it waits, each wait in
     * its share of the time (75:25) */
    ASSERT_MSG(waits >= 40 && long_share > 0.65 && long_share < 0.85,
               "turns: NapLong %lld, NapShort %lld blocked samples, want 3:1", wait_long,
               wait_short);
    ASSERT_MSG(repeated > 0 && queued + repeated >= samples && queued < samples,
               "%lld samples from %lld signals and %lld repeats: every waiting thread woken",
               samples, queued, repeated);
    assert_clean(&a, caught, before);
    app_stop(&a);
}

TEST(stack_by_signal_shows_every_thread_where_it_is_and_detaches_clean)
{
    app_t a;
    const char *out;
    hot_start(&a, "--modes");
    unsigned long long caught = proc_status_field(a.pid, "SigCgt", 16);
    int before = timers(&a);
    int rc = run_cli(&out, "stack", "--json", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "stack exited %d:\n%s", rc, out);
    ASSERT_STREQ(json_value(out, "method"), "signal");
    ASSERT_CONTAINS(out, "\"name\":\"split\"");
    ASSERT_CONTAINS(out, "\"name\":\"napper\"");
    ASSERT_CONTAINS(out, "\"ClrAttach.Hot.Modes."); /* split, in Three or One */
    assert_clean(&a, caught, before);
    rc = run_cli(&out, "stack", "--method", "walk", "--json", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "stack --method walk exited %d:\n%s", rc, out);
    ASSERT_STREQ(json_value(out, "method"), "walk");
    app_stop(&a);
}

TEST(signal_profile_of_a_target_that_exits_mid_profile_writes_what_it_gathered)
{
    app_t a;
    bg_t b;
    hot_start(&a, "--modes");
    bg_start(&b, "profile", "--duration", "20", "--format", "folded", "--output",
             out_path(&a, "exit.folded"), app_pid_text(&a), NULL);
    sleep(2);
    ASSERT(write(a.to_app, "exit\n", 5) == 5);
    int rc = bg_finish(&b, 20000);
    ASSERT_MSG(rc == TARGET_EXITED, "profile of an exiting target exited %d, want %d:\n%s", rc,
               TARGET_EXITED, b.out);
    ASSERT_CONTAINS(b.out, "exited while sampled");
    ASSERT_CONTAINS(slurp(out_path(&a, "exit.folded")), "ClrAttach.Hot.Modes.");
    app_stop(&a);
}

/* Without --method the sampler samples by signal, or by walk when it cannot: here a second
 * profile beside a running signal profile (one signal sampler per process) falls back and
 * says so, where --method signal is refused (test_profile_signal.c). */
TEST(default_method_falls_back_to_walk_when_a_signal_sampler_already_runs_and_says_why)
{
    app_t a;
    bg_t b;
    const char *out;
    hot_start(&a, "--modes");
    unsigned long long caught = proc_status_field(a.pid, "SigCgt", 16);
    bg_start(&b, "profile", "--duration", "60", "--format", "folded", "--output",
             out_path(&a, "first.folded"), app_pid_text(&a), NULL);
    for (int i = 0; i < 100 && proc_status_field(a.pid, "SigCgt", 16) == caught; i++)
        usleep(100000);
    int rc = run_cli(&out, "profile", "--duration", "1", "--json", "--format", "folded",
                     "--output", out_path(&a, "second.folded"), app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "the second profile exited %d:\n%s", rc, out);
    ASSERT_STREQ(json_value(out, "method"), "walk");
    ASSERT_STREQ(json_value(out, "fallback_reason"), "signal_sampler_running");
    rc = run_cli(&out, "profile", "--duration", "1", "--format", "folded", "--output",
                 out_path(&a, "third.folded"), app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "the third profile exited %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, "sampled by walk (safe points only), not by signal: another signal "
                         "sampler runs in the target");
    kill(b.pid, SIGINT);
    rc = bg_finish(&b, 20000);
    ASSERT_MSG(rc == 0, "the first profile exited %d:\n%s", rc, b.out);
    assert_clean(&a, caught, -1);
    app_stop(&a);
}
