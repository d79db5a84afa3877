/* End-to-end: many attach/detach cycles must leave the process as it was. The bounds are
 * stated here and the figures printed, so a slow leak shows up as numbers, not just a failure. */
#define _GNU_SOURCE
#include "harness.h"
#include "proc_status.h"
#include "test.h"

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

/* The three resources a leaking attach would grow. */
static usage_t usage_of(int pid)
{
    usage_t u = {(long)proc_status_field(pid, "Threads", 10), proc_fd_count(pid),
                 (long)proc_status_field(pid, "VmRSS", 10)};
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
