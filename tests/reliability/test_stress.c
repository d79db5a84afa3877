/* test_stress.c - load against a real runtime (ctest label stress): simultaneous attaches,
 * many attach/detach cycles with the target's resources sampled against stated bounds, and
 * many concurrent info/env calls. CI runs reduced counts; CLRA_RELIABILITY_FULL=1 the full. */
#define _GNU_SOURCE
#include "harness.h"
#include "proc_status.h"
#include "reliability.h"
#include "test.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define THREAD_BOUND 4            /* threads above the warmed-up count */
#define FD_BOUND 4                /* open files above the warmed-up count */
#define RSS_BOUND_KIB (32 * 1024) /* resident memory above the warmed-up amount */

/* Runs n forked children at once, child i running argvs[i % nargvs] per_child times; counts
 * how many exited with each code (a child's code is its first failure, 0 if none). */
static void run_parallel(int n, int per_child, const char *const *const *argvs, int nargvs,
                         int codes[256])
{
    pid_t *kids = calloc((size_t)n, sizeof *kids);
    ASSERT(kids != NULL);
    memset(codes, 0, 256 * sizeof *codes);
    for (int i = 0; i < n; i++) {
        kids[i] = fork();
        ASSERT(kids[i] >= 0);
        if (kids[i] == 0) {
            const char *const *argv = argvs[i % nargvs];
            int worst = 0;
            for (int k = 0; k < per_child; k++) {
                const char *out;
                int rc = run_cli(&out, argv[0], argv[1], argv[2], argv[3], (char *)NULL);
                if (rc && !worst)
                    worst = rc;
            }
            _exit(worst);
        }
    }
    for (int i = 0; i < n; i++) {
        int status;
        ASSERT(waitpid(kids[i], &status, 0) == kids[i]);
        codes[WIFEXITED(status) ? WEXITSTATUS(status) : 255]++;
    }
    free(kids);
}

TEST(sixteen_simultaneous_attaches_give_exactly_one_success)
{
    app_t a;
    int codes[256];
    const char *out;
    app_start(&a, NULL);
    const char *argv[] = {"attach", app_pid_text(&a), profiler_path("hello"), NULL};
    const char *const *argvs[] = {argv};
    run_parallel(16, 1, argvs, 1, codes);
    REL_FIGURE("stress.attach16 ok=%d already_active=%d other=%d", codes[0], codes[10],
               16 - codes[0] - codes[10]);
    ASSERT_MSG(codes[0] == 1, "%d of 16 attaches succeeded", codes[0]);
    ASSERT_MSG(codes[10] == 15, "%d of 16 were refused (exit 10)", codes[10]);
    ASSERT_EQ(app_log_count(&a, "InitializeForAttach"), 1);
    int rc = run_cli(&out, "detach", "--timeout", "10000", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "detach after the race: exit %d: %s", rc, out);
    app_assert_responsive(&a);
    app_stop(&a);
}

/* Lines of the app's log starting with prefix, read whole (app_log_count reads a capped
 * buffer, too small for a thousand cycles). */
static int log_lines(const app_t *a, const char *prefix)
{
    char line[1024];
    int n = 0;
    FILE *f = fopen(a->log_path, "re");
    while (f && fgets(line, sizeof line, f))
        n += strncmp(line, prefix, strlen(prefix)) == 0;
    if (f)
        fclose(f);
    return n;
}

TEST(attach_detach_cycles_keep_threads_files_and_memory_within_bounds)
{
    app_t a;
    const char *out;
    int cycles = rel_count(30, 1000), warmup = 5;
    long max_threads = 0, max_fds = 0, max_rss = 0, base_threads = 0, base_fds = 0, base_rss = 0;
    app_start(&a, NULL);
    for (int i = 0; i < warmup + cycles; i++) {
        int rc = run_cli(&out, "attach", app_pid_text(&a), profiler_path("hello"), NULL);
        ASSERT_MSG(rc == 0, "cycle %d: attach exit %d: %s", i, rc, out);
        rc = run_cli(&out, "detach", app_pid_text(&a), NULL);
        ASSERT_MSG(rc == 0, "cycle %d: detach exit %d: %s", i, rc, out);
        if (i + 1 == warmup || (i >= warmup && (i - warmup) % 10 == 9)) {
            app_command(&a, "gc 2", 10000);
            long t = (long)proc_status_field(a.pid, "Threads", 10), f = proc_fd_count(a.pid);
            long r = (long)proc_status_field(a.pid, "VmRSS", 10);
            if (i + 1 == warmup) {
                base_threads = t, base_fds = f, base_rss = r;
            } else {
                max_threads = t > max_threads ? t : max_threads;
                max_fds = f > max_fds ? f : max_fds;
                max_rss = r > max_rss ? r : max_rss;
            }
        }
    }
    REL_FIGURE("stress.cycles cycles=%d threads=%ld->%ld fds=%ld->%ld rss_kib=%ld->%ld "
               "bounds=+%d/+%d/+%d", cycles, base_threads, max_threads, base_fds, max_fds,
               base_rss, max_rss, THREAD_BOUND, FD_BOUND, RSS_BOUND_KIB);
    ASSERT_MSG(max_threads <= base_threads + THREAD_BOUND, "threads %ld -> %ld", base_threads,
               max_threads);
    ASSERT_MSG(max_fds <= base_fds + FD_BOUND, "fds %ld -> %ld", base_fds, max_fds);
    ASSERT_MSG(max_rss <= base_rss + RSS_BOUND_KIB, "rss %ld -> %ld KiB", base_rss, max_rss);
    ASSERT_EQ(log_lines(&a, "clrprof: library unloaded"), warmup + cycles);
    app_assert_responsive(&a);
    app_stop(&a);
}

TEST(eight_clients_calling_info_and_env_concurrently_all_succeed)
{
    app_t a;
    int codes[256];
    int calls = rel_count(25, 200);
    app_start(&a, NULL);
    const char *info[] = {"info", "--json", app_pid_text(&a), NULL};
    const char *env[] = {"env", "--json", app_pid_text(&a), NULL};
    const char *const *argvs[] = {info, env};
    double t0 = rel_now_ms();
    run_parallel(8, calls, argvs, 2, codes);
    int ok = codes[0];
    REL_FIGURE("stress.info_env clients=8 calls_each=%d clients_ok=%d ms=%.0f", calls, ok,
               rel_now_ms() - t0);
    ASSERT_MSG(ok == 8, "%d of 8 clients had every call succeed", ok);
    app_assert_responsive(&a);
    app_stop(&a);
}
