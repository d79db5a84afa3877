/* test_deadlines.c - a command's --timeout bounds the whole command, whatever the target does
 * (issue 17 #5): frozen targets, many endpoints. The stated slack is one second. */
#define _GNU_SOURCE
#include "harness.h"
#include "test.h"

#include <signal.h>
#include <stdio.h>
#include <time.h>

#define SLACK_MS 1000

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* detach --timeout T on a frozen target with a profiler attached: exit 7 within T + slack. */
static void detach_frozen_within(const char *timeout, double timeout_ms)
{
    app_t a;
    const char *out;
    app_start(&a, NULL);
    int rc = run_cli(&out, "attach", app_pid_text(&a), profiler_path("hello"), NULL);
    ASSERT_MSG(rc == 0, "attach: exit %d: %s", rc, out);
    app_wait_log(&a, "InitializeForAttach", 10000);
    kill(a.pid, SIGSTOP);
    double t0 = now_ms();
    rc = run_cli(&out, "detach", "--timeout", timeout, app_pid_text(&a), NULL);
    double took = now_ms() - t0;
    kill(a.pid, SIGCONT);
    app_stop(&a);
    ASSERT_MSG(rc == 7, "exit %d: %s", rc, out);
    ASSERT_MSG(took <= timeout_ms + SLACK_MS, "detach --timeout %s took %.0f ms", timeout, took);
}

TEST(detach_of_a_frozen_target_ends_within_timeout_500)
{
    detach_frozen_within("500", 500);
}

TEST(detach_of_a_frozen_target_ends_within_timeout_1500)
{
    detach_frozen_within("1500", 1500);
}

/* A staged attach that timed out on a frozen target is still owed: the runtime reads the
 * request once it runs again, so a detach's sweep in between must keep the copy (issue 17 #8). */
TEST(sweep_keeps_a_staged_copy_the_runtime_still_owes_an_attach_for)
{
    app_t a;
    const char *out;
    app_options_t o = {.private_tmpdir = 1};
    app_start_with(&a, &o);
    kill(a.pid, SIGSTOP);
    int rc = run_cli(&out, "attach", "--stage", "--timeout", "2000", app_pid_text(&a),
                     profiler_path("hello"), NULL);
    ASSERT_MSG(rc == 7, "attach to a frozen target: exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "stays");
    run_cli(&out, "detach", "--timeout", "1000", app_pid_text(&a), NULL); /* sweeps */
    kill(a.pid, SIGCONT);
    app_wait_log(&a, "InitializeForAttach", 15000);
    rc = run_cli(&out, "detach", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "detach after the owed attach: exit %d: %s", rc, out);
    app_stop(&a);
}
