/* signal_sampler.h - the signal-driven cpu sampler (method=signal, Linux x86-64).
 *
 * Each thread of the process gets a POSIX timer on its own CPU-time clock that sends a real-time
 * signal to that thread every 1/hz seconds of CPU it consumes, so samples are proportional to CPU
 * and an idle thread gets none. The handler (signal_walk.c) only walks the interrupted stack
 * (unwind.h: CFI in native modules, frame pointers elsewhere, validated against the thread's
 * stack) into a preallocated ring; the sampling thread (signal_tick.c) drains the ring, names
 * the IPs (native_names_linux.c) and adds the stacks to the store. signal_timer.c owns the signal, the
 * threads and their timers; signal_unwind.c the module map the walk reads.
 */
#ifndef SIGNAL_SAMPLER_H
#define SIGNAL_SAMPLER_H

#include "sampler.h"
#include "unwind.h"

#include <signal.h>
#include <stdint.h>
#include <time.h>

#define SIG_MAX_DEPTH 128 /* frames one signal walk records, leaf included */
#define SIG_RING 4096     /* records in the ring (a power of two) */
#define SIG_RETIRED 32    /* module maps kept until the stop (libraries loaded while sampling) */
#define SIG_WALL_BATCH 16 /* threads a wall tick signals at most (round robin) */
#define SIG_WALL_FRESH_NS 100000000ULL /* a repeated wall sample is signalled afresh after */
#define SIG_BLOCKED 1u    /* sig_record_t.flags */
#define SIG_LAST_CAP (SIG_MAX_DEPTH + 2) /* a stored sample's frames: the walk, cut, blocked */
#define SIG_LAST_BYTES (SAMPLER_MAX_THREADS * SIG_LAST_CAP * sizeof(uint32_t))

/* A queued wall or stack signal's value: the slot, whether the thread was blocked when the tick
 * looked, and how many ticks the sample stands for less one (the handler files it as overrun). */
#define SIG_VALUE(slot, blocked, extra) ((int)((unsigned)(slot) | (blocked) << 16 | (extra) << 17))
#define SIG_VALUE_SLOT(v) ((int)((unsigned)(v) & 0xFFFFu))
#define SIG_VALUE_BLOCKED(v) (((unsigned)(v) >> 16) & 1u)
#define SIG_VALUE_EXTRA(v) ((int)(((unsigned)(v) >> 17) & 0x3FFFu))

/* One sample as the handler wrote it. seq is the ring index + 1 once complete, 0 while written. */
typedef struct sig_record {
    uint64_t seq;
    int32_t slot, tid;
    uint32_t depth;
    uint32_t cut;     /* the walk stopped at SIG_MAX_DEPTH */
    uint32_t overrun; /* periods the timer expired again before this signal was delivered */
    uint32_t flags;   /* SIG_BLOCKED: a wall sample of a thread that was not running */
    uint64_t sp;  /* the interrupted stack pointer: how the drain learns an unknown stack */
    uint64_t ips[SIG_MAX_DEPTH];
    uint64_t inserted[UW_MASK_WORDS(SIG_MAX_DEPTH)]; /* bit i: ips[i] found in a gap (uw_walk) */
} sig_record_t;

/* One sampled thread. tid is 0 for a free slot; lo/hi its stack mapping (hi 0: not known yet).
 * The handler reads tid, lo and hi; only the sampling thread writes them. */
typedef struct sig_slot {
    int tid;
    uintptr_t lo, hi;
    unsigned long long start; /* the thread's start time: tells a reused tid apart */
    timer_t timer;
    int armed, seen;
    int store_index; /* the thread in the store, -1 until its first sample is stored */
    /* wall mode (signal_look.c, signal_wall.c); look_forget clears them */
    int fd_sched, fd_stat;   /* schedstat and stat kept open: fd + 1, 0 none */
    int masked;              /* SigBlk holds our signal, as read at mask_ns */
    uint64_t mask_ns;
    int awaiting;            /* a signal was sent and its record is not drained yet */
    uint64_t sched_next;     /* the schedstat count the thread shows if it has not run since
                              * its last sample (taken blocked), 0 when that is not known */
    uint64_t fresh_ns;       /* when its last signalled sample was drained */
    unsigned last_n;         /* frames of that sample in sig_sampler_t.last, 0 none */
} sig_slot_t;

typedef struct sig_sampler {
    int signo;
    int timers;            /* cpu mode: a CPU timer per thread; wall and stack: queued signals */
    int claimed;           /* this instance holds sig_claim */
    int installed;         /* our handler is the signal's disposition */
    struct sigaction old;  /* what it was before, restored by sig_stop */
    int self_tid;          /* the sampling thread: not sampled */
    sig_slot_t slots[SAMPLER_MAX_THREADS];
    sig_record_t *ring;    /* SIG_RING records, mmap'd */
    uint64_t head;         /* next ring index a handler takes (atomic) */
    uint64_t tail;         /* next ring index the drain reads */
    uint64_t last_scan_ns;
    int wall_next;         /* the slot a wall tick signals first (round robin) */
    int live, slots_end;   /* slots in use, and one past the highest (as of the last rescan) */
    uint64_t queued;       /* wall and stack signals sent */
    int stack_round;        /* stack mode: 1 learning the stacks, 2 the snapshot */
    uint64_t snapshot_head; /* stack mode: the ring index all snapshot signals were sent at */
    uint64_t snapshot_ns;
    uint32_t *last;         /* wall mode: each slot's last stored frames, SIG_LAST_CAP each */
    uint64_t samples, lost, frames, timer_errors;
    uint64_t repeated;      /* wall samples stored again without a signal (signal_wall.c) */
    struct ip_names *names; /* IP -> frame index cache (native_names_linux.c) */
    uw_map_t *unwind;      /* the modules the handler walks through (atomic; signal_unwind.c) */
    uw_map_t *retired[SIG_RETIRED]; /* maps replaced while handlers may still read them */
    unsigned n_retired;
} sig_sampler_t;

/* signal_timer.c */
/* Whether /proc/self is this process's own view (not a parent PID namespace's /proc). */
int sig_proc_matches(void);
/* A real-time signal whose disposition is the default (no one handles or ignores it), or -1. */
int sig_choose(void);
/* Installs the handler and arms a timer on every thread; 0, or -1 (nothing left behind). */
int sig_start(sampler_t *s);
/* Arms timers on new threads and deletes those of threads gone (every second). */
void sig_rescan(sampler_t *s);
/* Deletes every timer, waits (bounded) until no signal of ours is pending or being handled,
 * restores the old disposition. Safe to call when not started. */
void sig_stop(sampler_t *s);
/* Records where the stack of the slot's thread is, from a stack pointer seen on it. */
void sig_learn_stack(sig_slot_t *slot, int tid, uintptr_t sp);

/* signal_walk.c */
/* Takes (0) or finds taken (-1) the one signal sampler a process may run; released at destroy. */
int sig_claim(void);
void sig_release(void);
/* Publishes (or with NULL withdraws) the sampler the handler writes to. */
void sig_publish(sig_sampler_t *g);
/* Handlers running now (any sampler). */
int sig_in_flight(void);
void sig_handler(int signo, siginfo_t *si, void *uc);

/* signal_wall.c */
/* wall mode: signals the next SIG_WALL_BATCH threads, each with its running state. */
void sig_wall_tick(sampler_t *s);
/* wall mode, from the drain: the slot's sample just stored, which later ticks store again while
 * the thread has not been scheduled since (it was taken blocked). */
void sig_wall_remember(sig_sampler_t *g, sig_slot_t *slot, const uint32_t *frames, unsigned n,
                       int blocked);
/* stack mode: signals every thread once to learn the stacks, then once for the snapshot. */
void sig_stack_tick(sampler_t *s);
/* stack mode, under s->lock after a drain: marks the snapshot done once all were drained. */
void sig_stack_check(sampler_t *s);

/* signal_look.c: a thread's /proc files, read by the wall tick; -1 when it is gone */
/* How many times the thread was scheduled in (schedstat). */
int look_scheduled(sig_slot_t *slot, int tid, uint64_t *count);
/* Whether it is not running now (stat's state other than R). */
int look_blocked(sig_slot_t *slot, int tid, int *blocked);
/* Whether it blocks signo (status's SigBlk, read again after a second). */
int look_masked(sig_slot_t *slot, int tid, int signo, uint64_t now_ns);
/* Closes the slot's files and forgets its last sample (the slot is freed or reused). */
void look_forget(sig_slot_t *slot);

/* signal_tick.c */
/* One tick of the signal method: start, rescan, drain the ring into the store. */
void sig_tick(sampler_t *s);
/* Moves every complete record into the store (under s->lock). */
void sig_drain(sampler_t *s);

/* signal_unwind.c */
/* Builds the module map at start, and again when libraries were loaded or unloaded. */
void sig_unwind_refresh(sig_sampler_t *g);
/* Frees every map (after the last handler returned). */
void sig_unwind_free(sig_sampler_t *g);

/* native_names_linux.c */
struct ip_names *ip_names_new(void);
void ip_names_free(struct ip_names *n);
/* The store's frame for an IP: a managed method, `lib.so!symbol`, `lib.so`, or [unknown]. */
uint32_t ip_frame(sampler_t *s, uintptr_t ip);

#endif
