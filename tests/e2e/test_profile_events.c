/* End-to-end: `clrattach profile --mode alloc|lock|exception|wait` against tests/apps/hot
 * --events MODE, whose workloads have known answers (tests/apps/hot/Events.cs): nothing is
 * loaded into the target, the profile comes from the runtime's events and their stacks. */
#define _GNU_SOURCE
#include "harness.h"
#include "hot_app.h"
#include "json_check.h"
#include "runtime.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHARE_TOLERANCE 0.08 /* Allocs.Three's share of the bytes: 0.75 within this */
#define RATE_TOLERANCE 0.10  /* throws counted against Throws.PerSecond x seconds */
#define THROWS_PER_SECOND 200

/* The summed weights of the folded lines whose stack contains part, and of all lines. */
static double folded_weight(const char *folded, const char *part, double *all)
{
    double in = 0;
    *all = 0;
    for (const char *line = folded; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *sp = memrchr(line, ' ', len);
        double w = sp ? strtod(sp + 1, NULL) : 0;
        *all += w;
        if (part && sp && memmem(line, (size_t)(sp - line), part, strlen(part)))
            in += w;
        line = end ? end + 1 : NULL;
    }
    return in;
}

TEST(profile_alloc_mode_splits_the_bytes_3_to_1_between_two_methods_within_8_points)
{
    app_t a;
    const char *out;
    hot_start(&a, "--events alloc");
    const char *folded = out_path(&a, "alloc.folded"), *pb = out_path(&a, "alloc.pb");
    int rc = run_cli(&out, "profile", "--mode", "alloc", "--duration", "3", "--output", folded,
                     app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "profile --mode alloc failed (%d):\n%s", rc, out);
    int sampled = e2e_runtime_at_least(10, 0);
    ASSERT_CONTAINS(out, sampled ? "allocations from AllocationSampled events"
                                 : "allocations from GCAllocationTick events");
    const char *text = slurp(folded);
    double all, three = folded_weight(text, "ClrAttach.Hot.Allocs.Three;System.Byte[]", &all);
    double one = folded_weight(text, "ClrAttach.Hot.Allocs.One;System.Char[]", &all);
    ASSERT_MSG(three > 0 && one > 0, "both methods should allocate their own types:\n%s", text);
    double share = three / (three + one);
    test_note("%s: Three %.0f bytes, One %.0f bytes of %.0f: share %.3f",
              sampled ? "AllocationSampled" : "GCAllocationTick", three, one, all, share);
    ASSERT_MSG(share > 0.75 - SHARE_TOLERANCE && share < 0.75 + SHARE_TOLERANCE,
               "Three's share of the bytes is %.3f, want 0.75 +- %.2f:\n%s", share,
               SHARE_TOLERANCE, text);
    rc = run_cli(&out, "profile", "--mode", "alloc", "--duration", "1", "--output", pb,
                 app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "profile --mode alloc to pprof failed (%d):\n%s", rc, out);
    FILE *f = fopen(pb, "rb");
    char buf[1 << 16];
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    ASSERT_MSG(memmem(buf, n, "alloc_space", 11) && memmem(buf, n, "bytes", 5),
               "the pprof file's sample type should be alloc_space/bytes");
    app_stop(&a);
}

TEST(profile_lock_mode_puts_80_percent_of_the_waited_time_on_the_contended_method)
{
    app_t a;
    const char *out;
    hot_start(&a, "--events lock");
    const char *folded = out_path(&a, "lock.folded");
    int rc = run_cli(&out, "profile", "--mode", "lock", "--duration", "3", "--output", folded,
                     app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "profile --mode lock failed (%d):\n%s", rc, out);
    const char *text = slurp(folded);
    double all, contend = folded_weight(text, "ClrAttach.Hot.Locks.Contend", &all);
    test_note("Contend waited %.1f ms of %.1f ms (%.1f%%)", contend / 1e6, all / 1e6,
              all ? 100 * contend / all : 0);
    ASSERT_MSG(all > 1e8, "four threads on one lock for 3 s should wait far more than 100 ms, "
               "not %.1f ms:\n%s", all / 1e6, text);
    ASSERT_MSG(contend >= 0.80 * all, "Contend carries %.1f%% of the waited time, want >= 80%%:\n%s",
               100 * contend / all, text);
    app_stop(&a);
}

TEST(profile_exception_mode_counts_the_throws_at_their_rate_within_10_percent)
{
    app_t a;
    const char *out;
    hot_start(&a, "--events exception");
    const char *folded = out_path(&a, "throws.folded");
    int rc = run_cli(&out, "profile", "--mode", "exception", "--duration", "3", "--json",
                     "--output", folded, app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "profile --mode exception failed (%d):\n%s", rc, out);
    ASSERT_MSG(json_is_valid(out), "--json should print one JSON document:\n%s", out);
    const char *text = slurp(folded);
    /* Raise's frame, then (on .NET 9+) the runtime's managed dispatcher, then the type. */
    double all, raised = folded_weight(text, "ClrAttach.Hot.Throws.Raise;", &all);
    double typed = folded_weight(text, ";System.InvalidOperationException", &all);
    const char *given = json_value(out, "seconds");
    double seconds = given ? strtod(given, NULL) : -1, want = THROWS_PER_SECOND * seconds;
    test_note("%.0f throws from Raise, %.0f of the type (%.0f in all) in %.2f s; want %.0f",
              raised, typed, all, seconds, want);
    ASSERT_MSG(raised > want * (1 - RATE_TOLERANCE) && raised < want * (1 + RATE_TOLERANCE),
               "%.0f throws counted, want %.0f +- 10%%:\n%s\n%s", raised, want, out, text);
    ASSERT_MSG(typed == raised, "every throw of Raise should have its type on top:\n%s", text);
    ASSERT_CONTAINS(out, "\"types\":[{\"type\":\"System.InvalidOperationException\",\"count\":");
    ASSERT_CONTAINS(out, "\"message\":\"hot test throw\",\"count\":");
    app_stop(&a);
}

TEST(profile_wait_mode_puts_the_known_wait_on_its_method)
{
    e2e_require_runtime(9, 0, "WaitHandleWaitStart/Stop events");
    app_t a;
    const char *out;
    hot_start(&a, "--events wait");
    const char *folded = out_path(&a, "wait.folded");
    int rc = run_cli(&out, "profile", "--mode", "wait", "--duration", "3", "--output", folded,
                     app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "profile --mode wait failed (%d):\n%s", rc, out);
    const char *text = slurp(folded);
    double all, here = folded_weight(text, "ClrAttach.Hot.Waits.Here", &all);
    test_note("Waits.Here waited %.1f ms of %.1f ms", here / 1e6, all / 1e6);
    ASSERT_MSG(here > 2e9, "a thread waiting all the time for 3 s should wait > 2 s in "
               "Waits.Here, not %.1f ms:\n%s", here / 1e6, text);
    ASSERT_MSG(here >= 0.80 * all, "Waits.Here carries %.1f%% of the waited time:\n%s",
               100 * here / all, text);
    app_stop(&a);
}

TEST(profile_wait_mode_refuses_a_runtime_older_than_net_9_and_says_why)
{
    if (e2e_runtime_at_least(9, 0))
        SKIP("the runtime under test (%s) has the wait events; the refusal is for .NET 8",
             e2e_runtime_version());
    app_t a;
    const char *out;
    hot_start(&a, "--events wait");
    int rc = run_cli(&out, "profile", "--mode", "wait", "--duration", "1", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 10, "want exit code 10 (too old), got %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, "too old for --mode wait");
    app_stop(&a);
}
