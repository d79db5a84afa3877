/* End-to-end: `clrattach ps` against real .NET 10 processes: a target with its own TMPDIR, one
 * killed with its socket left behind, a non-.NET process with sockets named for it, a target in
 * its own PID and mount namespace, and a target seen by another user. */
#define _GNU_SOURCE
#include "harness.h"
#include "test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NOBODY 65534

/* The ps --json row of pid (static buffer), or NULL when ps did not list it. */
static const char *ps_row(const char *json, int pid)
{
    return json_object_where(json, "pid", pid);
}

/* Whether the "stale_sockets" array of ps --json names path. */
static int ps_stale_has(const char *json, const char *path)
{
    char quoted[600];
    const char *stale = strstr(json, "\"stale_sockets\":[");
    snprintf(quoted, sizeof quoted, "\"%s\"", path);
    return stale && strstr(stale, quoted) != NULL;
}

/* The app's diagnostics socket as `info` finds it (static buffer). */
static const char *socket_of(int pid)
{
    static char path[512];
    const char *out;
    char text[16];
    snprintf(text, sizeof text, "%d", pid);
    ASSERT_MSG(run_cli(&out, "info", "--json", text, NULL) == 0, "info failed: %s", out);
    snprintf(path, sizeof path, "%s", json_value(out, "endpoint"));
    return path;
}

/* Leaves a socket file nobody listens on, as a SIGKILLed runtime does. */
static void stale_socket(const char *path)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_MSG(bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0, "bind %s: %s", path,
               strerror(errno));
    close(fd);
}

/* Field 22 (start time) of /proc/PID/stat: the key a runtime would put in its socket name. */
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

TEST(ps_finds_a_target_with_its_own_tmpdir)
{
    app_t a;
    const char *out;
    glob_t g;
    char pattern[400];
    app_options_t o = {.private_tmpdir = 1};
    app_start_with(&a, &o);
    /* The runtime really put its socket in the private TMPDIR, not where ps runs. */
    snprintf(pattern, sizeof pattern, "%s/dotnet-diagnostic-%d-*-socket", a.dir, a.pid);
    ASSERT_MSG(glob(pattern, 0, NULL, &g) == 0, "no socket matches %s", pattern);
    globfree(&g);
    char env_reply[400];
    snprintf(env_reply, sizeof env_reply, "env TMPDIR=%s", a.dir);
    ASSERT_STREQ(app_command(&a, "env TMPDIR", 5000), env_reply);
    ASSERT_MSG(!getenv("TMPDIR") || strcmp(getenv("TMPDIR"), a.dir) != 0, "same TMPDIR as ps");
    char version[64];
    snprintf(version, sizeof version, "%s", app_command(&a, "version", 5000) + 8);
    ASSERT_EQ(run_cli(&out, "ps", "--json", NULL), 0);
    const char *row = ps_row(out, a.pid);
    ASSERT_MSG(row != NULL, "ps did not list pid %d:\n%s", a.pid, out);
    ASSERT_STREQ(json_value(row, "reachable"), "true");
    ASSERT_STREQ(json_value(row, "status"), "ok");
    ASSERT_EQ(atoi(json_value(row, "ns_pid")), a.pid);
    ASSERT_STREQ(json_value(row, "other_mount_ns"), "false");
    ASSERT_CONTAINS(json_value(row, "command_line"), CLRA_SAMPLE_DLL " --seconds 300");
    ASSERT_MSG(strncmp(json_value(row, "clr_version"), version, strlen(version)) == 0,
               "clr_version %s, app says %s", json_value(row, "clr_version"), version);
    ASSERT_CONTAINS(json_value(row, "rid"), "linux-");
    ASSERT_STREQ(json_value(row, "user"), getpwuid(geteuid())->pw_name);
    ASSERT_EQ(atoi(json_value(row, "uid")), geteuid());
    ASSERT_EQ(strncmp(json_value(row, "endpoint"), a.dir, strlen(a.dir)), 0);
    app_stop(&a);
}

TEST(ps_text_output_is_a_table_with_a_row_per_process)
{
    app_t a;
    const char *out;
    char row_start[32];
    app_start(&a, NULL);
    ASSERT_EQ(run_cli(&out, "ps", NULL), 0);
    ASSERT_CONTAINS(out, "PID      NSPID  USER       RUNTIME    RID          STATUS        "
                         "COMMAND\n");
    snprintf(row_start, sizeof row_start, "\n%-8d %-6d ", a.pid, a.pid);
    const char *row = strstr(out, row_start);
    ASSERT_MSG(row != NULL, "no row for %d in:\n%s", a.pid, out);
    size_t len = strcspn(row + 1, "\n");
    char line[1024];
    snprintf(line, sizeof line, "%.*s", (int)len, row + 1);
    ASSERT_CONTAINS(line, " ok ");
    ASSERT_CONTAINS(line, " linux-");
    ASSERT_CONTAINS(line, "sample.dll --seconds 300");
    app_stop(&a);
}

TEST(ps_killed_target_leaves_no_row_and_its_socket_is_reported_stale)
{
    app_t a;
    const char *out;
    struct stat sb;
    char path[512];
    int pid;
    app_start(&a, NULL);
    pid = a.pid;
    snprintf(path, sizeof path, "%s", socket_of(pid));
    ASSERT_EQ(run_cli(&out, "ps", "--json", NULL), 0);
    ASSERT_MSG(ps_row(out, pid) != NULL, "not listed while alive:\n%s", out);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    ASSERT_MSG(lstat(path, &sb) == 0 && S_ISSOCK(sb.st_mode), "%s did not stay behind", path);
    ASSERT_EQ(run_cli(&out, "ps", "--json", NULL), 0);
    ASSERT_MSG(ps_row(out, pid) == NULL, "dead pid %d is listed:\n%s", pid, out);
    ASSERT_MSG(ps_stale_has(out, path), "%s not reported stale:\n%s", path, out);
    ASSERT_EQ(run_cli(&out, "ps", NULL), 0);
    ASSERT_CONTAINS(out, "stale diagnostics socket");
    unlink(path); /* ours: the runtime we killed could not remove it */
    app_stop(&a);
}

TEST(ps_does_not_list_a_non_dotnet_process_with_sockets_named_for_it)
{
    const char *out;
    char exact[256], other[256];
    pid_t child = fork();
    if (child == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        execl("/bin/sleep", "sleep", "60", (char *)NULL);
        _exit(127);
    }
    usleep(100000);
    /* One socket carries the process's real start time (so ps must connect and be refused),
     * one an older start time (an earlier process with the same pid). */
    snprintf(exact, sizeof exact, "/tmp/dotnet-diagnostic-%d-%lld-socket", (int)child,
             start_time(child));
    snprintf(other, sizeof other, "/tmp/dotnet-diagnostic-%d-1-socket", (int)child);
    stale_socket(exact);
    stale_socket(other);
    int rc = run_cli(&out, "ps", "--json", NULL);
    unlink(exact);
    unlink(other);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    ASSERT_EQ(rc, 0);
    ASSERT_MSG(ps_row(out, child) == NULL, "sleep (pid %d) is listed:\n%s", (int)child, out);
    ASSERT(ps_stale_has(out, exact));
    ASSERT(ps_stale_has(out, other));
}

TEST(ps_lists_a_target_in_its_own_pid_and_mount_namespace)
{
    app_t a;
    const char *out;
    char host[16], prefix[128];
    app_start_namespaced(&a, 0); /* a fresh /tmp, as in a container */
    int app = app_host_pid(&a);
    ASSERT_MSG(a.ready_pid >= 1 && a.ready_pid < 10, "app's own pid is %d", a.ready_pid);
    snprintf(host, sizeof host, "%d", app);
    ASSERT_EQ(run_cli(&out, "ps", "--json", NULL), 0);
    const char *row = ps_row(out, app);
    ASSERT_MSG(row != NULL, "ps did not list host pid %d:\n%s", app, out);
    ASSERT_EQ(atoi(json_value(row, "ns_pid")), a.ready_pid);
    ASSERT_STREQ(json_value(row, "other_mount_ns"), "true");
    ASSERT_STREQ(json_value(row, "reachable"), "true");
    ASSERT_CONTAINS(json_value(row, "command_line"), "sample.dll");
    snprintf(prefix, sizeof prefix, "/proc/%d/root/tmp/dotnet-diagnostic-%d-", app, a.ready_pid);
    ASSERT_MSG(strncmp(json_value(row, "endpoint"), prefix, strlen(prefix)) == 0,
               "endpoint %s, expected under %s", json_value(row, "endpoint"), prefix);
    ASSERT_MSG(!ps_stale_has(out, json_value(row, "endpoint")), "its socket is called stale");
    ASSERT_EQ(run_cli(&out, "info", "--json", host, NULL), 0);
    ASSERT_EQ(atoi(json_value(out, "pid")), app);
    ASSERT_EQ(atoi(json_value(out, "process_id")), a.ready_pid);
    ASSERT_STREQ(json_value(out, "entry_assembly"), "sample");
    app_stop(&a);
}

TEST(ps_as_another_user_lists_the_target_as_permission_denied)
{
    app_t a;
    const char *out;
    if (geteuid() != 0)
        SKIP("needs root to run ps as another user (uid %d)", NOBODY);
    app_start(&a, NULL);
    int rc = run_cli_as(NOBODY, &out, "ps", "--json", NULL);
    ASSERT_MSG(rc == 0, "exit %d: %s", rc, out);
    const char *row = ps_row(out, a.pid);
    ASSERT_MSG(row != NULL, "uid %d's ps did not list %d:\n%s", NOBODY, a.pid, out);
    ASSERT_STREQ(json_value(row, "reachable"), "false");
    ASSERT_STREQ(json_value(row, "status"), "permission");
    ASSERT_STREQ(json_value(row, "user"), "root");
    ASSERT_CONTAINS(json_value(row, "reason"), "permission denied");
    ASSERT_CONTAINS(json_value(row, "command_line"), "sample.dll"); /* from /proc/PID/cmdline */
    ASSERT(atoi(json_value(out, "unreadable")) >= 1); /* root's other processes, at least */
    app_stop(&a);
}

TEST(ps_usage_errors_exit_2)
{
    const char *out;
    ASSERT_EQ(run_cli(&out, "ps", "1234", NULL), 2);
    ASSERT_CONTAINS(out, "takes no arguments");
    ASSERT_EQ(run_cli(&out, "ps", "--probe-timeout", "0", NULL), 2);
    ASSERT_EQ(run_cli(&out, "ps", "--help", NULL), 0);
    ASSERT_CONTAINS(out, "usage: clrattach ps");
}

#define HUGE_DIR_FILES 50000
#define SHARERS 200
#define PS_SLACK_MS 1000

static double ms_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* A sleeping non-.NET process with TMPDIR=dir: ps must search that directory for it too. */
static pid_t sharer(const char *dir)
{
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        setenv("TMPDIR", dir, 1);
        execl("/bin/sleep", "sleep", "120", (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* Issue 17 #4: 200 processes whose TMPDIR holds 50,000 files. ps read the directory once per
 * process, outside its deadline (12.6 s for `ps --timeout 2000` with 200,000 files); now each
 * directory is read once, under the deadline, and a read the deadline cuts short says so. */
TEST(ps_timeout_bounds_the_listing_of_many_processes_sharing_a_huge_tmpdir)
{
    app_t a;
    const char *out;
    pid_t sharers[SHARERS];
    app_options_t o = {.private_tmpdir = 1};
    app_start_with(&a, &o);
    for (int i = 0; i < HUGE_DIR_FILES; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/f%05d", a.dir, i);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        ASSERT_MSG(fd >= 0, "create %s: %s", path, strerror(errno));
        close(fd);
    }
    for (int i = 0; i < SHARERS; i++)
        sharers[i] = sharer(a.dir);
    double t0 = ms_now();
    int rc = run_cli(&out, "ps", "--json", "--timeout", "200", NULL);
    double took = ms_now() - t0;
    ASSERT_MSG(rc == 0, "ps exit %d: %s", rc, out);
    ASSERT_MSG(took <= 200 + PS_SLACK_MS, "ps --timeout 200 took %.0f ms", took);
    /* A deadline too short to read the directory: the target is listed, as not asked in time. */
    t0 = ms_now();
    rc = run_cli(&out, "ps", "--json", "--timeout", "1", NULL);
    took = ms_now() - t0;
    ASSERT_MSG(rc == 0, "ps exit %d: %s", rc, out);
    ASSERT_MSG(took <= 1 + PS_SLACK_MS, "ps --timeout 1 took %.0f ms", took);
    const char *row = ps_row(out, a.pid);
    ASSERT_MSG(row != NULL, "ps --timeout 1 did not list pid %d:\n%s", a.pid, out);
    ASSERT_STREQ(json_value(row, "status"), "timeout");
    /* With time enough, the one shared read finds the target's socket among the files. */
    rc = run_cli(&out, "ps", "--json", "--timeout", "20000", NULL);
    ASSERT_MSG(rc == 0, "ps exit %d: %s", rc, out);
    row = ps_row(out, a.pid);
    ASSERT_MSG(row != NULL, "ps did not list pid %d:\n%s", a.pid, out);
    ASSERT_STREQ(json_value(row, "status"), "ok");
    for (int i = 0; i < SHARERS; i++) {
        kill(sharers[i], SIGKILL);
        waitpid(sharers[i], NULL, 0);
    }
    app_stop(&a);
}
