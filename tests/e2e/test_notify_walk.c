/* End-to-end, issue 14: may a notification-only profiler stop the runtime and walk stacks while
 * a main profiler is attached? tests/profilers/notify_walk.c tries once and logs each answer. */
#define _GNU_SOURCE
#include "harness.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

#define DETACHER_CLSID "E9A0ADA6-5416-4C4C-B96E-4895E33E99FF"
#define NOTIFY_WALK_CLSID "3D1F8E2A-7C4B-4E5D-A6F9-0B1C2D3E4F51"

static void attach(app_t *a, const char *name, const char *clsid)
{
    const char *out;
    int rc = run_cli(&out, "attach", "--clsid", clsid, app_pid_text(a), profiler_path(name), NULL);
    ASSERT_MSG(rc == 0, "attaching %s failed with exit code %d:\n%s", name, rc, out);
}

TEST(a_notification_only_profiler_suspends_and_walks_beside_a_main_profiler)
{
    app_t a;
    const char *out;
    app_start(&a, NULL);
    attach(&a, "detacher", DETACHER_CLSID);
    attach(&a, "notify_walk", NOTIFY_WALK_CLSID);
    const char *log = app_wait_log(&a, "notify_walk resume", 10000);
    test_note("%s", strstr(log, "notify_walk suspend"));
    ASSERT_CONTAINS(log, "notify_walk suspend hr=0x00000000");
    ASSERT_CONTAINS(log, "notify_walk resume hr=0x00000000");
    const char *walked = strstr(log, "walked=");
    unsigned n = 0, frames = 0;
    ASSERT(walked && sscanf(walked, "walked=%u frames=%u", &n, &frames) == 2);
    ASSERT_MSG(n >= 2 && frames >= 2, "walked %u threads, %u managed frames:\n%s", n, frames, log);
    /* The main thread waits in Console.ReadLine under Main: a walk names managed frames there. */
    app_assert_responsive(&a);
    int rc = run_cli(&out, "detach", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "detaching both failed with %d:\n%s", rc, out);
    app_stop(&a);
}
