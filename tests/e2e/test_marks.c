/* End-to-end, issue 29: the main-detached marks of processes in different pid namespaces that
 * share /dev/shm, and marks planted there by another user. A sampler's detach (main profiler) marks its process and sweeps the marks of
 * gone processes; a sweep in one namespace used to take the marks of live processes in the
 * other (their pids mean nothing there), and the next `profile --notification-only` of the
 * unmarked process crashed it (SIGSEGV in RequestProfilerDetach, .NET 10). */
#define _GNU_SOURCE
#include "common/main_detached_mark.h"
#include "harness.h"
#include "target/procfs.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define REFUSED "crashes .NET 10 once a main profiler has detached"

/* `stack` of the app: the sampler loads as the main profiler and detaches, marking the app. */
static void stack_of(app_t *a)
{
    const char *out;
    int rc = run_cli(&out, "stack", "--json", app_pid_text(a), NULL);
    ASSERT_MSG(rc == 0, "stack of %s failed (%d):\n%s", app_pid_text(a), rc, out);
    ASSERT_STREQ(json_value(out, "loaded_as"), "main");
}

/* `profile --notification-only` must be refused, and the app must live on: a crash in the
 * detach ends it (or, namespaced, its unshare wrapper) shortly after the command. */
static void notification_only_refused(app_t *a)
{
    const char *out;
    int status = 0;
    int rc = run_cli(&out, "profile", "--notification-only", "--duration", "1",
                     app_pid_text(a), NULL);
    usleep(500 * 1000);
    ASSERT_MSG(waitpid(a->pid, &status, WNOHANG) == 0, "the app %s ended (%s %d; its mark "
               "was swept?) after profile --notification-only (%d):\n%s", app_pid_text(a),
               WIFSIGNALED(status) ? "signal" : "exit",
               WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status), rc, out);
    app_assert_responsive(a);
    ASSERT_MSG(rc == 10, "profile --notification-only after a main detach should be refused "
               "(10), not %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, REFUSED);
}

/* Removes the marks of a pid namespace that no sweeper will see again once it is gone. */
static void remove_marks_of(unsigned long long pidns)
{
    char pattern[96];
    glob_t g;
    snprintf(pattern, sizeof pattern, MARK__DIR "/" MARK__PREFIX "%llu.*", pidns);
    if (glob(pattern, 0, NULL, &g) != 0)
        return;
    for (size_t i = 0; i < g.gl_pathc; i++)
        unlink(g.gl_pathv[i]);
    globfree(&g);
}

TEST(main_detached_marks_survive_sweeps_across_pid_namespaces_and_notification_only_is_refused)
{
    static const char *const wrapper[] = {"unshare", "--pid", "--fork", "--mount-proc",
                                          "--kill-child", NULL};
    app_t host, ns;
    char ns_link[64];
    if (geteuid() != 0)
        SKIP("needs root to create a pid namespace (unshare --pid --mount-proc)");
    if (access("/usr/bin/unshare", X_OK) != 0 && access("/bin/unshare", X_OK) != 0)
        SKIP("unshare(1) is not installed");
    app_start(&host, NULL);
    app_options_t o = {.wrapper = wrapper};
    app_start_with(&ns, &o); /* its own /proc: its sweeps check pids there */
    snprintf(ns_link, sizeof ns_link, "/proc/%d/ns/pid", (int)app_host_pid(&ns));
    unsigned long long pidns = mark__pidns(ns_link);
    ASSERT(pidns != 0 && pidns != mark__pidns("/proc/self/ns/pid"));
    test_note("host app %d; namespaced app %d (pid %d in namespace %llu)", (int)host.pid,
              (int)app_host_pid(&ns), ns.ready_pid, pidns);

    stack_of(&host);
    stack_of(&ns);                     /* marks it, sweeping in its namespace */
    notification_only_refused(&host);  /* the host app's mark survived that sweep */
    stack_of(&host);                   /* sweeps on the host */
    notification_only_refused(&ns);    /* the namespaced app's mark survived it */

    app_stop(&ns);
    app_stop(&host);
    remove_marks_of(pidns);
}

/* Leaves an empty file at path owned by nobody (uid 65534), as another user could. */
static void plant_as_nobody(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    ASSERT_MSG(fd >= 0, "cannot plant %s: %s", path, strerror(errno));
    close(fd);
    ASSERT(chown(path, 65534, 65534) == 0);
}

/* Anyone can create files in /dev/shm: a file another user planted at a process's mark name
 * (the first marks' naming or today's) must not refuse notification-only profiling of it. */
TEST(a_mark_planted_by_another_user_does_not_refuse_notification_only_profiling)
{
    app_t a;
    const char *out;
    char old_name[128], name[160], path[192];
    if (geteuid() != 0)
        SKIP("needs root to plant a file owned by nobody (uid 65534)");
    app_start(&a, NULL);
    long long start = clra__procfs_start_time(CLRA__PROC, a.pid);
    mark__id_t id = {mark__pidns("/proc/self/ns/pid"), (unsigned long long)a.pid,
                     (unsigned long long)start};
    ASSERT(start > 0 && mark__name(name, sizeof name, &id, "0000000000000000") == 0);
    snprintf(old_name, sizeof old_name, MARK__DIR "/clrprof-main-detached-%d-%lld",
             (int)a.pid, start);
    snprintf(path, sizeof path, MARK__DIR "/%s", name);
    plant_as_nobody(old_name);
    plant_as_nobody(path);
    int rc = run_cli(&out, "profile", "--notification-only", "--duration", "1", "--json",
                     app_pid_text(&a), NULL);
    unlink(old_name);
    unlink(path);
    ASSERT_MSG(rc == 0, "profile --notification-only was refused for a planted mark (%d):\n%s",
               rc, out);
    ASSERT_STREQ(json_value(out, "loaded_as"), "notification-only");
    app_assert_responsive(&a);
    app_stop(&a);
}
