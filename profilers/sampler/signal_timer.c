/* signal_timer.c - the signal method's signal, threads and timers: a real-time signal no one
 * handles, one CPU-time timer per thread of the process (found in /proc/self/task, rescanned
 * every second), and a stop that leaves nothing behind: timers deleted, no signal of ours
 * pending or in a handler, the old disposition back, before the library may unload.
 */
#define _GNU_SOURCE
#include "common/mono_clock.h"
#include "pages.h"
#include "signal_sampler.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define STOP_DEADLINE_MS 1000

/* CoreCLR takes SIGRTMIN for activation injection, glibc the two below it; an app or library
 * may take others. The first real-time signal from the top whose disposition is the default. */
int sig_choose(void)
{
#if defined(__x86_64__) || defined(__aarch64__)
    for (int signo = SIGRTMAX - 2; signo > SIGRTMIN + 4; signo--) {
        struct sigaction cur;
        if (sigaction(signo, NULL, &cur) == 0 && !(cur.sa_flags & SA_SIGINFO) &&
            cur.sa_handler == SIG_DFL)
            return signo;
    }
#endif
    return -1;
}

/* Whether /proc/self is this process as it sees itself: in a PID namespace whose /proc is
 * the parent's, /proc/self/task lists tids the kernel's calls (timers, signals, gettid) do not
 * know here, and the signal method would sample nothing. */
int sig_proc_matches(void)
{
    char path[64], link[32];
    ssize_t n = readlink("/proc/self", link, sizeof link - 1);
    if (n <= 0)
        return 0;
    link[n] = '\0';
    snprintf(path, sizeof path, "/proc/self/task/%ld", (long)syscall(SYS_gettid));
    return atol(link) == (long)getpid() && access(path, F_OK) == 0;
}

/* Takes a slot for thread tid; in cpu mode with a timer on the thread's CPU clock that
 * signals that thread every period (the clock id is the kernel's per-thread CPU clock
 * encoding, as pthread_getcpuclockid makes it). */
static int arm(sig_sampler_t *g, int index, int tid, long period_ns)
{
    sig_slot_t *slot = &g->slots[index];
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = g->signo;
    sev.sigev_notify_thread_id = tid;
    sev.sigev_value.sival_int = index;
    clockid_t clk = (clockid_t)((~(unsigned)tid << 3) | 6);
    look_forget(slot);
    slot->lo = 0;
    __atomic_store_n(&slot->hi, 0, __ATOMIC_RELEASE);
    slot->store_index = -1;
    __atomic_store_n(&slot->tid, tid, __ATOMIC_RELEASE);
    if (!g->timers)
        return 0; /* wall and stack modes queue their signals (signal_wall.c) */
    if (timer_create(clk, &sev, &slot->timer) != 0) {
        __atomic_store_n(&slot->tid, 0, __ATOMIC_RELEASE);
        return -1; /* the thread exited meanwhile */
    }
    struct timespec every = {period_ns / 1000000000L, period_ns % 1000000000L};
    struct itimerspec its = {every, every};
    if (timer_settime(slot->timer, 0, &its, NULL) != 0) {
        timer_delete(slot->timer);
        __atomic_store_n(&slot->tid, 0, __ATOMIC_RELEASE);
        return -1;
    }
    slot->armed = 1;
    return 0;
}

/* Deletes a slot's timer (the kernel drops its pending signal with it) and frees the slot. */
static void disarm(sig_slot_t *slot)
{
    if (slot->armed)
        timer_delete(slot->timer);
    slot->armed = 0;
    __atomic_store_n(&slot->tid, 0, __ATOMIC_RELEASE);
    look_forget(slot);
}

/* When thread tid started (clock ticks since boot, /proc/self/task/TID/stat field 22), 0 if
 * gone: a tid reused by a new thread between two scans must not keep the old one's slot. */
static unsigned long long start_time(int tid)
{
    char path[64], line[512];
    unsigned long long start = 0;
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
    FILE *f = fopen(path, "re");
    if (f && fgets(line, sizeof line, f)) {
        const char *p = strrchr(line, ')'); /* the name before it may hold spaces */
        if (p && sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
                        "%*d %*d %*d %*d %llu", &start) != 1)
            start = 0;
    }
    if (f)
        fclose(f);
    return start;
}

/* Arms a timer for tid unless it has one; marks its slot seen. */
static void adopt(sampler_t *s, int tid, long period_ns)
{
    sig_sampler_t *g = s->sig;
    unsigned long long start = start_time(tid);
    int free_slot = -1;
    for (int i = 0; i < SAMPLER_MAX_THREADS; i++) {
        if (g->slots[i].tid == tid && g->slots[i].start == start) {
            g->slots[i].seen = 1;
            return;
        }
        if (g->slots[i].tid == tid)
            disarm(&g->slots[i]); /* the tid of a thread gone, reused */
        if (free_slot < 0 && g->slots[i].tid == 0)
            free_slot = i;
    }
    if (free_slot < 0 || !start)
        return;
    g->slots[free_slot].start = start;
    if (arm(g, free_slot, tid, period_ns) == 0)
        g->slots[free_slot].seen = 1;
    else
        g->timer_errors++;
}

void sig_rescan(sampler_t *s)
{
    sig_sampler_t *g = s->sig;
    long period_ns = 1000000000L / (long)s->hz;
    sig_unwind_refresh(g);
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return;
    for (int i = 0; i < SAMPLER_MAX_THREADS; i++)
        g->slots[i].seen = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int tid = atoi(e->d_name);
        if (tid > 0 && tid != g->self_tid)
            adopt(s, tid, period_ns);
    }
    closedir(d);
    g->live = g->slots_end = 0;
    for (int i = 0; i < SAMPLER_MAX_THREADS; i++) {
        if (g->slots[i].tid && !g->slots[i].seen)
            disarm(&g->slots[i]);
        if (g->slots[i].tid)
            g->live++, g->slots_end = i + 1;
    }
    g->last_scan_ns = mono__ns();
}

int sig_start(sampler_t *s)
{
    sig_sampler_t *g = s->sig;
    struct sigaction cur, sa;
    if (sigaction(g->signo, NULL, &cur) != 0 || (cur.sa_flags & SA_SIGINFO) ||
        cur.sa_handler != SIG_DFL)
        return -1; /* taken since the attach checked it */
    if (!g->ring) {
        void *ring = mmap(NULL, SIG_RING * sizeof(sig_record_t), PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (ring == MAP_FAILED)
            return -1;
        g->ring = ring;
    }
    if (s->mode == MODE_WALL && !g->last && !(g->last = pages_alloc(SIG_LAST_BYTES)))
        return -1;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = sig_handler;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    g->self_tid = (int)syscall(SYS_gettid);
    sig_unwind_refresh(g);
    sig_publish(g);
    if (sigaction(g->signo, &sa, &g->old) != 0) {
        sig_publish(NULL);
        return -1;
    }
    g->installed = 1;
    sig_rescan(s);
    return 0;
}

/* Whether any thread has signo pending (its own or the process's queue), from
 * /proc/self/task/TID/status: SigPnd and ShdPnd are hex masks, bit signo-1. */
static int any_pending(int signo)
{
    char path[300], line[256];
    int found = 0;
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    while (d && !found && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/self/task/%s/status", e->d_name);
        FILE *f = fopen(path, "re");
        while (f && !found && fgets(line, sizeof line, f))
            if (strncmp(line, "SigPnd:", 7) == 0 || strncmp(line, "ShdPnd:", 7) == 0)
                found = (strtoull(line + 7, NULL, 16) >> (signo - 1)) & 1;
        if (f)
            fclose(f);
    }
    if (d)
        closedir(d);
    return found;
}

void sig_stop(sampler_t *s)
{
    sig_sampler_t *g = s->sig;
    if (!g || !g->installed)
        return;
    for (int i = 0; i < SAMPLER_MAX_THREADS; i++)
        disarm(&g->slots[i]);
    sig_publish(NULL);
    uint64_t deadline = mono__ns() + STOP_DEADLINE_MS * 1000000ULL;
    int pending;
    while (((pending = any_pending(g->signo)) || sig_in_flight()) && mono__ns() < deadline)
        usleep(1000);
    if (pending) { /* a thread blocking our signal: keep handling it rather than die of it */
        clrprof_log(s->p, "sampler: signal %d still pending after %d ms; handler and library "
                    "kept", g->signo, STOP_DEADLINE_MS);
        clrprof_keep_loaded(s->p);
    } else {
        sigaction(g->signo, &g->old, NULL);
        sig_unwind_free(g); /* no handler runs or can start: the maps and their pins go */
    }
    g->installed = pending;
}

/* The mapping of /proc/self/maps that holds sp is the thread's stack (glibc and the main
 * thread both give a stack its own mapping, the guard page apart). */
void sig_learn_stack(sig_slot_t *slot, int tid, uintptr_t sp)
{
    char line[512];
    FILE *f = fopen("/proc/self/maps", "re");
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        char perms[8];
        if (sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || sp < lo || sp >= hi)
            continue;
        int same = __atomic_load_n(&slot->tid, __ATOMIC_ACQUIRE) == tid;
        if (perms[0] == 'r' && perms[1] == 'w' && same) {
            slot->lo = lo;
            __atomic_store_n(&slot->hi, (uintptr_t)hi, __ATOMIC_RELEASE);
        }
        break;
    }
    if (f)
        fclose(f);
}
