/* signal_walk.c - the signal handler: async-signal-safe work only. It reads the interrupted
 * RIP, RBP and RSP from the ucontext and walks from there while every frame lies on the
 * thread's own stack (learned outside the handler) and strictly rootward: on x86-64 through
 * CFI and frame pointers (unwind_walk.c), elsewhere the RBP chain only, so a bad frame ends the
 * walk instead of faulting. Samples go to a preallocated
 * ring through an atomic index: no lock, no malloc, no runtime call.
 */
#define _GNU_SOURCE
#include "signal_sampler.h"

#include <errno.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static sig_sampler_t *published;
static int in_flight;
static int claimed;

/* The handler's one published sampler serves one instance: the library loaded twice (main and
 * notification-only) runs the signal method in one of them at most. 0, or -1 when taken. */
int sig_claim(void)
{
    int expected = 0;
    return __atomic_compare_exchange_n(&claimed, &expected, 1, 0, __ATOMIC_ACQ_REL,
                                       __ATOMIC_ACQUIRE) ? 0 : -1;
}

void sig_release(void)
{
    __atomic_store_n(&claimed, 0, __ATOMIC_RELEASE);
}

void sig_publish(sig_sampler_t *g)
{
    __atomic_store_n(&published, g, __ATOMIC_SEQ_CST);
}

int sig_in_flight(void)
{
    return __atomic_load_n(&in_flight, __ATOMIC_SEQ_CST);
}

#if !defined(__x86_64__)
/* Follows saved RBPs from fp; each frame is [saved rbp][return address] and must lie in
 * [lo, hi) above the previous one. Returns the new depth. */
static uint32_t walk_chain(uint64_t *ips, uint32_t n, uintptr_t fp, uintptr_t lo, uintptr_t hi,
                           uint32_t *cut)
{
    uintptr_t prev = lo;
    while (fp >= prev && fp % 8 == 0 && hi >= 16 && fp <= hi - 16) {
        if (n == SIG_MAX_DEPTH) {
            *cut = 1;
            break;
        }
        const uintptr_t *frame = (const uintptr_t *)fp;
        uintptr_t next = frame[0], ret = frame[1];
        if (ret < 4096)
            break;
        ips[n++] = ret;
        if (next <= fp)
            break;
        prev = fp + 16;
        fp = next;
    }
    return n;
}
#endif

/* The interrupted instruction, frame and stack pointers. On arm64 the frame record is the same
 * [saved fp][return address] pair x29 points to. */
static void context_regs(const ucontext_t *uc, uintptr_t *ip, uintptr_t *fp, uintptr_t *sp)
{
#if defined(__x86_64__)
    *ip = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
    *fp = (uintptr_t)uc->uc_mcontext.gregs[REG_RBP];
    *sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
    *ip = (uintptr_t)uc->uc_mcontext.pc;
    *fp = (uintptr_t)uc->uc_mcontext.regs[29];
    *sp = (uintptr_t)uc->uc_mcontext.sp;
#else
    (void)uc; /* sig_start refuses other architectures */
    *ip = *fp = *sp = 0;
#endif
}

/* Writes one sample of the interrupted context into the ring (seq last, with release). */
static void record(sig_sampler_t *g, int slot_index, int overrun, uint32_t flags,
                   const ucontext_t *uc)
{
    if (slot_index < 0 || slot_index >= SAMPLER_MAX_THREADS)
        return;
    sig_slot_t *slot = &g->slots[slot_index];
    int tid = (int)syscall(SYS_gettid);
    if (__atomic_load_n(&slot->tid, __ATOMIC_ACQUIRE) != tid)
        return; /* a slot reused since this signal was sent */
    uintptr_t hi = __atomic_load_n(&slot->hi, __ATOMIC_ACQUIRE), lo = slot->lo;
    uint64_t idx = __atomic_fetch_add(&g->head, 1, __ATOMIC_ACQ_REL);
    sig_record_t *r = &g->ring[idx & (SIG_RING - 1)];
    __atomic_store_n(&r->seq, 0, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
    uintptr_t ip, fp, sp;
    context_regs(uc, &ip, &fp, &sp);
    r->slot = slot_index, r->tid = tid, r->sp = sp, r->cut = 0;
    r->overrun = overrun > 0 ? (uint32_t)overrun : 0;
    r->flags = flags;
    r->ips[0] = ip;
    r->depth = 1;
    for (int i = 0; i < UW_MASK_WORDS(SIG_MAX_DEPTH); i++)
        r->inserted[i] = 0;
#if defined(__x86_64__)
    if (hi && sp >= lo && sp < hi) {
        uw_regs_t regs = {ip, sp, fp};
        r->depth = uw_walk(__atomic_load_n(&g->unwind, __ATOMIC_ACQUIRE), regs, sp, hi, r->ips,
                           r->inserted, SIG_MAX_DEPTH, &r->cut);
    }
#else
    if (hi && sp >= lo && sp < hi)
        r->depth = walk_chain(r->ips, 1, fp, sp, hi, &r->cut);
#endif
    __atomic_store_n(&r->seq, idx + 1, __ATOMIC_RELEASE);
}

/* Counted in flight before it looks at the sampler, so sig_stop, which withdraws the sampler
 * and then waits for the count to fall to 0, never frees what a handler still uses. Timer
 * signals (cpu mode) and signals this process queued itself (wall and stack, SIG_VALUE) only. */
void sig_handler(int signo, siginfo_t *si, void *uc)
{
    (void)signo;
    int saved = errno;
    __atomic_add_fetch(&in_flight, 1, __ATOMIC_SEQ_CST);
    sig_sampler_t *g = __atomic_load_n(&published, __ATOMIC_SEQ_CST);
    if (g && si && si->si_code == SI_TIMER)
        record(g, si->si_value.sival_int, si->si_overrun, 0, uc);
    else if (g && si && si->si_code == SI_QUEUE && si->si_pid == getpid())
        record(g, SIG_VALUE_SLOT(si->si_value.sival_int), SIG_VALUE_EXTRA(si->si_value.sival_int),
               SIG_VALUE_BLOCKED(si->si_value.sival_int) ? SIG_BLOCKED : 0, uc);
    __atomic_sub_fetch(&in_flight, 1, __ATOMIC_SEQ_CST);
    errno = saved;
}
