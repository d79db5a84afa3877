/* peak_rss.c - runs a command and prints its peak resident set in KiB and its CPU time.
 *
 *   bench_peak_rss COMMAND [ARGS...]   last line: "PEAK_RSS_KIB USER_MS SYS_MS"; the exit
 *                                      status is the command's
 *
 * A benchmark driver in Python cannot read this itself: a child forked from Python counts
 * Python's resident pages until it execs, so the figure would be Python's size, not the
 * command's. Forked from this small program, the pre-exec part is negligible. It ignores SIGINT
 * so that a driver can stop the command with Ctrl-C sent to the whole process group and still
 * get the figures. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static double ms(struct timeval tv)
{
    return tv.tv_sec * 1e3 + tv.tv_usec / 1e3;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_peak_rss COMMAND [ARGS...]\n");
        return 2;
    }
    fflush(stdout);
    signal(SIGINT, SIG_IGN);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
        return 1;
    printf("%ld %.1f %.1f\n", ru.ru_maxrss, ms(ru.ru_utime), ms(ru.ru_stime));
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
