/* bg_cli.c - see bg_cli.h (moved from test_trace.c, shared with the trace --format and
 * stopping-event tests). */
#define _GNU_SOURCE
#include "bg_cli.h"
#include "test.h"

#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

void bg_start(bg_t *b, const char *arg0, ...)
{
    const char *argv[32] = {"clrattach", arg0};
    int argc = 2, fds[2];
    va_list ap;
    va_start(ap, arg0);
    while (argc < 31 && (argv[argc] = va_arg(ap, const char *)) != NULL)
        argc++;
    va_end(ap);
    memset(b, 0, sizeof *b);
    ASSERT(pipe2(fds, O_CLOEXEC) == 0);
    b->pid = fork();
    ASSERT(b->pid >= 0);
    if (b->pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        execv(CLRA_CLI, (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    b->fd = fds[0];
}

/* Reads what the command printed within wait_ms; returns 0 at EOF. */
int bg_read(bg_t *b, int wait_ms)
{
    struct pollfd p = {b->fd, POLLIN, 0};
    if (poll(&p, 1, wait_ms) <= 0)
        return 1;
    ssize_t k = read(b->fd, b->out + b->len, sizeof b->out - 1 - b->len);
    if (k > 0)
        b->len += (size_t)k;
    b->out[b->len] = '\0';
    return k > 0;
}

/* Waits until the command has printed text. */
void bg_wait_for(bg_t *b, const char *text, int timeout_ms)
{
    double end = now_ms() + timeout_ms;
    while (!strstr(b->out, text)) {
        ASSERT_MSG(now_ms() < end, "clrattach printed no '%s' within %d ms; it printed:\n%s", text,
                   timeout_ms, b->out);
        if (!bg_read(b, 100))
            ASSERT_MSG(strstr(b->out, text), "clrattach ended without '%s':\n%s", text, b->out);
    }
}

/* Collects the rest of the output and the exit code. */
int bg_finish(bg_t *b, int timeout_ms)
{
    int status;
    double end = now_ms() + timeout_ms;
    while (bg_read(b, 100) != 0)
        ASSERT_MSG(now_ms() < end, "clrattach still running after %d ms:\n%s", timeout_ms, b->out);
    close(b->fd);
    ASSERT(waitpid(b->pid, &status, 0) == b->pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

