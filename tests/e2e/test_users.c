/* test_users.c - attaching across users, and refusing sockets that are not safely the target's:
 * root acts as the target's owner, a third user is told whom to become, and planted links,
 * foreign files and other processes' sockets are refused before anything is sent. */
#define _GNU_SOURCE
#include "harness.h"
#include "test.h"

#include "clrattach.h"
#include "process_list.h" /* a pid paired with a socket: only inside the library */

#include <dirent.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>

#define NOBODY 65534   /* the target's owner */
#define STRANGER 65533 /* a third user, with no name on most systems */

/* The app's diagnostics socket (static buffer); fails the test when there is none. */
static const char *socket_of(const app_t *a, const char *dir)
{
    static char path[512];
    glob_t g;
    char pattern[400];
    snprintf(pattern, sizeof pattern, "%s/dotnet-diagnostic-%d-*-socket", dir, a->pid);
    ASSERT_MSG(glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc == 1, "no single %s", pattern);
    snprintf(path, sizeof path, "%s", g.gl_pathv[0]);
    globfree(&g);
    return path;
}

/* Fails the test unless every entry below dir belongs to uid; returns how many there are. */
static int assert_all_owned_by(const char *dir, uid_t uid)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    ASSERT(d != NULL);
    while ((e = readdir(d)) != NULL) {
        struct stat sb;
        char path[600];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        ASSERT(lstat(path, &sb) == 0);
        ASSERT_MSG(sb.st_uid == uid, "%s belongs to uid %u, not %u", path, (unsigned)sb.st_uid,
                   (unsigned)uid);
        n += 1 + (S_ISDIR(sb.st_mode) ? assert_all_owned_by(path, uid) : 0);
    }
    closedir(d);
    return n;
}

static void need_root(void)
{
    if (geteuid() != 0)
        SKIP("needs root to run the target or clrattach as other users");
}

TEST(root_attaches_to_another_users_process_as_that_user)
{
    app_t a;
    const char *out;
    need_root();
    app_options_t o = {.private_tmpdir = 1, .user = NOBODY};
    app_start_with(&a, &o);
    /* Staged, so that clrattach itself creates files in the target's TMPDIR (a.dir). */
    int rc = run_cli(&out, "attach", "--stage", app_pid_text(&a), profiler_path("hello"), NULL);
    ASSERT_MSG(rc == 0, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, a.dir);
    app_wait_log(&a, "InitializeForAttach", 10000);
    /* The stage directory and the copy among them: socket, pipes, log, directory, copy. */
    ASSERT(assert_all_owned_by(a.dir, NOBODY) >= 6);
    rc = run_cli(&out, "detach", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "removed 1 staged profiler copy");

    /* The connect itself is checked as the owner: a socket the owner may not open (mode 000)
     * stays closed to root too, although root's own permissions would override the mode. */
    const char *sock = socket_of(&a, a.dir);
    ASSERT(chmod(sock, 0) == 0);
    rc = run_cli(&out, "info", app_pid_text(&a), NULL);
    ASSERT(chmod(sock, 0600) == 0);
    ASSERT_MSG(rc == 6, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "owned by uid 65534 (nobody), mode 000): its owner may not open it");
    ASSERT_EQ(run_cli(&out, "info", app_pid_text(&a), NULL), 0);
    app_stop(&a);
}

TEST(a_third_user_is_told_who_owns_the_process)
{
    app_t a;
    const char *out;
    need_root();
    /* Socket in the shared /tmp: found, but the connect is refused by the kernel. */
    app_options_t shared = {.user = NOBODY};
    app_start_with(&a, &shared);
    int rc = run_cli_as(STRANGER, &out, "attach", app_pid_text(&a), profiler_path("hello"), NULL);
    ASSERT_MSG(rc == 6, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "permission denied connecting to");
    ASSERT_CONTAINS(out, "owned by uid 65534 (nobody)");
    ASSERT_CONTAINS(out, "sudo -u nobody");
    ASSERT_MSG(!strstr(app_log(&a), "Initialize"), "the profiler loaded: %s", app_log(&a));
    app_stop(&a);

    /* Socket in a private TMPDIR: the process's environment, which says where, is closed. */
    app_options_t private_dir = {.private_tmpdir = 1, .user = NOBODY};
    app_start_with(&a, &private_dir);
    rc = run_cli_as(STRANGER, &out, "attach", app_pid_text(&a), profiler_path("hello"), NULL);
    ASSERT_MSG(rc == 6, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "runs as uid 65534 (nobody)");
    ASSERT_CONTAINS(out, "sudo -u nobody");
    app_stop(&a);
}

TEST(a_socket_owned_by_someone_else_is_refused)
{
    app_t a;
    const char *out;
    need_root();
    app_options_t o = {.private_tmpdir = 1};
    app_start_with(&a, &o);
    const char *sock = socket_of(&a, a.dir);
    ASSERT(lchown(sock, STRANGER, STRANGER) == 0);
    int rc = run_cli(&out, "attach", app_pid_text(&a), profiler_path("hello"), NULL);
    ASSERT_MSG(rc == 6, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "refusing");
    ASSERT_CONTAINS(out, "owned by uid 65533 but process");
    ASSERT_CONTAINS(out, "runs as uid 0 (root)");
    ASSERT_MSG(!strstr(app_log(&a), "Initialize"), "the profiler loaded: %s", app_log(&a));
    ASSERT(lchown(sock, 0, 0) == 0);
    ASSERT_EQ(run_cli(&out, "info", app_pid_text(&a), NULL), 0);
    app_stop(&a);
}

TEST(a_symlink_planted_on_the_way_to_the_socket_is_refused)
{
    app_t a;
    const char *out;
    char dir[] = "/tmp/clra-e2e-link-XXXXXX", real[64], link[64], env[80];
    need_root();
    ASSERT(mkdtemp(dir) != NULL);
    snprintf(real, sizeof real, "%s/real", dir);
    snprintf(link, sizeof link, "%s/link", dir);
    snprintf(env, sizeof env, "TMPDIR=%s", link);
    ASSERT(mkdir(real, 0755) == 0 && symlink(real, link) == 0);
    ASSERT(lchown(link, STRANGER, STRANGER) == 0); /* as if a third user had planted it */
    const char *const extra[] = {env, NULL};
    app_options_t o = {.env = extra};
    app_start_with(&a, &o);
    int rc = run_cli(&out, "info", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 6, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "is a symbolic link owned by uid 65533");
    ASSERT_CONTAINS(out, link);
    /* The same link made by root (or the owner) is trusted: links as such are fine. */
    ASSERT(lchown(link, 0, 0) == 0);
    rc = run_cli(&out, "info", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "exit %d: %s", rc, out);
    app_stop(&a);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    ASSERT_EQ(system(cmd), 0);
}

TEST(a_link_in_place_of_the_socket_and_another_process_socket_are_refused)
{
    app_t a, b;
    clra_endpoint_t ep;
    clra_status_t st;
    clra_process_info_t info;
    char link[400];
    app_options_t o = {.private_tmpdir = 1};
    app_start_with(&a, &o);
    app_start_with(&b, &o);
    /* A link to a's own socket: refused all the same, since the runtime never makes links. */
    snprintf(link, sizeof link, "%s/dotnet-diagnostic-%d-1-socket", b.dir, a.pid);
    ASSERT(symlink(socket_of(&a, a.dir), link) == 0);
    memset(&ep, 0, sizeof ep);
    snprintf(ep.path, sizeof ep.path, "%s", link);
    ep.pid = a.pid;
    ASSERT_EQ(clra__process_info_at(&ep, 5000, &info, &st), CLRA_EUNSAFE);
    ASSERT_CONTAINS(st.detail, "is a symbolic link");
    unlink(link);
    /* b's socket offered as a's: the listener's pid gives it away after the connect. */
    snprintf(ep.path, sizeof ep.path, "%s", socket_of(&b, b.dir));
    ep.pid = a.pid;
    ASSERT_EQ(clra__process_info_at(&ep, 5000, &info, &st), CLRA_EUNSAFE);
    char expected[96];
    snprintf(expected, sizeof expected, "served by process %d, not by process %d", b.pid, a.pid);
    ASSERT_CONTAINS(st.detail, expected);
    /* The real pairing still works. */
    ep.pid = b.pid;
    ASSERT_EQ(clra__process_info_at(&ep, 5000, &info, &st), 0);
    ASSERT_EQ((long long)info.pid, b.pid);
    clra_process_info_free(&info);
    app_stop(&a);
    app_stop(&b);
}

TEST(a_planted_profiler_control_endpoint_is_refused)
{
    app_t a;
    const char *out;
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    need_root();
    app_options_t o = {.private_tmpdir = 1};
    app_start_with(&a, &o);
    /* A listening socket named like the hello profiler's endpoint, made by a third user. */
    char path[400];
    snprintf(path, sizeof path, "%s/clrprof-%d-5e3e0c65-3e00-442d-b0ad-7f2d7f8946df.sock", a.dir,
             a.pid);
    ASSERT(strlen(path) < sizeof sa.sun_path);
    memcpy(sa.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT(fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0 && listen(fd, 4) == 0);
    ASSERT(lchown(sa.sun_path, STRANGER, STRANGER) == 0);
    int rc = run_cli(&out, "detach", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 6, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "owned by uid 65533 but process");
    /* Owned by root it passes the file checks, but it is not the target listening. */
    ASSERT(lchown(sa.sun_path, 0, 0) == 0);
    rc = run_cli(&out, "detach", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 6, "exit %d: %s", rc, out);
    char expected[80];
    snprintf(expected, sizeof expected, "served by process %d, not by process %d", getpid(), a.pid);
    ASSERT_CONTAINS(out, expected);
    close(fd);
    unlink(sa.sun_path);
    app_stop(&a);
}

/* The harness's apps die with the test that started them even when they run as another user:
 * the uid change cleared the parent-death signal, so an app started as nobody outlived a
 * failed test. Here a "test" (a child) starts one and exits without stopping it. */
TEST(an_app_started_as_nobody_dies_with_the_test_that_started_it)
{
    int fds[2];
    app_t started;
    ASSERT(pipe(fds) == 0);
    pid_t test = fork();
    ASSERT(test >= 0);
    if (test == 0) {
        app_t a;
        app_options_t o = {.private_tmpdir = 1, .user = NOBODY};
        app_start_with(&a, &o);
        ssize_t n = write(fds[1], &a, sizeof a);
        _exit(n == sizeof a ? 0 : 1);
    }
    close(fds[1]);
    ASSERT_EQ(read(fds[0], &started, sizeof started), (ssize_t)sizeof started);
    close(fds[0]);
    pid_t app = started.pid;
    waitpid(test, NULL, 0);
    int alive = 1;
    for (int i = 0; i < 100 && alive; i++) {
        char path[64], state[256] = "";
        snprintf(path, sizeof path, "/proc/%d/stat", (int)app);
        FILE *f = fopen(path, "r");
        alive = f && fgets(state, sizeof state, f) && !strstr(state, ") Z ");
        if (f)
            fclose(f);
        if (alive)
            usleep(50000);
    }
    if (alive)
        kill(app, SIGKILL);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", started.dir);
    if (system(cmd) != 0)
        test_note("could not remove %s", started.dir);
    ASSERT_MSG(!alive, "the app %d (as nobody) outlived the test that started it", (int)app);
}
