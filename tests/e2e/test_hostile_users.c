/* test_hostile_users.c - an unprivileged user's process against root's clrattach: files the
 * user planted where root writes, and strings the user's process shows root (issue 17). */
#define _GNU_SOURCE
#include "harness.h"
#include "test.h"
#include "trace_counts.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define NOBODY 65534

static void need_root(void)
{
    if (geteuid() != 0)
        SKIP("needs root to run the target and plant files as another user");
}

/* Runs fn(arg) in a child that has become uid NOBODY; fails the test unless it returned 0. */
static void as_nobody(int (*fn)(const char *a, const char *b), const char *a, const char *b)
{
    pid_t p = fork();
    ASSERT(p >= 0);
    if (p == 0) {
        if (setgid(NOBODY) != 0 || setuid(NOBODY) != 0)
            _exit(90);
        _exit(fn(a, b) == 0 ? 0 : 91);
    }
    int status;
    ASSERT(waitpid(p, &status, 0) == p);
    ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the planting child failed (%d)",
               status);
}

static int plant_link(const char *target, const char *link_path)
{
    return symlink(target, link_path);
}

static int plant_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0)
        return -1;
    int ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
    close(fd);
    return ok ? 0 : -1;
}

/* A root-only file holding text; its path goes to out. */
static void make_secret(char out[64], const char *text)
{
    snprintf(out, 64, "/tmp/clra-e2e-secret-XXXXXX");
    int fd = mkstemp(out);
    ASSERT(fd >= 0);
    ASSERT(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    ASSERT(fchmod(fd, 0600) == 0);
    close(fd);
}

/* The whole content of a small file (static buffer). */
static const char *file_text(const char *path)
{
    static char buf[256];
    int fd = open(path, O_RDONLY | O_NOFOLLOW);
    ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
    buf[n > 0 ? n : 0] = '\0';
    if (fd >= 0)
        close(fd);
    return buf;
}

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
