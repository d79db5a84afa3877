/* proc_status.c - reading /proc/PID for the tests' leak and cleanliness checks. */
#include "proc_status.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One reader for every test that compares a field before and after a detach. */
unsigned long long proc_status_field(int pid, const char *key, int base)
{
    char path[64], line[256];
    unsigned long long v = 0;
    size_t klen = strlen(key);
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "re");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, klen) == 0 && line[klen] == ':')
            v = strtoull(line + klen + 1, NULL, base);
    if (f)
        fclose(f);
    return v;
}

/* Counts only real descriptors (not . and ..), so figures read as the app's fd count. */
long proc_fd_count(int pid)
{
    char path[64];
    long n = 0;
    snprintf(path, sizeof path, "/proc/%d/fd", pid);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        n += e->d_name[0] != '.';
    closedir(d);
    return n;
}

/* maps and timers have one line per item: counting lines counts mappings or timers (a line
 * longer than the buffer still counts once). */
long proc_lines(int pid, const char *file, const char *prefix)
{
    char path[96], line[1024];
    long n = 0;
    int at_start = 1;
    size_t plen = strlen(prefix);
    snprintf(path, sizeof path, "/proc/%d/%s", pid, file);
    FILE *f = fopen(path, "re");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f)) {
        n += at_start && strncmp(line, prefix, plen) == 0;
        at_start = strchr(line, '\n') != NULL;
    }
    fclose(f);
    return n;
}

/* What follows the parenthesised name (which may hold spaces) in a stat file, in line; NULL
 * when unreadable. */
static const char *stat_fields(const char *path, char *line, size_t cap)
{
    FILE *f = fopen(path, "re");
    int ok = f && fgets(line, (int)cap, f);
    if (f)
        fclose(f);
    const char *p = ok ? strrchr(line, ')') : NULL;
    return p ? p + 1 : NULL;
}

char proc_state(int pid)
{
    char path[64], line[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    const char *p = stat_fields(path, line, sizeof line);
    return p && p[0] == ' ' && p[1] ? p[1] : '?';
}

/* utime + stime of one thread, in ms, from /proc/PID/task/TID/stat (fields 14 and 15); -1 when
 * unreadable. */
static long long thread_cpu_ms(int pid, const char *tid)
{
    char path[300], line[1024];
    unsigned long long user, sys;
    snprintf(path, sizeof path, "/proc/%d/task/%s/stat", pid, tid);
    const char *p = stat_fields(path, line, sizeof line);
    if (!p || sscanf(p, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &user,
                     &sys) != 2)
        return -1;
    return (long long)((user + sys) * 1000 / (unsigned long long)sysconf(_SC_CLK_TCK));
}

/* CPU-time tests judge samples against the CPU the thread really got, which a loaded machine
 * cuts short; this is that figure. */
long long proc_thread_cpu_ms(int pid, const char *comm)
{
    char path[300], name[64];
    long long total = -1;
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (comm) {
            snprintf(path, sizeof path, "/proc/%d/task/%s/comm", pid, e->d_name);
            FILE *f = fopen(path, "re");
            int got = f && fgets(name, sizeof name, f);
            if (f)
                fclose(f);
            if (!got || (name[strcspn(name, "\n")] = '\0', strcmp(name, comm) != 0))
                continue;
        } else if (atoi(e->d_name) != pid) {
            continue;
        }
        long long ms = thread_cpu_ms(pid, e->d_name);
        if (ms >= 0)
            total = (total < 0 ? 0 : total) + ms;
    }
    if (d)
        closedir(d);
    return total;
}
