/* hold_unix.c - base/hold_platform.h on Unix: the signals write into a pipe, which poll(2)
 * watches beside the held socket. */
#define _GNU_SOURCE
#include "base/hold_platform.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int signal_pipe[2] = {-1, -1};

static void on_signal(int sig)
{
    char c = (char)sig;
    ssize_t n = write(signal_pipe[1], &c, 1);
    (void)n;
}

int hold_wait_prepare(void)
{
    if (pipe2(signal_pipe, O_CLOEXEC) != 0) {
        fprintf(stderr, "clrattach: attached, but cannot wait for signals (pipe: %s); the "
                "profiler detaches as this command exits now\n", strerror(errno));
        return -1;
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    return 0;
}

int hold_wait(int fd)
{
    struct pollfd fds[2] = {{signal_pipe[0], POLLIN, 0}, {fd, POLLIN, 0}};
    while (poll(fds, 2, -1) < 0 && errno == EINTR)
        ;
    return fds[1].revents != 0 && !fds[0].revents;
}

void hold_release(int fd)
{
    close(fd);
}
