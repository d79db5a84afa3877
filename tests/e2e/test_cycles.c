/* End-to-end: many attach/detach cycles must leave the process as it was. The bounds are
 * stated here and the figures printed, so a slow leak shows up as numbers, not just a failure. */
#define _GNU_SOURCE
#include "harness.h"
#include "test.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CYCLES 50
#define WARMUP 5                /* the runtime's first detach creates its detach thread */
#define THREAD_SLACK 2          /* runtime worker threads come and go on their own */
#define FD_SLACK 2
#define RSS_SLACK_KIB (16 * 1024) /* the runtime keeps some per-load bookkeeping */

typedef struct usage {
    long threads, fds, rss_kib;
} usage_t;

/* The number after "key:" in /proc/PID/status. */
static long status_field(int pid, const char *key)
{
    char path[64], line[256];
    long value = -1;
    size_t klen = strlen(key);
    snprintf(path, sizeof path, "/proc/%d/status", pid);
    FILE *f = fopen(path, "re");
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, klen) == 0 && line[klen] == ':')
            value = strtol(line + klen + 1, NULL, 10);
    if (f)
        fclose(f);
    return value;
}

static usage_t usage_of(int pid)
{
    usage_t u = {status_field(pid, "Threads"), 0, status_field(pid, "VmRSS")};
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", pid);
    DIR *d = opendir(path);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;)
        u.fds += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return u;
}

/* One cycle: attach hello, detach it with the command, confirm it is gone. */
static void cycle(app_t *a, const char *pid, int i)
{
    const char *out;
    int rc = run_cli(&out, "attach", pid, profiler_path("hello"), NULL);
    ASSERT_MSG(rc == 0, "cycle %d: attach failed with %d:\n%s", i, rc, out);
    rc = run_cli(&out, "detach", pid, NULL);
    ASSERT_MSG(rc == 0, "cycle %d: detach failed with %d:\n%s", i, rc, out);
    ASSERT_MSG(!app_maps_contains(a, "libhello_profiler.so"), "cycle %d: still mapped", i);
}

TEST(fifty_attach_detach_cycles_leave_threads_files_and_memory_bounded)
{
    app_t a;
    char pid[16];
    app_start(&a, NULL);
    snprintf(pid, sizeof pid, "%d", (int)a.pid);
    for (int i = 0; i < WARMUP; i++)
        cycle(&a, pid, i);
    app_command(&a, "gc 2", 10000);
    usage_t base = usage_of(a.pid);
    for (int i = WARMUP; i < CYCLES; i++)
        cycle(&a, pid, i);
    app_command(&a, "gc 2", 10000);
    usage_t end = usage_of(a.pid);
    printf("after %d warm-up cycles: threads=%ld fds=%ld rss=%ld KiB; after %d cycles: threads=%ld "
           "fds=%ld rss=%ld KiB (rss %+ld KiB)\n", WARMUP, base.threads, base.fds, base.rss_kib,
           CYCLES, end.threads, end.fds, end.rss_kib, end.rss_kib - base.rss_kib);
    ASSERT_MSG(end.threads <= base.threads + THREAD_SLACK, "threads grew %ld -> %ld", base.threads, end.threads);
    ASSERT_MSG(end.fds <= base.fds + FD_SLACK, "open files grew %ld -> %ld", base.fds, end.fds);
    ASSERT_MSG(end.rss_kib <= base.rss_kib + RSS_SLACK_KIB, "rss grew %ld -> %ld KiB", base.rss_kib, end.rss_kib);
    ASSERT_EQ(app_log_count(&a, "InitializeForAttach"), CYCLES);
    ASSERT_EQ(app_log_count(&a, "clrprof: library unloaded"), CYCLES);
    app_assert_responsive(&a);
    app_stop(&a);
}
