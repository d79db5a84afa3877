/* test_hostile_users.c - an unprivileged user's process against root's clrattach: files the
 * user planted where root writes, and strings the user's process shows root (issue 17). */
#define _GNU_SOURCE
#include "harness.h"
#include "hostile.h"
#include "test.h"
#include "trace_counts.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

TEST(trace_output_never_follows_a_link_planted_by_the_targets_user)
{
    app_t a;
    const char *out;
    char secret[64], link[400];
    need_root();
    app_options_t o = {.private_tmpdir = 1, .user = NOBODY};
    app_start_with(&a, &o);
    make_secret(secret, "root only\n");
    snprintf(link, sizeof link, "%s/x.nettrace", a.dir); /* a.dir: nobody's, not sticky */
    as_nobody(plant_link, secret, link);
    int rc = run_cli(&out, "trace", "--providers", SAMPLE_PROVIDER, "--duration", "1",
                     "--output", link, app_pid_text(&a), NULL);
    app_stop(&a); /* first: an app run as another user does not die with a failed test */
    ASSERT_STREQ(file_text(secret), "root only\n");
    unlink(secret);
    ASSERT_MSG(rc == 2, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "symbolic link");
    ASSERT_CONTAINS(out, "uid 65534");
}

TEST(trace_output_never_truncates_a_file_another_user_made)
{
    app_t a;
    const char *out;
    char path[400];
    need_root();
    app_options_t o = {.private_tmpdir = 1, .user = NOBODY};
    app_start_with(&a, &o);
    snprintf(path, sizeof path, "%s/y.nettrace", a.dir);
    as_nobody(plant_file, path, "nobody's\n");
    int rc = run_cli(&out, "trace", "--providers", SAMPLE_PROVIDER, "--duration", "1",
                     "--output", path, app_pid_text(&a), NULL);
    char left[64];
    snprintf(left, sizeof left, "%s", file_text(path));
    app_stop(&a); /* first: an app run as another user does not die with a failed test */
    ASSERT_STREQ(left, "nobody's\n");
    ASSERT_MSG(rc == 2, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "owned by uid 65534");
}

TEST(trace_output_rewrites_our_own_file_and_follows_our_own_link)
{
    app_t a;
    const char *out;
    char path[400], link[400];
    app_start(&a, NULL);
    snprintf(path, sizeof path, "%s/own.nettrace", a.dir);
    snprintf(link, sizeof link, "%s/own-link.nettrace", a.dir);
    ASSERT_EQ(plant_file(path, "an old trace that is longer than nothing\n"), 0);
    ASSERT_EQ(symlink(path, link), 0);
    int rc = run_cli(&out, "trace", "--providers", SAMPLE_PROVIDER, "--duration", "1",
                     "--output", link, app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(file_text(path), "Nettrace");
    app_stop(&a);
}

TEST(launch_trace_output_never_follows_a_link_planted_by_another_user)
{
    const char *out;
    char secret[64], dir[] = "/tmp/clra-e2e-launch-XXXXXX", link[96];
    need_root();
    ASSERT(mkdtemp(dir) != NULL);
    ASSERT(chown(dir, NOBODY, NOBODY) == 0 && chmod(dir, 0755) == 0);
    make_secret(secret, "root only\n");
    snprintf(link, sizeof link, "%s/x.nettrace", dir);
    as_nobody(plant_link, secret, link);
    int rc = run_cli(&out, "launch", "--trace", SAMPLE_PROVIDER, "--trace-output", link, "--",
                     CLRA_DOTNET, CLRA_SAMPLE_DLL, "--seconds", "1", NULL);
    ASSERT_STREQ(file_text(secret), "root only\n");
    ASSERT_MSG(rc == 2, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "symbolic link");
    unlink(secret);
    unlink(link);
    rmdir(dir);
}

TEST(env_text_shows_a_targets_escapes_and_newlines_visibly)
{
    app_t a;
    const char *out;
    const char *const extra[] = {"EVIL=\x1b[2J\x1b]0;owned\x07\nFORGED=root", NULL};
    app_start(&a, extra);
    int rc = run_cli(&out, "env", app_pid_text(&a), NULL);
    app_stop(&a);
    ASSERT_MSG(rc == 0, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "EVIL=\\e[2J\\e]0;owned\\x07\\nFORGED=root");
    assert_no_raw_controls(out, "FORGED");
}

/* Starts the sample app with one extra argument, as a hostile command line; returns its pid
 * once it said ready (its stdout is read through *from). */
static pid_t spawn_with_argument(const char *arg, int *from)
{
    int p[2];
    ASSERT(pipe2(p, O_CLOEXEC) == 0);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        dup2(p[1], 1);
        execl(CLRA_DOTNET, "dotnet", CLRA_SAMPLE_DLL, "--seconds", "60", arg, (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    char buf[256];
    ssize_t n = read(p[0], buf, sizeof buf); /* "ready ..." or end of file */
    ASSERT_MSG(n > 0, "the sample app did not start");
    *from = p[0];
    return pid;
}

TEST(info_and_ps_text_show_a_hostile_command_line_visibly)
{
    int from;
    const char *out;
    char pid_text[16], info[8192];
    pid_t pid = spawn_with_argument("\x1b[31mred\n0 root FORGED\x1b[0m", &from);
    snprintf(pid_text, sizeof pid_text, "%d", (int)pid);
    int rc = run_cli(&out, "info", pid_text, NULL);
    snprintf(info, sizeof info, "%s", out);
    int ps_rc = run_cli(&out, "ps", NULL);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    close(from);
    ASSERT_MSG(rc == 0, "info exit %d: %s", rc, info);
    ASSERT_CONTAINS(info, "\\e[31mred\\n0 root FORGED\\e[0m");
    assert_no_raw_controls(info, "0 root FORGED");
    ASSERT_MSG(ps_rc == 0, "ps exit %d: %s", ps_rc, out);
    ASSERT_CONTAINS(out, "\\e[31mred\\n0 root FORGED");
    assert_no_raw_controls(out, "0 root FORGED");
}

TEST(a_relative_tmpdir_is_resolved_against_the_targets_working_directory)
{
    app_t a;
    const char *out;
    const char *const extra[] = {"TMPDIR=.", NULL}; /* the app's cwd is ours */
    app_start(&a, extra);
    int rc = run_cli(&out, "info", app_pid_text(&a), NULL);
    app_stop(&a);
    ASSERT_MSG(rc == 0, "exit %d: %s", rc, out);
}
