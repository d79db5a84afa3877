/* main_detached.c - a mark, for the life of the process, that a main profiler detached from it.
 *
 * .NET 10 crashes (SIGSEGV) in the RequestProfilerDetach of a notification-only profiler once a
 * main profiler has detached from the process (README, "Behaviour of the real runtime"). A
 * libclrprof main profiler leaves this mark when its detach succeeds; a libclrprof
 * notification-only profiler then refuses to detach, and `clrattach profile` will not load its
 * sampler beside a main profiler in such a process. The mark is a file in /dev/shm named by the
 * process's pid (as it sees itself) and start time, so a reused pid does not inherit it; each
 * new mark removes the marks of processes that are gone.
 */
#define _GNU_SOURCE
#include "profiler_internal.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MARK_PREFIX "clrprof-main-detached-"

/* Field 22 (start time) of /proc/PID/stat, 0 when the process is gone or unreadable. */
static unsigned long long start_of(const char *pid)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    FILE *f = fopen(path, "re");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f)
        fclose(f);
    text[n] = '\0';
    const char *p = strrchr(text, ')');
    unsigned long long start = 0;
    for (int field = 2; p && *p && field < 22; p++)
        field += *p == ' ';
    if (!p || sscanf(p, "%llu", &start) != 1)
        return 0;
    return start;
}

/* /dev/shm/clrprof-main-detached-PID-START for this process; -1 when /proc cannot say. */
static int mark_path(char *out, size_t cap)
{
    unsigned long long start = start_of("self");
    if (!start)
        return -1;
    return snprintf(out, cap, "/dev/shm/" MARK_PREFIX "%d-%llu", (int)getpid(), start) <
                   (int)cap ? 0 : -1;
}

/* Removes the marks of processes that are gone (no such pid, or one started at another
 * time), so marks live no longer than their process plus the next mark made here. */
static void sweep_marks(void)
{
    DIR *d = opendir("/dev/shm");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        char pid[16];
        unsigned long long start;
        if (strncmp(e->d_name, MARK_PREFIX, sizeof MARK_PREFIX - 1) != 0 ||
            sscanf(e->d_name + sizeof MARK_PREFIX - 1, "%15[0-9]-%llu", pid, &start) != 2 ||
            start_of(pid) == start)
            continue;
        unlinkat(dirfd(d), e->d_name, 0);
    }
    if (d)
        closedir(d);
}

void clrprof__mark_main_detached(void)
{
    char path[128];
    sweep_marks();
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
