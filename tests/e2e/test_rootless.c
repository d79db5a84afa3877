/* test_rootless.c - a target in a rootless container: its own user and PID namespaces, made
 * by an unprivileged user (unshare --user --map-root-user as nobody), so host root has no
 * mapping inside and a libclrprof control endpoint sees it as the overflow uid (issue 29 #5).
 * Root must control what it loads there (hold, detach, stack); when it cannot, nothing may be
 * loaded; another unprivileged user may control nothing. */
#define _GNU_SOURCE
#include "bg_cli.h"
#include "harness.h"
#include "test.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define OWNER 65534 /* nobody: makes the container, and is root inside it */
#define STRANGER 12345

/* Starts the sample app as nobody in its own user, PID and mount namespaces (nobody is root
 * there; root of this system is unmapped). Skips when unprivileged user namespaces are off. */
static void start_rootless(app_t *a)
{
    static const char *const wrapper[] = {"unshare", "--user", "--map-root-user", "--pid",
                                          "--fork", "--kill-child", "--mount-proc", NULL};
    if (geteuid() != 0)
        SKIP("needs root: the app runs as nobody and root is the one to control it");
    if (system("setpriv --reuid=65534 --regid=65534 --clear-groups "
               "unshare --user --map-root-user true >/dev/null 2>&1") != 0)
        SKIP("unprivileged user namespaces are not available (unshare --user as nobody failed)");
    /* A TMPDIR of its own: other containers' debris in /tmp (their pid is 1 too) stays apart. */
    app_options_t o = {.wrapper = wrapper, .user = OWNER, .private_tmpdir = 1};
    app_start_with(a, &o);
    app_host_pid(a);
}

/* Runs the CLI with args (NULL-terminated) as root without CAP_SETUID and CAP_SETGID (a
 * restricted container's root): it cannot connect as the owner, so the profiler would refuse
 * it. */
static int run_cli_without_setuid(const char **out, const char *const *args)
{
    const char *argv[16] = {"setpriv", "--bounding-set=-setuid,-setgid", CLRA_CLI};
    for (int i = 3; *args && i < 15; i++)
        argv[i] = *args++;
    return run_program(out, "/usr/bin/setpriv", argv);
}

TEST(rootless_container_root_holds_and_releases_a_profiler)
{
    app_t a;
    bg_t b;
    start_rootless(&a);
    bg_start(&b, "attach", "--hold", app_pid_text(&a), profiler_path("hello"), NULL);
    bg_wait_for(&b, "holding", 15000);
    ASSERT(kill(b.pid, SIGINT) == 0);
    int rc = bg_finish(&b, 15000);
    ASSERT_MSG(rc == 0, "attach --hold: exit %d: %s", rc, b.out);
    ASSERT_CONTAINS(b.out, "unloaded it");
    ASSERT(!app_maps_contains(&a, "libhello_profiler"));
    app_stop(&a);
}

TEST(rootless_container_root_detaches_a_profiler)
{
    app_t a;
    const char *out;
    start_rootless(&a);
    int rc = run_cli(&out, "attach", app_pid_text(&a), profiler_path("hello"), NULL);
    ASSERT_MSG(rc == 0, "attach: exit %d: %s", rc, out);
    rc = run_cli(&out, "detach", "--timeout", "15000", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "detach: exit %d: %s", rc, out);
    ASSERT(!app_maps_contains(&a, "libhello_profiler"));
    app_stop(&a);
}

TEST(rootless_container_root_takes_stacks_and_leaves_no_sampler_mapped)
{
    app_t a;
    const char *out;
    start_rootless(&a);
    int rc = run_cli(&out, "stack", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "stack: exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "thread ");
    ASSERT_MSG(!app_maps_contains(&a, "libsampler_profiler"), "the sampler stayed mapped");
    app_stop(&a);
}

TEST(rootless_container_root_without_setuid_is_refused_before_anything_is_loaded)
{
    app_t a;
    const char *out;
    start_rootless(&a);
    if (access("/usr/bin/setpriv", X_OK) != 0)
        SKIP("setpriv(1) is not installed");
    const char *profile[] = {"profile", "--duration", "1", app_pid_text(&a), NULL};
    int rc = run_cli_without_setuid(&out, profile);
    ASSERT_MSG(rc == 6, "profile: exit %d (want 6): %s", rc, out);
    ASSERT_CONTAINS(out, "nothing was loaded");
    ASSERT_CONTAINS(out, "CAP_SETUID");
    ASSERT_MSG(!app_maps_contains(&a, "libsampler_profiler"), "profile loaded the sampler");
    const char *stack[] = {"stack", app_pid_text(&a), NULL};
    rc = run_cli_without_setuid(&out, stack);
    ASSERT_MSG(rc == 6, "stack: exit %d (want 6): %s", rc, out);
    ASSERT_MSG(!app_maps_contains(&a, "libsampler_profiler"), "stack loaded the sampler");
    const char *hold[] = {"attach", "--hold", app_pid_text(&a), profiler_path("hello"), NULL};
    rc = run_cli_without_setuid(&out, hold);
    ASSERT_MSG(rc == 6, "attach --hold: exit %d (want 6): %s", rc, out);
    ASSERT_MSG(!app_maps_contains(&a, "libhello_profiler"), "attach --hold loaded the profiler");
    app_stop(&a);
}

TEST(rootless_container_owner_controls_its_own_profilers)
{
    app_t a;
    const char *out;
    start_rootless(&a);
    int rc = run_cli_as(OWNER, &out, "stack", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "stack as the owner: exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "thread ");
    ASSERT(!app_maps_contains(&a, "libsampler_profiler"));
    app_stop(&a);
}

TEST(rootless_container_another_user_controls_nothing_there)
{
    app_t a;
    const char *out;
    start_rootless(&a);
    int rc = run_cli(&out, "attach", app_pid_text(&a), profiler_path("hello"), NULL);
    ASSERT_MSG(rc == 0, "attach: exit %d: %s", rc, out);
    rc = run_cli_as(STRANGER, &out, "detach", app_pid_text(&a), NULL);
    ASSERT_MSG(rc != 0, "another user detached the owner's profiler: %s", out);
    ASSERT(app_maps_contains(&a, "libhello_profiler"));
    rc = run_cli_as(STRANGER, &out, "stack", app_pid_text(&a), NULL);
    ASSERT_MSG(rc != 0, "another user took the stacks: %s", out);
    ASSERT(!app_maps_contains(&a, "libsampler_profiler"));
    rc = run_cli(&out, "detach", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "detach by root after: exit %d: %s", rc, out);
    app_stop(&a);
}
