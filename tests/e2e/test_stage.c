/* End-to-end: a .NET process in its own PID and mount namespaces (as in a container), attached
 * by its host pid with a path that exists inside it, refused a host-only path, and attached a
 * staged copy; staged copies vanish after a failed attach, a detach or a hold, and a sweep
 * removes exactly the copies nothing maps any more. */
#define _GNU_SOURCE
#include "harness.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOBODY 65534
#define USAGE 2
#define REFUSED 10
#define NO_PROFILER 5
#define NOTIFY_A_CLSID "155EFC5D-1806-4F40-8349-AC7CC6957FC0"

/* Copies the file from into to (mode 0755), failing the test on any error. */
static void copy_file(const char *from, const char *to)
{
    char buf[65536];
    int in = open(from, O_RDONLY | O_CLOEXEC), out = open(to, O_WRONLY | O_CREAT | O_EXCL, 0755);
    ASSERT_MSG(in >= 0 && out >= 0, "copy %s to %s: %s", from, to, strerror(errno));
    ssize_t n;
    while ((n = read(in, buf, sizeof buf)) > 0)
        ASSERT(write(out, buf, (size_t)n) == n);
    ASSERT(n == 0);
    close(in);
    ASSERT(close(out) == 0);
}

/* Removes a directory tree the test made. */
static void remove_tree(const char *dir)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        test_note("could not remove %s", dir);
}

/* How many clrattach-stage-<ns_pid>-* entries dir (as seen from here) holds. */
static int stage_dirs(const char *dir, int ns_pid)
{
    char pattern[400];
    glob_t g;
    snprintf(pattern, sizeof pattern, "%s/clrattach-stage-%d-*", dir, ns_pid);
    int n = glob(pattern, 0, NULL, &g) == 0 ? (int)g.gl_pathc : 0;
    globfree(&g);
    return n;
}

/* Whether path exists (as seen from here). */
static int exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

/* The directory part of path (static buffer). */
static const char *dir_of(const char *path)
{
    static char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    ASSERT(slash != NULL);
    *slash = '\0';
    return dir;
}

/* Makes dir/name with one file in it, as a killed trigger or a stage in progress leaves it. */
static void fake_stage_dir(const char *dir, const char *name, char *out, size_t cap)
{
    char file[600];
    snprintf(out, cap, "%s/%s", dir, name);
    ASSERT(mkdir(out, 0700) == 0);
    snprintf(file, sizeof file, "%s/libgone_profiler.so", out);
    copy_file(profiler_path("hello"), file);
}

/* pid's start time in clock ticks (field 22 of /proc/PID/stat), as stage names carry it. */
static long long start_time(int pid)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    ASSERT(f != NULL);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *p = strrchr(text, ')');
    ASSERT(p != NULL);
    for (int field = 2; field < 22 && p; field++)
        p = strchr(p + 1, ' ');
    ASSERT(p != NULL);
    return atoll(p + 1);
}

/* Attaches a staged copy with --json and returns its staged_path (static buffer). */
static const char *attach_staged(app_t *a, const char *clsid, const char *lib)
{
    static char staged[512];
    const char *out;
    int rc = run_cli(&out, "attach", "--stage", "--json", "--clsid", clsid, app_pid_text(a), lib,
                     NULL);
    ASSERT_MSG(rc == 0, "attach --stage failed with %d:\n%s", rc, out);
    ASSERT_MSG(json_value(out, "staged_path") != NULL, "no staged_path in %s", out);
    snprintf(staged, sizeof staged, "%s", json_value(out, "staged_path"));
    return staged;
}

TEST(namespaced_target_is_attached_by_host_pid_with_a_path_inside_its_tree)
{
    app_t a;
    const char *out;
    app_start_namespaced(&a, 0);
    ASSERT_NE(app_host_pid(&a), a.ready_pid); /* the pid it knows is not the one we use */
    int rc = run_cli(&out, "attach", app_pid_text(&a), profiler_path("hello"), NULL);
    ASSERT_MSG(rc == 0, "attach by host pid failed with %d:\n%s", rc, out);
    app_wait_log(&a, "InitializeForAttach", 10000);
    ASSERT(app_maps_contains(&a, profiler_path("hello")));
    rc = run_cli(&out, "detach", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "detach failed with %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, "detached hello");
    ASSERT(!app_maps_contains(&a, "libhello_profiler.so"));
    app_assert_responsive(&a);
    app_stop(&a);
}

TEST(namespaced_target_refuses_a_host_only_path_and_attaches_a_staged_copy)
{
    app_t a;
    const char *out;
    char host_dir[64] = "/tmp/clra-host-only-XXXXXX", lib[128], inside[600], want[64];
    struct stat sb;
    app_start_namespaced(&a, NOBODY);
    int host = app_host_pid(&a);
    /* Made after the namespace started: the target's private /tmp never sees it. */
    ASSERT(mkdtemp(host_dir) != NULL);
    snprintf(lib, sizeof lib, "%s/libhello_profiler.so", host_dir);
    copy_file(profiler_path("hello"), lib);
    snprintf(inside, sizeof inside, "/proc/%d/root%s", host, lib);
    ASSERT(!exists(inside));

    int rc = run_cli(&out, "attach", app_pid_text(&a), lib, NULL);
    ASSERT_MSG(rc == USAGE, "a host-only path gave exit %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, "does not exist inside its file system (it runs in another mount namespace)");
    ASSERT_CONTAINS(out, "add --stage");
    ASSERT_MSG(!strstr(app_log(&a), "InitializeForAttach"), "the refused path was sent anyway");

    const char *staged = attach_staged(&a, HELLO_CLSID, lib);
    snprintf(want, sizeof want, "/tmp/clrattach-stage-%d-", a.ready_pid);
    ASSERT_MSG(strncmp(staged, want, strlen(want)) == 0, "staged at %s, not under %s", staged, want);
    ASSERT_STREQ(strrchr(staged, '/'), "/libhello_profiler.so");
    app_wait_log(&a, "InitializeForAttach", 10000);
    ASSERT_MSG(app_maps_contains(&a, staged), "maps do not show %s", staged); /* as it sees it */
    snprintf(inside, sizeof inside, "/proc/%d/root%s", host, staged);
    ASSERT(stat(inside, &sb) == 0 && S_ISREG(sb.st_mode));
    ASSERT_EQ(sb.st_mode & 07777, 0500);
    ASSERT_EQ(sb.st_uid, NOBODY);
    ASSERT_EQ(sb.st_gid, NOBODY);
    ASSERT(stat(dir_of(inside), &sb) == 0 && S_ISDIR(sb.st_mode));
    ASSERT_EQ(sb.st_mode & 07777, 0700);
    ASSERT_EQ(sb.st_uid, NOBODY);

    rc = run_cli(&out, "detach", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "detach failed with %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, "removed 1 staged profiler copy");
    ASSERT_MSG(!exists(dir_of(inside)), "%s is still there after the detach", dir_of(inside));
    app_assert_responsive(&a);
    remove_tree(host_dir);
    app_stop(&a);
}

TEST(failed_staged_attach_leaves_no_stage_directory)
{
    app_t a;
    const char *out;
    app_options_t o = {.private_tmpdir = 1}; /* its stage directories land in a.dir */
    app_start_with(&a, &o);
    int rc = run_cli(&out, "attach", "--stage", "--clsid", "11111111-2222-3333-4444-555555555555",
                     app_pid_text(&a), profiler_path("hello"), NULL);
    ASSERT_MSG(rc == REFUSED, "wrong CLSID gave exit %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, "CLASS_E_CLASSNOTAVAILABLE");
    ASSERT_CONTAINS(out, "the staged copy was removed");
    ASSERT_EQ(stage_dirs(a.dir, a.pid), 0);
    rc = run_cli(&out, "attach", "--stage", app_pid_text(&a), CLRA_SAMPLE_DLL, NULL);
    ASSERT_MSG(rc == REFUSED, "a managed assembly as profiler gave exit %d:\n%s", rc, out);
    ASSERT_EQ(stage_dirs(a.dir, a.pid), 0);
    rc = run_cli(&out, "attach", "--stage", app_pid_text(&a), a.dir, NULL);
    ASSERT_MSG(rc == USAGE, "a directory as profiler gave exit %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, "is not a regular file");
    ASSERT_EQ(stage_dirs(a.dir, a.pid), 0);
    app_assert_responsive(&a);
    app_stop(&a);
}

TEST(sweep_removes_unmapped_stage_directories_and_keeps_mapped_and_busy_ones)
{
    app_t a;
    const char *out;
    char left[400], busy[400], other[400], twin[400], name[64], hello[1024], notify[1024];
    app_options_t o = {.private_tmpdir = 1}; /* same namespace: staged paths are ours too */
    app_start_with(&a, &o);
    snprintf(hello, sizeof hello, "%s",
             dir_of(attach_staged(&a, HELLO_CLSID, profiler_path("hello"))));
    app_wait_log(&a, "ProfilerAttachComplete", 10000);
    long long start = start_time(a.pid);
    snprintf(name, sizeof name, "clrattach-stage-%d-%lld-Left0v", (int)a.pid, start); /* a killed trigger's */
    fake_stage_dir(a.dir, name, left, sizeof left);
    snprintf(name, sizeof name, "clrattach-stage-%d-%lld-Busy00", (int)a.pid, start); /* a stage under way */
    fake_stage_dir(a.dir, name, busy, sizeof busy);
    int lock = open(busy, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ASSERT(lock >= 0 && flock(lock, LOCK_EX) == 0);
    snprintf(name, sizeof name, "clrattach-stage-%d-%lld-Other1", (int)a.pid + 1, start); /* not its own */
    fake_stage_dir(a.dir, name, other, sizeof other);
    /* the same pid in another container that shares this /tmp: another start time */
    snprintf(name, sizeof name, "clrattach-stage-%d-%lld-Twin00", (int)a.pid, start + 1);
    fake_stage_dir(a.dir, name, twin, sizeof twin);

    snprintf(notify, sizeof notify, "%s",
             dir_of(attach_staged(&a, NOTIFY_A_CLSID, profiler_path("notify_a"))));
    ASSERT_MSG(!exists(left), "staging did not sweep %s", left);
    ASSERT(exists(hello) && exists(notify) && exists(busy) && exists(other) && exists(twin));

    int rc = run_cli(&out, "detach", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "detach failed with %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, "removed 2 staged profiler copies");
    ASSERT(!exists(hello) && !exists(notify));
    ASSERT_MSG(exists(busy), "the sweep removed a directory whose stage was under way");
    ASSERT(exists(other));

    close(lock); /* the stage "ended" without an attach: now it is litter */
    rc = run_cli(&out, "detach", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == NO_PROFILER, "detach without profilers gave %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, "removed 1 staged profiler copy");
    ASSERT(!exists(busy) && exists(other));
    ASSERT_MSG(exists(twin), "the sweep removed a directory of another process with its pid");
    app_assert_responsive(&a);
    app_stop(&a);
}

TEST(hold_with_stage_removes_the_copy_when_it_ends)
{
    app_t a;
    int fds[2], status;
    char text[2048];
    size_t used = 0;
    app_options_t o = {.private_tmpdir = 1};
    app_start_with(&a, &o);
    ASSERT(pipe2(fds, O_CLOEXEC) == 0);
    pid_t holder = fork();
    ASSERT(holder >= 0);
    if (holder == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        dup2(fds[1], 1);
        execl(CLRA_CLI, "clrattach", "attach", "--hold", "--stage", app_pid_text(&a),
              profiler_path("hello"), (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    text[0] = '\0';
    while (!strstr(text, "holding") && used + 1 < sizeof text) {
        struct pollfd p = {fds[0], POLLIN, 0};
        ASSERT_MSG(poll(&p, 1, 10000) == 1, "the holder printed no 'holding' line: %s", text);
        ssize_t n = read(fds[0], text + used, sizeof text - 1 - used);
        ASSERT_MSG(n > 0, "the holder exited early: %s", text);
        used += (size_t)n;
        text[used] = '\0';
    }
    ASSERT_EQ(stage_dirs(a.dir, a.pid), 1);
    ASSERT(kill(holder, SIGINT) == 0);
    ASSERT(waitpid(holder, &status, 0) == holder);
    for (ssize_t n; used + 1 < sizeof text && (n = read(fds[0], text + used, sizeof text - 1 - used)) > 0;)
        used += (size_t)n;
    text[used] = '\0';
    close(fds[0]);
    ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "holder status %d: %s", status, text);
    ASSERT_CONTAINS(text, "removed 1 staged profiler copy");
    ASSERT_EQ(stage_dirs(a.dir, a.pid), 0);
    ASSERT(!app_maps_contains(&a, "libhello_profiler.so"));
    app_stop(&a);
}
