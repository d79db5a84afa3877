/* proc_status.c - reading /proc/PID for the tests' leak and cleanliness checks. */
#include "proc_status.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
