/* signal_wall.c - the signal method's wall and stack modes: no timers; the sampling thread
 * queues the signal itself (rt_tgsigqueueinfo, so the value names the slot) to a bounded batch
 * of threads each tick, round robin over every thread of the process, as async-profiler's wall
 * mode does. Whether a thread was running is read from /proc/self/task/TID/stat right before
 * it is signalled ('R': running or runnable; anything else: blocked, marked [blocked] as the walk
 * sampler's wall mode marks it). A thread signalled every Nth tick weighs N ticks.
 * A blocked thread that has not been scheduled in since its last sample is not signalled: that
 * sample is stored again: most threads of a service wait, and every signal wakes the thread
 * it reaches.
 * stack mode signals every thread twice (the first round learns the stacks) and is done when
 * each has written its record.
 */
#define _GNU_SOURCE
#include "signal_sampler.h"
#include "common/mono_clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SNAPSHOT_WAIT_NS 500000000ULL /* a thread that never takes its signal (blocked mask) */

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

void sig_wall_remember(sig_sampler_t *g, sig_slot_t *slot, const uint32_t *frames, unsigned n,
                       int blocked)
{
    slot->awaiting = 0;
    slot->fresh_ns = mono__ns();
    slot->last_n = blocked && n <= SIG_LAST_CAP ? n : 0;
    if (slot->last_n)
        memcpy(g->last + (size_t)(slot - g->slots) * SIG_LAST_CAP, frames, n * sizeof *frames);
}

/* A thread taken blocked that was not scheduled in since (its count is the one the signal's
 * own wake-up left) is where it was: its last sample is stored again, weighing what a signalled
 * one would, and the thread is not woken. Every SIG_WALL_FRESH_NS it is signalled anyway, which
 * bounds what a wake-up racing the signal could leave stale. 1 when stored. */
static int repeat_unchanged(sampler_t *s, sig_slot_t *slot, uint64_t scheduled, int rounds,
                            uint64_t now)
{
    sig_sampler_t *g = s->sig;
    if (slot->awaiting || !slot->last_n || slot->store_index < 0 || !slot->sched_next ||
        scheduled != slot->sched_next || now - slot->fresh_ns >= SIG_WALL_FRESH_NS)
        return 0;
    pthread_mutex_lock(&s->lock);
    store_add(s->store, slot->store_index, g->last + (size_t)(slot - g->slots) * SIG_LAST_CAP,
              slot->last_n, 1, (uint64_t)rounds * (1000000000ULL / s->hz));
    pthread_mutex_unlock(&s->lock);
    g->samples++;
    g->repeated++;
    return 1;
}

/* Signals one thread: whether it runs now goes with the signal, and a blocked one is expected
 * to be scheduled in exactly once more, by the signal itself. */
static void signal_one(sig_sampler_t *g, int i, uint64_t scheduled, int rounds)
{
    sig_slot_t *slot = &g->slots[i];
    int blocked = 0;
    if (look_blocked(slot, slot->tid, &blocked) != 0)
        return; /* gone */
    if (queue(g, slot->tid, SIG_VALUE(i, blocked, rounds - 1)) != 0) {
        g->timer_errors++;
        return;
    }
    slot->awaiting = 1;
    slot->sched_next = blocked ? scheduled + 1 : 0;
}

void sig_wall_tick(sampler_t *s)
{
    sig_sampler_t *g = s->sig;
    if (g->live == 0)
        return;
    int rounds = (g->live + SIG_WALL_BATCH - 1) / SIG_WALL_BATCH; /* ticks between two visits */
    int sent = 0, i = g->wall_next;
    uint64_t now = mono__ns(), scheduled;
    for (int looked = 0; looked < g->slots_end && sent < SIG_WALL_BATCH; looked++) {
        i = (i + 1) % g->slots_end; /* the slots in use lie below slots_end */
        sig_slot_t *slot = &g->slots[i];
        if (!slot->tid || look_masked(slot, slot->tid, g->signo, now) != 0 ||
            look_scheduled(slot, slot->tid, &scheduled) != 0)
            continue; /* gone, or it would never take the signal */
        if (!repeat_unchanged(s, slot, scheduled, rounds, now))
            signal_one(g, i, scheduled, rounds);
        sent++;
    }
    g->wall_next = i;
}

/* Signals every thread once. */
static void signal_all(sig_sampler_t *g)
{
    uint64_t now = mono__ns();
    for (int i = 0; i < SAMPLER_MAX_THREADS; i++) {
        sig_slot_t *slot = &g->slots[i];
        if (slot->tid && look_masked(slot, slot->tid, g->signo, now) == 0 &&
            queue(g, slot->tid, SIG_VALUE(i, 0, 0)) != 0)
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
