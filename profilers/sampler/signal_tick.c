/* signal_tick.c - the signal method's sampling thread: starts the timers, rescans the threads
 * every second, and moves what the handlers wrote from the ring into the store, naming the IPs
 * (a return address is looked up one byte back, inside the call that made it; a frame the walk
 * found in a frame-pointer gap stays only where its names fit, unwind_inserted.c). Each sample
 * weighs the timer periods of CPU it stands for (one, plus the expiries the kernel merged into
 * it: CPU timers fire on the scheduler tick, so at high hz a period can pass unsignalled; in
 * wall mode the ticks until the round robin comes back to the thread, signal_wall.c).
 */
#define _GNU_SOURCE
#include "common/mono_clock.h"
#include "signal_sampler.h"

#include <stdio.h>
#include <string.h>

#define RESCAN_NS 1000000000ULL

/* The store's thread for a slot, named from /proc the first time. */
static int thread_index(sampler_t *s, sig_slot_t *slot, int tid)
{
    if (slot->tid != tid)
        return -1; /* gone and the slot reused: its last samples are dropped */
    if (slot->store_index < 0) {
        char path[64], name[64] = "";
        snprintf(path, sizeof path, "/proc/self/task/%d/comm", tid);
        FILE *f = fopen(path, "re");
        if (f && fgets(name, sizeof name, f))
            name[strcspn(name, "\n")] = '\0';
        if (f)
            fclose(f);
        if (!name[0])
            snprintf(name, sizeof name, "thread %d", tid);
        slot->store_index = store_thread(s->store, (DWORD)tid, name);
    }
    return slot->store_index;
}

/* Names one record's IPs and adds it to the store. */
static void store_record(sampler_t *s, const sig_record_t *r)
{
    sig_sampler_t *g = s->sig;
    sig_slot_t *slot = &g->slots[r->slot];
    uint32_t frames[SIG_MAX_DEPTH + 2];
    unsigned n = 0;
    if (__atomic_load_n(&slot->hi, __ATOMIC_ACQUIRE) == 0 && slot->tid == r->tid)
        sig_learn_stack(slot, r->tid, (uintptr_t)r->sp);
    if (s->mode == MODE_STACK && g->stack_round < 2)
        return; /* the learning round (signal_wall.c) */
    int thread = thread_index(s, slot, r->tid);
    if (thread < 0)
        return;
    for (uint32_t i = 0; i < r->depth && i < SIG_MAX_DEPTH; i++)
        frames[n++] = ip_frame(s, (uintptr_t)r->ips[i] - (i ? 1 : 0));
    n = uw_keep_inserted(frames, n, r->inserted, FRAME_UNKNOWN);
    if (r->cut)
        frames[n++] = FRAME_TRUNCATED;
    if (s->mode == MODE_WALL && (r->flags & SIG_BLOCKED)) { /* leaf first, as tick.c puts it */
        memmove(frames + 1, frames, n * sizeof *frames);
        frames[0] = FRAME_BLOCKED;
        n++;
    }
    store_add(s->store, thread, frames, n, 1, (1ULL + r->overrun) * (1000000000ULL / s->hz));
    if (s->mode == MODE_WALL && g->last)
        sig_wall_remember(g, slot, frames, n, r->flags & SIG_BLOCKED);
    g->samples++;
    g->frames += r->depth;
}

/* A record may be overwritten while it is copied (the ring lapped the drain): the copy counts
 * only if its seq is the one expected before and after. */
void sig_drain(sampler_t *s)
{
    sig_sampler_t *g = s->sig;
    static sig_record_t copy; /* only the sampling thread or a detach (under the gate) drains */
    uint64_t head = __atomic_load_n(&g->head, __ATOMIC_ACQUIRE);
    if (!g->ring)
        return;
    if (head - g->tail > SIG_RING) { /* lapped: the oldest are gone */
        g->lost += head - g->tail - SIG_RING;
        g->tail = head - SIG_RING;
    }
    for (; g->tail < head; g->tail++) {
        sig_record_t *r = &g->ring[g->tail & (SIG_RING - 1)];
        uint64_t seq = __atomic_load_n(&r->seq, __ATOMIC_ACQUIRE);
        if (seq == 0 || seq < g->tail + 1)
            break; /* still being written: the next drain takes it */
        if (seq == g->tail + 1) {
            memcpy(&copy, r, sizeof copy);
            __atomic_thread_fence(__ATOMIC_ACQUIRE);
            if (__atomic_load_n(&r->seq, __ATOMIC_RELAXED) == seq && copy.slot >= 0 &&
                copy.slot < SAMPLER_MAX_THREADS) {
                store_record(s, &copy);
                continue;
            }
        }
        g->lost++;
    }
}

void sig_tick(sampler_t *s)
{
    sig_sampler_t *g = s->sig;
    s->ticks++;
    if (!g->installed) {
        if (sig_start(s) != 0) {
            s->last_error = E_FAIL;
            return;
        }
    } else if (mono__ns() - g->last_scan_ns >= RESCAN_NS ||
               __atomic_exchange_n(&s->threads_changed, 0, __ATOMIC_RELAXED)) {
        sig_rescan(s);
    }
    pthread_mutex_lock(&s->lock);
    sig_drain(s);
    if (s->mode == MODE_STACK)
        sig_stack_check(s);
    pthread_mutex_unlock(&s->lock);
    if (s->mode == MODE_WALL)
        sig_wall_tick(s);
    else if (s->mode == MODE_STACK)
        sig_stack_tick(s);
}
