/* Stress (ctest label stress, registered once): attach-profile-detach cycles of the signal
 * sampler against one tests/apps/hot --modes process (issue 25). Each cycle starts `clrattach
 * profile`, waits until the app catches one signal more (the sampler's handler is in), stops it
 * with Ctrl-C and checks the detach left nothing: library unmapped, SigCgt as before, no POSIX
 * timer more. CI runs 100 cycles; CLRA_PROFILE_CYCLES=N or CLRA_RELIABILITY_FULL=1 (1,000)
 * more. The app must live through all of them with its descriptors, mappings and anonymous
 * memory within bounds. */
#define _GNU_SOURCE
#include "bg_cli.h"
#include "harness.h"
#include "hot_app.h"
#include "proc_status.h"
#include "reliability.h"
#include "test.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SAMPLER_SO "libsampler_profiler.so"
/* SigCgt bits of the real-time signals the sampler may take (SIGRTMIN+5..SIGRTMAX-2, bit
 * signo-1): the runtime adds handlers of its own (SIGCHLD, SIGCONT) at its own pace. */
#define SAMPLER_SIGNALS (((1ULL << 62) - 1) & ~((1ULL << 38) - 1))
/* The app's anonymous memory (RssAnon), from the end of cycle WARMUP on. Measured (300
 * cycles, docs/profiling.md): it grows in glibc's malloc arenas by about 7 MiB over the first
 * 150 cycles and then by 2 to 3 KiB a cycle, the same with the hello profiler, which does
 * nothing (the runtime's own attach and the app's warm-up), and the same unprofiled over the
 * same time; the sampler's buffers are mappings returned whole at the detach (pages_linux.c). So:
 * at most RAMP_KIB plus KIB_PER_CYCLE a cycle over the run, and from 300 cycles on, at most
 * LATE_KIB_PER_CYCLE a cycle over the second half, where a leak of a few pages a cycle shows. */
#define WARMUP 10
#define RAMP_KIB (12 * 1024)
#define KIB_PER_CYCLE 16
#define LATE_KIB_PER_CYCLE 8

/* The real-time handlers the app has, of those the sampler may install. */
static unsigned long long sampler_bits(int pid)
{
    return proc_status_field(pid, "SigCgt", 16) & SAMPLER_SIGNALS;
}

/* One cycle; returns its milliseconds. */
static double cycle(app_t *a, unsigned long long caught, long timers, int i)
{
    bg_t b;
    double t0 = rel_now_ms();
    bg_start(&b, "profile", "--duration", "60", "--format", "folded", "--output",
             out_path(a, "cycle.folded"), app_pid_text(a), NULL);
    while (sampler_bits(a->pid) == caught && rel_now_ms() - t0 < 15000)
        usleep(2000);
    ASSERT_MSG(sampler_bits(a->pid) != caught, "cycle %d: no handler within 15 s:\n%s", i, b.out);
    while (!(proc_status_field(b.pid, "SigCgt", 16) & (1ULL << (SIGINT - 1))) &&
           rel_now_ms() - t0 < 15000)
        usleep(1000); /* profile handles Ctrl-C from when the sampler is attached on */
    kill(b.pid, SIGINT);
    int rc = bg_finish(&b, 30000);
    ASSERT_MSG(rc == 0, "cycle %d: profile exited %d:\n%s", i, rc, b.out);
    ASSERT_MSG(!app_maps_contains(a, SAMPLER_SO), "cycle %d: the sampler is still mapped", i);
    ASSERT_MSG(sampler_bits(a->pid) == caught, "cycle %d: real-time handlers %llx, were %llx", i,
               sampler_bits(a->pid), caught);
    ASSERT_MSG(proc_lines(a->pid, "timers", "ID:") == timers, "cycle %d: %ld timers, were %ld",
               i, proc_lines(a->pid, "timers", "ID:"), timers);
    return rel_now_ms() - t0;
}

TEST(signal_profile_attach_profile_detach_cycles_leave_nothing_behind)
{
    app_t a;
    const char *env = getenv("CLRA_PROFILE_CYCLES");
    int n = env && atoi(env) > 0 ? atoi(env) : rel_count(100, 1000);
    hot_start(&a, "--modes");
    unsigned long long caught = sampler_bits(a.pid);
    long timers = proc_lines(a.pid, "timers", "ID:"), fd0 = proc_fd_count(a.pid);
    long maps0 = proc_lines(a.pid, "maps", ""), rss0 = 0, rss_half = 0;
    double total = 0, longest = 0;
    for (int i = 0; i < n; i++) {
        double ms = cycle(&a, caught, timers, i);
        total += ms;
        longest = ms > longest ? ms : longest;
        ASSERT_MSG(kill(a.pid, 0) == 0, "the app died in cycle %d", i);
        if (i + 1 == WARMUP)
            rss0 = (long)proc_status_field(a.pid, "RssAnon", 10);
        if (i + 1 == n / 2)
            rss_half = (long)proc_status_field(a.pid, "RssAnon", 10);
        if ((i + 1) % 100 == 0 && i + 1 < n) /* a long run shows how far it got */
            printf("cycles=%d mean_ms=%.0f longest_ms=%.0f\n", i + 1, total / (i + 1), longest),
                fflush(stdout);
    }
    long fd1 = proc_fd_count(a.pid), maps1 = proc_lines(a.pid, "maps", "");
    long rss1 = (long)proc_status_field(a.pid, "RssAnon", 10);
    double late = (double)(rss1 - rss_half) / (n - n / 2);
    REL_FIGURE("stress.profile_cycles cycles=%d mean_ms=%.0f longest_ms=%.0f fds=%ld->%ld "
               "maps=%ld->%ld anon_kib=%ld->%ld->%ld (after cycles %d, %d, %d; second half "
               "%.1f KiB a cycle)", n, total / n, longest, fd0, fd1, maps0, maps1, rss0, rss_half,
               rss1, WARMUP, n / 2, n, late);
    ASSERT_MSG(fd1 <= fd0 + 16, "descriptors %ld -> %ld", fd0, fd1);
#ifdef CLRA_ASAN_PRELOAD
    /* Sanitized, every malloc of the process (the runtime's too: libasan is preloaded) goes
     * through ASan's allocator: its quarantine holds what was freed (anonymous memory 1.7 MiB
     * a cycle, 110 KiB with quarantine_size_mb=0) and it keeps the regions it mapped (415 ->
     * 559 mappings in 100 cycles, with or without quarantine), though the sampler's own
     * buffers are mapped and unmapped by pages_linux.c. Only the per-cycle checks hold here; the
     * uninstrumented build bounds the memory and the count. */
    test_note("mappings %ld -> %ld, anonymous %ld -> %ld KiB (ASan's quarantine)", maps0, maps1,
              rss0, rss1);
#else
    ASSERT_MSG(maps1 <= maps0 + 64, "mappings %ld -> %ld", maps0, maps1);
    if (n > WARMUP)
        ASSERT_MSG(rss1 - rss0 <= RAMP_KIB + (long)KIB_PER_CYCLE * (n - WARMUP), "anonymous "
                   "memory %ld -> %ld KiB over %d cycles", rss0, rss1, n - WARMUP);
    if (n >= 300)
        ASSERT_MSG(late <= LATE_KIB_PER_CYCLE, "anonymous memory %ld -> %ld KiB over the last "
                   "%d cycles: %.1f KiB a cycle", rss_half, rss1, n - n / 2, late);
#endif
    app_stop(&a);
}
