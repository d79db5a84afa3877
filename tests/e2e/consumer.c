/* consumer.c - running profile consumers for the e2e tests (see consumer.h). */
#define _GNU_SOURCE
#include "consumer.h"
#include "test.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHROMIUM_TIMEOUT_MS 30000

/* Looks through $PATH, as execvp would. */
const char *consumer_find(const char *name)
{
    static char found[4][512];
    static int turn;
    const char *path = getenv("PATH");
    char *dirs = strdup(path ? path : "/usr/bin:/bin"), *save = NULL;
    char *out = found[turn++ % 4];
    out[0] = '\0';
    for (char *d = strtok_r(dirs, ":", &save); d && !out[0]; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, sizeof found[0], "%s/%s", d, name);
        if (access(out, X_OK) != 0)
            out[0] = '\0';
    }
    free(dirs);
    ASSERT_MSG(out[0], "%s is not installed: scripts/setup.sh installs it (Debian: %s)", name,
               strcmp(name, "go") == 0 ? "golang-go" : name);
    return out;
}

/* A process group of its own, so Chromium's helpers go with it on a timeout. */
int consumer_run(const char *const *argv, const char *out_path, const char *err_path,
                 int timeout_ms)
{
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        setpgid(0, 0);
        int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int null = open("/dev/null", O_RDONLY);
        if (out < 0 || err < 0 || null < 0)
            _exit(126);
        dup2(null, 0), dup2(out, 1), dup2(err, 2);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    setpgid(pid, pid);
    int status = 0;
    for (int waited = 0; waited < timeout_ms; waited += 10) {
        if (waitpid(pid, &status, WNOHANG) == pid) {
            kill(-pid, SIGKILL); /* helpers that outlived their parent */
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        nanosleep(&(struct timespec){0, 10000000L}, NULL);
    }
    kill(-pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

/* Root needs --no-sandbox; WebGL (speedscope draws with it) comes from SwiftShader, which
 * Chromium asks to be named; virtual time lets the page's scripts finish before the dump. */
int chromium_run(const char *dir, const char *url, const char *out_path, const char *png)
{
    char profile[400], shot[600], err[400];
    snprintf(profile, sizeof profile, "--user-data-dir=%s/chromium-profile", dir);
    snprintf(err, sizeof err, "%s/chromium.err", dir);
    snprintf(shot, sizeof shot, "--screenshot=%s", png ? png : "");
    const char *argv[] = {consumer_find("chromium"), "--headless", "--no-sandbox",
                          "--enable-unsafe-swiftshader", "--use-angle=swiftshader",
                          "--no-first-run", "--disable-dev-shm-usage", profile,
                          "--window-size=1200,800", "--hide-scrollbars",
                          "--virtual-time-budget=5000", png ? shot : "--dump-dom", url, NULL};
    int rc = consumer_run(argv, png ? "/dev/null" : out_path, err, CHROMIUM_TIMEOUT_MS);
    if (rc != 0)
        test_note("chromium exited %d; its stderr is in %s", rc, err);
    return rc;
}

int write_base64_between(const char *dst, const char *prefix, const char *src,
                         const char *suffix)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "w");
    int rc = in && out ? 0 : -1;
    unsigned char b[3];
    size_t n;
    if (!rc)
        fputs(prefix, out);
    while (!rc && (n = fread(b, 1, 3, in)) > 0) {
        unsigned v = (unsigned)b[0] << 16 | (n > 1 ? (unsigned)b[1] << 8 : 0) | (n > 2 ? b[2] : 0);
        fputc(digits[v >> 18 & 63], out);
        fputc(digits[v >> 12 & 63], out);
        fputc(n > 1 ? digits[v >> 6 & 63] : '=', out);
        fputc(n > 2 ? digits[v & 63] : '=', out);
    }
    if (!rc)
        fputs(suffix, out);
    if (in)
        fclose(in);
    if (out && fclose(out) != 0)
        rc = -1;
    return rc;
}
