/* signal_wall.c - the signal method's wall and stack modes: no timers; the sampling thread
 * queues the signal itself (rt_tgsigqueueinfo, so the value names the slot) to a bounded batch
 * of threads each tick, round robin over every thread of the process, as async-profiler's wall
 * mode does. Whether a thread was running is read from /proc/self/task/TID/status right before
 * it is signalled ('R': running or runnable; anything else: blocked, marked [blocked] as the walk
 * sampler's wall mode marks it). A thread signalled every Nth tick weighs N ticks.
 * stack mode signals every thread twice (the first round learns the stacks) and is done when
 * each has written its record.
 */
#define _GNU_SOURCE
#include "signal_sampler.h"
#include "common/mono_clock.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SNAPSHOT_WAIT_NS 500000000ULL /* a thread that never takes its signal (blocked mask) */

/* Thread tid's state from /proc/self/task/TID/status: whether it is not running now (State
 * other than R) and whether it blocks signo (SigBlk; the SDK's own threads block every signal,
 * and a signal queued to them would stay pending until they end, holding up the detach).
 * 0 when it cannot be read (gone). */
static int thread_state(int tid, int signo, int *blocked, int *masked)
{
    char path[64], buf[2048];
    snprintf(path, sizeof path, "/proc/self/task/%d/status", tid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = '\0';
    const char *state = strstr(buf, "\nState:"), *mask = strstr(buf, "\nSigBlk:");
    if (!state || !mask)
        return 0;
    state += 8;
    state += strspn(state, " \t");
    *blocked = *state != 'R';
    *masked = (int)((strtoull(mask + 9, NULL, 16) >> (signo - 1)) & 1);
    return 1;
}

/* Queues our signal to slot's thread with value; 0 or -1 (the thread is gone). */
static int queue(sig_sampler_t *g, int tid, int value)
{
    siginfo_t si;
    memset(&si, 0, sizeof si);
    si.si_signo = g->signo;
    si.si_code = SI_QUEUE;
    si.si_pid = getpid();
    si.si_uid = getuid();
    si.si_value.sival_int = value;
    if (syscall(SYS_rt_tgsigqueueinfo, getpid(), tid, g->signo, &si) != 0)
        return -1;
    g->queued++;
    return 0;
}

/* Threads with a slot now. */
static int live_slots(const sig_sampler_t *g)
{
    int n = 0;
    for (int i = 0; i < SAMPLER_MAX_THREADS; i++)
        n += g->slots[i].tid != 0;
    return n;
}

void sig_wall_tick(sampler_t *s)
{
    sig_sampler_t *g = s->sig;
    int live = live_slots(g);
    if (live == 0)
        return;
    int rounds = (live + SIG_WALL_BATCH - 1) / SIG_WALL_BATCH; /* ticks between two visits */
    int sent = 0, i = g->wall_next;
    for (int looked = 0; looked < SAMPLER_MAX_THREADS && sent < SIG_WALL_BATCH; looked++) {
        i = (i + 1) % SAMPLER_MAX_THREADS;
        int tid = g->slots[i].tid;
        if (!tid)
            continue;
        int blocked = 0, masked = 0;
        if (!thread_state(tid, g->signo, &blocked, &masked) || masked)
            continue; /* gone, or it would never take the signal */
        if (queue(g, tid, SIG_VALUE(i, blocked, rounds - 1)) != 0)
            g->timer_errors++;
        sent++;
    }
    g->wall_next = i;
}

/* Signals every thread once. */
static void signal_all(sig_sampler_t *g)
{
    for (int i = 0; i < SAMPLER_MAX_THREADS; i++) {
        int blocked = 0, masked = 0;
        if (g->slots[i].tid && thread_state(g->slots[i].tid, g->signo, &blocked, &masked) &&
            !masked && queue(g, g->slots[i].tid, SIG_VALUE(i, 0, 0)) != 0)
            g->timer_errors++;
    }
    g->snapshot_head = g->queued;
    g->snapshot_ns = mono__ns();
}

/* Two rounds: the first only teaches the drain where each thread's stack is (the handler
 * walks no further than the leaf without it, see store_record), the second is the snapshot. */
void sig_stack_tick(sampler_t *s)
{
    sig_sampler_t *g = s->sig;
    if (g->stack_round == 0 || (g->stack_round == 1 && g->tail >= g->snapshot_head)) {
        g->stack_round++;
        signal_all(g);
    }
}

/* Under s->lock after a drain: every signal the snapshot sent was drained (only these signals
 * write in stack mode), or a thread that never takes it (its mask blocks it) was waited for. */
void sig_stack_check(sampler_t *s)
{
    sig_sampler_t *g = s->sig;
    if (g->stack_round == 1 && mono__ns() - g->snapshot_ns > SNAPSHOT_WAIT_NS)
        g->snapshot_head = g->tail; /* go on without the thread that never answered */
    if (g->stack_round == 2 && (g->tail >= g->snapshot_head ||
                                mono__ns() - g->snapshot_ns > SNAPSHOT_WAIT_NS))
        s->snapshot_done = 1;
}
