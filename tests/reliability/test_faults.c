/* test_faults.c - a target frozen (SIGSTOP) or killed (SIGKILL) during each command (ctest
 * label faults): every command ends within its --timeout plus a stated slack, with the exit
 * code its --help documents (7 the deadline passed; 3 no such process or 8 connection lost
 * when the target dies under it). */
#define _GNU_SOURCE
#include "harness.h"
#include "reliability.h"
#include "test.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define SLACK_MS 1000
#define TIMEOUT "1000"
#define TIMEOUT_MS 1000

/* argv of each command against pid (the PID slot filled in), NULL-terminated list. */
typedef struct command {
    const char *name;
    const char *argv[10];
} command_t;

static void commands_for(const app_t *a, command_t *c, int *n)
{
    static char dump_dir[300], trace_out[300];
    const char *pid = app_pid_text(a);
    snprintf(dump_dir, sizeof dump_dir, "%s/core", a->dir);
    snprintf(trace_out, sizeof trace_out, "%s/t.nettrace", a->dir);
    command_t list[] = {
        {"info", {"info", "--timeout", TIMEOUT, pid}},
        {"env", {"env", "--timeout", TIMEOUT, pid}},
        {"setenv", {"setenv", "--timeout", TIMEOUT, pid, "CLRA_FAULT", "1"}},
        {"attach", {"attach", "--timeout", TIMEOUT, pid, profiler_path("hello")}},
        {"startup-hook", {"startup-hook", "--timeout", TIMEOUT, pid, CLRA_HOOK_DLL}},
        {"perfmap", {"perfmap", "--timeout", TIMEOUT, pid, "enable"}},
        {"trace", {"trace", "--providers", "Microsoft-DotNETCore-SampleProfiler", "--duration",
                   "1", "--output", trace_out, "--timeout", TIMEOUT, pid}},
        {"dump", {"dump", "--output", dump_dir, "--timeout", TIMEOUT, pid}},
        {"resume", {"resume", "--timeout", TIMEOUT, pid}},
        {"profile", {"profile", "--duration", "1", "--timeout", TIMEOUT, pid}},
        {"stack", {"stack", "--timeout", TIMEOUT, pid}},
    };
    *n = (int)(sizeof list / sizeof list[0]);
    memcpy(c, list, sizeof list);
}

/* Runs the command, timing it; returns its exit code. */
static int run_timed(const command_t *c, double *took, const char **out)
{
    const char **v = (const char **)c->argv;
    double t0 = rel_now_ms();
    int rc = run_cli(out, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], NULL);
    *took = rel_now_ms() - t0;
    return rc;
}

TEST(every_command_against_a_frozen_target_ends_within_its_deadline_with_exit_7)
{
    app_t a;
    command_t cmds[16];
    int n, overruns = 0;
    double worst = 0;
    app_start(&a, NULL);
    commands_for(&a, cmds, &n);
    app_freeze(&a);
    for (int i = 0; i < n; i++) {
        const char *out;
        double took;
        int rc = run_timed(&cmds[i], &took, &out);
        worst = took - TIMEOUT_MS > worst ? took - TIMEOUT_MS : worst;
        overruns += took > TIMEOUT_MS + SLACK_MS;
        printf("frozen %-13s exit %d in %.0f ms\n", cmds[i].name, rc, took);
        if (rc != 7 || took > TIMEOUT_MS + SLACK_MS) {
            kill(a.pid, SIGCONT);
            ASSERT_MSG(0, "%s on a frozen target: exit %d in %.0f ms (want 7 within %d ms):\n%s",
                       cmds[i].name, rc, took, TIMEOUT_MS + SLACK_MS, out);
        }
    }
    REL_FIGURE("faults.frozen commands=%d timeout_ms=%d worst_overrun_ms=%.0f overruns=%d", n,
               TIMEOUT_MS, worst, overruns);
    kill(a.pid, SIGCONT);
    app_stop(&a);
}

/* The target is SIGKILLed while each command waits on it (frozen first, so the command is
 * surely mid-request): the command ends at once, as no such process (3) or connection lost
 * (8), never waiting out a long deadline. */
TEST(every_command_whose_target_is_killed_mid_request_ends_at_once)
{
    command_t cmds[16];
    int n, slow = 0;
    double worst = 0;
    app_t probe;
    app_start(&probe, NULL);
    commands_for(&probe, cmds, &n);
    app_stop(&probe);
    for (int i = 0; i < n; i++) {
        app_t a;
        const char *out;
        app_start(&a, NULL);
        command_t c;
        int m;
        command_t all[16];
        commands_for(&a, all, &m);
        c = all[i];
        for (int k = 0; k < 10; k++)
            if (c.argv[k] && strcmp(c.argv[k], TIMEOUT) == 0)
                c.argv[k] = "20000"; /* a long deadline: the kill, not it, must end the wait */
        app_freeze(&a);
        pid_t killer = fork();
        ASSERT(killer >= 0);
        if (killer == 0) {
            usleep(300000);
            kill(a.pid, SIGKILL);
            _exit(0);
        }
        double took;
        int rc = run_timed(&c, &took, &out);
        waitpid(killer, NULL, 0);
        waitpid(a.pid, NULL, 0); /* reaped here, so app_stop does not write to a dead app */
        printf("killed %-13s exit %d in %.0f ms\n", c.name, rc, took);
        worst = took > worst ? took : worst;
        slow += took > 300 + SLACK_MS;
        app_stop(&a);
        ASSERT_MSG(rc == 3 || rc == 8, "%s with its target killed: exit %d (want 3 or 8):\n%s",
                   c.name, rc, out);
        ASSERT_MSG(took <= 300 + SLACK_MS, "%s with its target killed after 300 ms took %.0f ms",
                   c.name, took);
    }
    REL_FIGURE("faults.killed commands=%d worst_ms=%.0f slow=%d", n, worst, slow);
}

/* ps with a frozen target: the listing still ends by its --timeout, exit 0, the target listed
 * as not answering in time. */
TEST(ps_with_a_frozen_target_ends_within_its_deadline_listing_it_as_timeout)
{
    app_t a;
    const char *out;
    app_start(&a, NULL);
    app_freeze(&a);
    double t0 = rel_now_ms();
    int rc = run_cli(&out, "ps", "--json", "--timeout", TIMEOUT, NULL);
    double took = rel_now_ms() - t0;
    kill(a.pid, SIGCONT);
    REL_FIGURE("faults.ps_frozen timeout_ms=%d took_ms=%.0f exit=%d", TIMEOUT_MS, took, rc);
    ASSERT_MSG(rc == 0, "ps exit %d: %s", rc, out);
    ASSERT_MSG(took <= TIMEOUT_MS + SLACK_MS, "ps --timeout %s took %.0f ms", TIMEOUT, took);
    const char *row = json_object_where(out, "pid", a.pid);
    ASSERT_MSG(row != NULL, "ps did not list the frozen target %d:\n%s", (int)a.pid, out);
    ASSERT_STREQ(json_value(row, "status"), "timeout");
    app_stop(&a);
}
