/* sampler_os_linux.c - sampler_os.h on Linux: a thread's CPU clock by its kernel tid, its comm
 * name from /proc/self/task, and the final samples' file through open(2). */
#define _GNU_SOURCE
#include "sampler_os.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The CPU-time clock of any thread of this process by its kernel tid (the encoding behind
 * pthread_getcpuclockid: CPUCLOCK_SCHED | CPUCLOCK_PERTHREAD_MASK, tid in the high bits). */
int thread_cpu_ns(uint32_t tid, uint64_t *out)
{
    struct timespec ts;
    clockid_t clk = (clockid_t)((~(unsigned)tid << 3) | 6);
    if (clock_gettime(clk, &ts) != 0)
        return -1;
    *out = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
    return 0;
}

/* The thread's OS name (what Thread.Name sets on Linux, cut to 15 bytes). */
void thread_name(uint32_t tid, char *out, size_t cap)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/task/%u/comm", (unsigned)tid);
    FILE *f = fopen(path, "re");
    out[0] = '\0';
    if (f && fgets(out, (int)cap, f))
        out[strcspn(out, "\n")] = '\0';
    if (f)
        fclose(f);
    if (!out[0])
        snprintf(out, cap, "thread %u", (unsigned)tid);
}

/* Owner only and no symlink followed: launch names a file in its own private directory. */
int final_open(const char *path)
{
    return open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
}

/* Retries short writes and EINTR. */
int final_write(int fd, const void *data, size_t len)
{
    for (size_t done = 0; done < len;) {
        ssize_t n = write(fd, (const char *)data + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        done += (size_t)n;
    }
    return 0;
}

void final_close(int fd)
{
    close(fd);
}
