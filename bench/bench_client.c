/* bench_client.c - the trigger side of the benchmarks that time single calls of libclrattach.
 *
 *   bench_client attach PID PROFILER CLSID DATA   one attach; prints "T0 T1" (CLOCK_MONOTONIC
 *                                                  ns before and after clra_profiler_attach),
 *                                                  the clock floor_profiler stamps in the target;
 *                                                  with bench/floor_stamps.c preloaded, also the
 *                                                  moment connect returned
 *   bench_client attach-warm ...                   the same after one ProcessInfo request, so the
 *                                                  library's code and the process are warm, as in
 *                                                  a long-lived agent
 *   bench_client info|env PID N                    N ProcessInfo or environment requests after
 *                                                  20 unmeasured ones; prints each one's ns
 *
 * bench/run turns these into the table; the managed anchor (bench/anchor) prints the same.
 */
#define _GNU_SOURCE
#include "clrattach.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define WARMUP 20
#define TIMEOUT_MS 10000

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int fail(const char *what, int rc, const clra_status_t *st)
{
    fprintf(stderr, "bench_client: %s: %s (hresult 0x%08X) %s\n", what, clra_strerror(rc),
            (unsigned)st->hresult, st->detail);
    return 1;
}

/* One attach, stamped on the clock the profiler in the target stamps too. */
static int bench_attach(int warm, int pid, const char *path, const char *clsid_text,
                        const char *data)
{
    clra_target_t target = clra_target_pid(pid);
    clra_status_t st;
    clra_guid_t clsid;
    if (clra_guid_parse(clsid_text, &clsid) != 0) {
        fprintf(stderr, "bench_client: bad CLSID %s\n", clsid_text);
        return 2;
    }
    clra_process_info_t info;
    if (warm && clra_process_info_get(&target, TIMEOUT_MS, &info, &st) == 0)
        clra_process_info_free(&info);
    long long t0 = now_ns();
    int rc = clra_profiler_attach(&target, &clsid, path, data, strlen(data), 10000, 0,
                                  TIMEOUT_MS, &st);
    long long t1 = now_ns();
    if (rc != 0)
        return fail("attach", rc, &st);
    const long long *stamps = dlsym(RTLD_DEFAULT, "clra_bench_stamps");
    printf("%lld %lld %lld\n", t0, t1, stamps ? stamps[2] : 0);
    return 0;
}

/* One request of the kind asked for, freed at once. */
static int one_request(int env, int pid, clra_status_t *st)
{
    clra_target_t target = clra_target_pid(pid);
    if (env) {
        clra_environment_t e;
        int rc = clra_environment_get(&target, TIMEOUT_MS, &e, st);
        if (rc == 0)
            clra_environment_free(&e);
        return rc;
    }
    clra_process_info_t info;
    int rc = clra_process_info_get(&target, TIMEOUT_MS, &info, st);
    if (rc == 0)
        clra_process_info_free(&info);
    return rc;
}

/* Request after request, as a monitoring agent polling one process would. */
static int bench_requests(int env, int pid, int n)
{
    clra_status_t st;
    for (int i = -WARMUP; i < n; i++) {
        long long t0 = now_ns();
        int rc = one_request(env, pid, &st);
        if (rc != 0)
            return fail(env ? "environment" : "process info", rc, &st);
        if (i >= 0)
            printf("%lld\n", now_ns() - t0);
    }
    return 0;
}

int main(int argc, char **argv)
{
    int warm = argc == 6 && strcmp(argv[1], "attach-warm") == 0;
    if (argc == 6 && (warm || strcmp(argv[1], "attach") == 0))
        return bench_attach(warm, atoi(argv[2]), argv[3], argv[4], argv[5]);
    if (argc == 4 && (strcmp(argv[1], "info") == 0 || strcmp(argv[1], "env") == 0))
        return bench_requests(strcmp(argv[1], "env") == 0, atoi(argv[2]), atoi(argv[3]));
    fprintf(stderr, "usage: bench_client attach|attach-warm PID PROFILER CLSID DATA\n"
                    "       bench_client info|env PID N\n");
    return 2;
}
