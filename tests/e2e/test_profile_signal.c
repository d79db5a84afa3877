/* End-to-end: `clrattach profile --method signal` (issue 25) against tests/apps/hot --straight,
 * whose "straight" thread calls a 300-line straight-line method (Straight.Body: no loop, no
 * call, so no safe point inside) in a loop and whose "sleeper" wakes once a second. The walk
 * sampler, which sees threads only at safe points, credits Body's time to its caller; the
 * signal sampler must find Body as the leaf, give the sleeper nothing, and leave no handler,
 * timer or library behind. Against --only-hot right after its start, it must find the callers
 * of Work.Burn while Burn runs on-stack-replacement code. */
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
#define BODY "ClrAttach.Hot.Straight.Body"
#define BURN "ClrAttach.Hot.Work.Burn"
#define SHARE_TOLERANCE 0.08 /* as the walk's 70/30 tests (test_profile_consumers.c) */

/* Of a folded file's samples, the share whose leaf (last frame) is leaf; *total gets the sum. */
static double leaf_share(const char *folded, const char *leaf, long long *total)
{
    long long hit = 0;
    *total = 0;
    for (const char *l = folded; *l;) {
        const char *end = strchr(l, '\n') ? strchr(l, '\n') : l + strlen(l);
        const char *space = memrchr(l, ' ', (size_t)(end - l));
        if (space) {
            long long n = atoll(space + 1);
            const char *semi = memrchr(l, ';', (size_t)(space - l));
            const char *last = semi ? semi + 1 : l;
            *total += n;
            if ((size_t)(space - last) == strlen(leaf) && strncmp(last, leaf, strlen(leaf)) == 0)
                hit += n;
        }
        l = *end ? end + 1 : end;
    }
    return *total ? (double)hit / (double)*total : 0;
}

/* Samples of a --threads folded file under the thread called name. */
static long long thread_samples(const char *folded, const char *name)
{
    char root[64];
    long long n = 0;
    snprintf(root, sizeof root, "[thread %s ", name);
    for (const char *l = folded; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (strncmp(l, root, strlen(root)) == 0)
            n += atoll(strrchr(strndupa(l, (size_t)(strchr(l, '\n') - l)), ' ') + 1);
    return n;
}

/* Runs profile --method METHOD for seconds into a->dir/file (folded); the --json answer. */
static const char *profile(const app_t *a, const char *method, const char *seconds,
                           const char *file, int threads)
{
    const char *out;
    int rc = threads ? run_cli(&out, "profile", "--method", method, "--duration", seconds,
                               "--threads", "--json", "--format", "folded", "--output",
                               out_path(a, file), app_pid_text(a), NULL)
                     : run_cli(&out, "profile", "--method", method, "--duration", seconds,
                               "--json", "--format", "folded", "--output", out_path(a, file),
                               app_pid_text(a), NULL);
    ASSERT_MSG(rc == 0, "profile --method %s failed (%d):\n%s", method, rc, out);
    ASSERT_STREQ(json_value(out, "method"), method);
    return out;
}

TEST(signal_profile_finds_a_straight_line_method_as_the_leaf_of_90_percent_of_samples)
{
    app_t a;
    long long walk_n, signal_n;
    hot_start(&a, "--straight");
    profile(&a, "walk", "3", "walk.folded", 0);
    double walk = leaf_share(slurp(out_path(&a, "walk.folded")), BODY, &walk_n);
    const char *json = profile(&a, "signal", "3", "signal.folded", 0);
    ASSERT_CONTAINS(json_value(json, "sampler"), " method=signal signal=");
    const char *folded = slurp(out_path(&a, "signal.folded"));
    double sig = leaf_share(folded, BODY, &signal_n);
    test_note("Straight.Body as the leaf: signal %.1f%% of %lld samples, walk %.1f%% of %lld",
              100 * sig, signal_n, 100 * walk, walk_n);
    ASSERT_MSG(signal_n >= 30 && sig >= 0.90, "Body is the leaf of %.1f%% of %lld signal "
               "samples, want >= 90%%:\n%s", 100 * sig, signal_n, folded);
    ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    app_stop(&a);
}

TEST(signal_profile_gives_a_thread_that_wakes_once_a_second_no_samples)
{
    app_t a;
    hot_start(&a, "--straight");
    profile(&a, "walk", "4", "walk.folded", 1);
    long long walk_sleeper = thread_samples(slurp(out_path(&a, "walk.folded")), "sleeper");
    profile(&a, "signal", "4", "signal.folded", 1);
    const char *folded = slurp(out_path(&a, "signal.folded"));
    long long busy = thread_samples(folded, "straight");
    long long sleeper = thread_samples(folded, "sleeper");
    test_note("sleeper samples: signal %lld (busy thread %lld), walk %lld", sleeper, busy,
              walk_sleeper);
    ASSERT_MSG(busy >= 30, "the busy thread has %lld signal samples:\n%s", busy, folded);
    ASSERT_MSG(sleeper == 0, "the sleeper has %lld signal samples:\n%s", sleeper, folded);
    app_stop(&a);
}

/* The hot thread's samples through Work.Burn in a --threads folded file: all of them, those
 * under Seventy, under Thirty, and those with Work.Burn twice in a row. */
typedef struct burns {
    long long burn, seventy, thirty, twice;
} burns_t;

static burns_t burn_callers(const char *folded)
{
    burns_t b = {0, 0, 0, 0};
    for (const char *l = folded; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        const char *end = strchr(l, '\n') ? strchr(l, '\n') : l + strlen(l);
        char *line = strndupa(l, (size_t)(end - l)), *space = strrchr(line, ' ');
        if (strncmp(line, "[thread hot ", 12) != 0 || !space || !strstr(line, BURN))
            continue;
        long long n = atoll(space + 1);
        b.burn += n;
        b.seventy += strstr(line, ";ClrAttach.Hot.Shares.Seventy;") ? n : 0;
        b.thirty += strstr(line, ";ClrAttach.Hot.Shares.Thirty;") ? n : 0;
        b.twice += strstr(line, ";" BURN ";" BURN) ? n : 0;
    }
    return b;
}

/* Right after start the hot app's Work.Burn runs as an on-stack-replacement method: its frame
 * pointer chain skips the tier-0 frame and with it Burn's caller (before the gap search of
 * unwind_walk.c, about 90% of samples read Shares.Run;Work.Burn;Work.Burn). The signal walk
 * must give Seventy and Thirty their 70/30 split and Burn no second frame of its own. */
TEST(signal_profile_finds_the_callers_of_a_method_running_on_stack_replacement_code)
{
    app_t a;
    hot_start(&a, "--only-hot");
    profile(&a, "signal", "3", "signal.folded", 1);
    const char *folded = slurp(out_path(&a, "signal.folded"));
    burns_t b = burn_callers(folded);
    double share = b.seventy + b.thirty ? (double)b.seventy / (double)(b.seventy + b.thirty) : 0;
    test_note("hot thread: %lld samples in Burn, Seventy %lld, Thirty %lld (share %.3f), "
              "Burn;Burn %lld", b.burn, b.seventy, b.thirty, share, b.twice);
    ASSERT_MSG(b.burn >= 100, "only %lld samples in Work.Burn:\n%s", b.burn, folded);
    ASSERT_MSG(b.twice == 0, "%lld samples show Work.Burn;Work.Burn:\n%s", b.twice, folded);
    ASSERT_MSG(b.seventy + b.thirty >= b.burn * 8 / 10, "Seventy and Thirty carry %lld of %lld "
               "Burn samples, want >= 80%%:\n%s", b.seventy + b.thirty, b.burn, folded);
    ASSERT_MSG(share > 0.70 - SHARE_TOLERANCE && share < 0.70 + SHARE_TOLERANCE,
               "Seventy's share is %.3f, want 0.70 +- %.2f:\n%s", share, SHARE_TOLERANCE,
               folded);
    app_stop(&a);
}

/* Waits (10 s at most) until the app catches one signal more than before: the sampler's. */
static void wait_for_our_signal(const app_t *a, unsigned long long before)
{
    unsigned long long during = before;
    for (int i = 0; i < 100 && during == before; i++, usleep(100000))
        during = proc_status_field(a->pid, "SigCgt", 16);
    ASSERT_MSG(__builtin_popcountll(during ^ before) == 1 && (during & ~before),
               "SigCgt before %llx, while sampling %llx: want one more signal", before, during);
}

TEST(signal_profile_leaves_no_handler_timer_or_library_and_the_app_runs_on)
{
    app_t a;
    bg_t b;
    const char *out;
    hot_start(&a, "--straight");
    unsigned long long before = proc_status_field(a.pid, "SigCgt", 16);
    bg_start(&b, "profile", "--method", "signal", "--duration", "60", "--format", "folded",
             "--output", out_path(&a, "bg.folded"), app_pid_text(&a), NULL);
    wait_for_our_signal(&a, before);
    sleep(1);
    kill(b.pid, SIGINT);
    int rc = bg_finish(&b, 20000);
    ASSERT_MSG(rc == 0, "profile after Ctrl-C exited %d:\n%s", rc, b.out);
    ASSERT_CONTAINS(slurp(out_path(&a, "bg.folded")), BODY);
    unsigned long long after = proc_status_field(a.pid, "SigCgt", 16);
    ASSERT_MSG(after == before, "SigCgt after the detach %llx, before %llx", after, before);
    ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    ASSERT(kill(a.pid, 0) == 0);
    /* Alive and answering: a second profile attaches, samples and detaches again. */
    rc = run_cli(&out, "profile", "--method", "signal", "--duration", "1", "--format", "folded",
                 app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "a second profile failed (%d):\n%s", rc, out);
    ASSERT_CONTAINS(out, "ClrAttach.Hot.Straight.");
    ASSERT(proc_status_field(a.pid, "SigCgt", 16) == before);
    ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    app_stop(&a);
}

/* The library loaded a second time beside itself would share the handler's one sampler: the
 * second is refused with the way out, and the first samples on and cleans up. */
TEST(a_second_signal_profile_of_the_same_process_is_refused_and_the_first_goes_on)
{
    app_t a;
    bg_t b;
    const char *out;
    hot_start(&a, "--straight");
    unsigned long long before = proc_status_field(a.pid, "SigCgt", 16);
    bg_start(&b, "profile", "--method", "signal", "--duration", "60", "--format", "folded",
             "--output", out_path(&a, "first.folded"), app_pid_text(&a), NULL);
    wait_for_our_signal(&a, before);
    int rc = run_cli(&out, "profile", "--method", "signal", "--duration", "1", app_pid_text(&a),
                     NULL);
    ASSERT_MSG(rc == 10, "the second signal profile exited %d, want 10:\n%s", rc, out);
    ASSERT_CONTAINS(out, "use --method walk");
    kill(b.pid, SIGINT);
    rc = bg_finish(&b, 20000);
    ASSERT_MSG(rc == 0, "the first profile exited %d:\n%s", rc, b.out);
    ASSERT_CONTAINS(slurp(out_path(&a, "first.folded")), BODY);
    ASSERT(proc_status_field(a.pid, "SigCgt", 16) == before);
    ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    app_stop(&a);
}
