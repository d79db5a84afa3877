/* main_detached.c - a mark, for the life of the process, that a main profiler detached from it.
 *
 * .NET 10 crashes (SIGSEGV) in the RequestProfilerDetach of a notification-only profiler once a
 * main profiler has detached from the process (README, "Behaviour of the real runtime"). A
 * libclrprof main profiler leaves this mark when its detach succeeds; a libclrprof
 * notification-only profiler then refuses to detach, and `clrattach profile` will not load its
 * sampler beside a main profiler in such a process. The mark is a file in /dev/shm named by the
 * process's pid (as it sees itself) and start time, so a reused pid does not inherit it.
 */
#define _GNU_SOURCE
#include "profiler_internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* /dev/shm/clrprof-main-detached-PID-START for this process; -1 when /proc cannot say. */
static int mark_path(char *out, size_t cap)
{
    char text[1024];
    FILE *f = fopen("/proc/self/stat", "re");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    const char *p = strrchr(text, ')');
    unsigned long long start = 0;
    for (int field = 2; p && *p && field < 22; p++)
        field += *p == ' ';
    if (!p || sscanf(p, "%llu", &start) != 1)
        return -1;
    return snprintf(out, cap, "/dev/shm/clrprof-main-detached-%d-%llu", (int)getpid(), start) <
                   (int)cap ? 0 : -1;
}

void clrprof__mark_main_detached(void)
{
    char path[128];
    int fd = mark_path(path, sizeof path) == 0 ? open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644) : -1;
    if (fd >= 0)
        close(fd);
}

int clrprof__main_has_detached(void)
{
    char path[128];
    struct stat sb;
    return mark_path(path, sizeof path) == 0 && stat(path, &sb) == 0;
}
