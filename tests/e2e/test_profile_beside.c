/* End-to-end, issue 14: `profile` and `stack` beside a main profiler that is already loaded (the
 * detacher test profiler stands in for an APM agent). The sampler loads notification-only,
 * samples as well as alone, and leaves with the main profiler still loaded; should the main
 * profiler detach first, the sampler stays loaded and idle, since .NET 10 crashes the process
 * in a notification-only profiler's detach after a main profiler's detach. */
#define _GNU_SOURCE
#include "bg_cli.h"
#include "harness.h"
#include "hot_app.h"
#include "test.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SAMPLER_SO "libsampler_profiler.so"
#define MAIN_SO "libdetacher_profiler.so"
#define DETACHER_CLSID "E9A0ADA6-5416-4C4C-B96E-4895E33E99FF"
#define BESIDE "the sampler was loaded as notification-only beside the main profiler"
#define SHARE_TOLERANCE 0.08

static void attach_main(app_t *a)
{
    const char *out;
    int rc = run_cli(&out, "attach", "--clsid", DETACHER_CLSID, app_pid_text(a),
                     profiler_path("detacher"), NULL);
    ASSERT_MSG(rc == 0, "attaching the main profiler failed (%d):\n%s", rc, out);
}

TEST(profile_and_stack_beside_a_main_profiler_sample_and_unload_leaving_it_loaded)
{
    app_t a;
    const char *out;
    hot_start(&a, "--only-hot");
    attach_main(&a);
    int rc = run_cli(&out, "profile", "--method", "walk", "--duration", "4", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "profile beside the main profiler failed (%d):\n%s", rc, out);
    ASSERT_CONTAINS(out, BESIDE " (the libclrprof profiler 'detacher'");
    double seventy = top_total(out, "ClrAttach.Hot.Shares.Seventy");
    double thirty = top_total(out, "ClrAttach.Hot.Shares.Thirty");
    ASSERT_MSG(seventy > 0 && thirty > 0, "both methods should be sampled:\n%s", out);
    double share = seventy / (seventy + thirty);
    test_note("beside: Seventy %.2f%%, Thirty %.2f%%: share %.3f", seventy, thirty, share);
    ASSERT_MSG(share > 0.70 - SHARE_TOLERANCE && share < 0.70 + SHARE_TOLERANCE,
               "Seventy's share is %.3f, want 0.70 +- %.2f:\n%s", share, SHARE_TOLERANCE, out);
    ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    ASSERT(app_maps_contains(&a, MAIN_SO));
    ASSERT(kill(a.pid, 0) == 0);

    rc = run_cli(&out, "stack", "--method", "walk", "--json", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "stack beside the main profiler failed (%d):\n%s", rc, out);
    ASSERT_STREQ(json_value(out, "loaded_as"), "notification-only");
    ASSERT_STREQ(json_value(out, "parked"), "false");
    ASSERT_CONTAINS(out, "\"name\":\"hot\",\"frames\":[");
    ASSERT_CONTAINS(out, "ClrAttach.Hot.Shares.Run");
    ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    ASSERT(app_maps_contains(&a, MAIN_SO));

    rc = run_cli(&out, "detach", app_pid_text(&a), NULL); /* the main profiler leaves too */
    ASSERT_MSG(rc == 0, "detaching the main profiler failed (%d):\n%s", rc, out);
    ASSERT(!app_maps_contains(&a, MAIN_SO));
    ASSERT(kill(a.pid, 0) == 0);
    app_stop(&a);
}

TEST(notification_only_on_request_then_as_main_then_refused_beside_once_a_main_detached)
{
    app_t a;
    const char *out;
    hot_start(&a, "--only-hot");
    int rc = run_cli(&out, "profile", "--method", "walk", "--notification-only", "--duration", "2", "--json",
                     app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "profile --notification-only failed (%d):\n%s", rc, out);
    ASSERT_STREQ(json_value(out, "loaded_as"), "notification-only");
    ASSERT_STREQ(json_value(out, "loaded_beside_because"), "--notification-only");
    ASSERT_MSG(atoll(json_value(out, "samples")) > 50, "too few samples:\n%s", out);
    ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    rc = run_cli(&out, "stack", "--method", "walk", "--json", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "stack failed (%d):\n%s", rc, out);
    ASSERT_STREQ(json_value(out, "loaded_as"), "main");
    ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    /* That main sampler's detach marked the process: beside a main profiler now, the
     * sampler's own detach would crash it, so it is not loaded at all. */
    attach_main(&a);
    rc = run_cli(&out, "profile", "--method", "walk", "--duration", "1", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 10, "profile beside a main profiler after a main detach should be "
               "refused (10), not %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, "crashes .NET 10 once a main profiler has detached");
    ASSERT(!app_maps_contains(&a, SAMPLER_SO));
    rc = run_cli(&out, "detach", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "detaching the main profiler failed (%d):\n%s", rc, out);
    ASSERT(kill(a.pid, 0) == 0);
    app_stop(&a);
}

/* The runtime fact this guards against: once the main profiler has detached, a notification-only
 * profiler's RequestProfilerDetach crashes .NET 10 (SIGSEGV). The sampler must stay instead. */
TEST(profile_beside_a_main_profiler_that_detaches_meanwhile_parks_the_sampler_and_the_app_lives)
{
    app_t a;
    bg_t b;
    const char *out;
    hot_start(&a, "--only-hot");
    attach_main(&a);
    bg_start(&b, "profile", "--duration", "4", "--json", app_pid_text(&a), NULL);
    usleep(1500 * 1000);
    int rc = run_cli(&out, "detach", "--clsid", DETACHER_CLSID, app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "detaching the main profiler failed (%d):\n%s", rc, out);
    rc = bg_finish(&b, 30000);
    ASSERT_MSG(rc == 0, "profile failed (%d):\n%s", rc, b.out);
    ASSERT_STREQ(json_value(b.out, "parked"), "true");
    ASSERT_MSG(atoll(json_value(b.out, "samples")) > 50, "too few samples:\n%s", b.out);
    usleep(1000 * 1000); /* a detach on disconnect would have crashed it by now */
    ASSERT_MSG(kill(a.pid, 0) == 0 && app_maps_contains(&a, SAMPLER_SO),
               "the app should live on with the parked sampler loaded");
    /* A parked sampler refuses a detach that would crash the process. */
    rc = run_cli(&out, "detach", app_pid_text(&a), NULL);
    ASSERT_MSG(rc != 0, "detaching the parked sampler should be refused:\n%s", out);
    ASSERT_CONTAINS(out, "the profiler stays loaded");
    usleep(1000 * 1000);
    ASSERT(kill(a.pid, 0) == 0 && app_maps_contains(&a, SAMPLER_SO));
    app_stop(&a);
}
