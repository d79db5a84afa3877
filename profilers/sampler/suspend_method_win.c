/* suspend_method_win.c - native_method.h on Windows: method=signal runs as method=suspend.
 * Every tick the sampling thread takes the managed threads one at a time (suspend_walk.h:
 * suspended only to copy the context and the stack), so a sample shows where the thread is,
 * not where it next reaches a safe point. The IPs are named after the thread runs again:
 * managed ones through GetFunctionFromIP and the store's names, native ones from the module's
 * tables (native_names_win.c). s->lock, which a drain takes, covers only the store's writes
 * and the statistics, never a suspension. cpu mode samples the threads whose CPU time grew
 * since the last tick, weighted by that time; wall mode every managed thread, the idle ones
 * marked blocked; stack mode every thread once. The threads and their handles are refreshed from
 * EnumThreads when one starts or ends, and every second. */
#include "native_method.h"
#include "pages.h"
#include "common/mono_clock.h"
#include "sampler_os.h"
#include "suspend_walk.h"

#include <stdio.h>
#include <string.h>

#define SW_MAX_DEPTH 512        /* frames one sample keeps, leaf included */
#define SW_NAMES 16384          /* IP -> frame cache entries (a power of two) */
#define RESCAN_NS 1000000000ULL

typedef struct sw_slot {
    ThreadID id;
    sw_thread_t t;
    uint64_t last_cpu_ns;
    int64_t delta_ns;
    int store_index, seen;
} sw_slot_t;

/* One sample between its walk and its hand-off to the store. */
typedef struct sw_take {
    int depth, cut;
    uint64_t took;                     /* how long the thread stood, ns */
    unsigned n;
    uint32_t frames[SW_MAX_DEPTH + 2]; /* leaf first, with the markers */
    char name[64];                     /* the thread's, for its first sample */
} sw_take_t;

struct sig_sampler {
    sw_slot_t slots[SAMPLER_MAX_THREADS];
    int nslots;              /* the sampling thread's */
    int threads;             /* nslots as of the last tick, for the statistics (under s->lock) */
    uint32_t self_tid;
    unsigned char *copy;     /* SW_COPY_BYTES: the stack of the thread being sampled, then zeros */
    uint64_t ips[SW_MAX_DEPTH];
    uint64_t name_ip[SW_NAMES];
    uint32_t name_frame[SW_NAMES];
    uint64_t last_scan_ns;
    uint64_t samples, frames, failures; /* under s->lock */
};

const char native_method_name[] = "suspend";

/* The state (about 250 KiB) and the stack copy come from pages_alloc, not the target's heap,
 * as on Linux; a failed half is left to native_free, which destroy calls. */
HRESULT native_setup(clrprof_profiler_t *p, sampler_t *s)
{
    (void)p;
    s->sig = pages_alloc(sizeof *s->sig);
    if (!s->sig || !(s->sig->copy = pages_alloc(SW_COPY_BYTES)))
        return E_OUTOFMEMORY;
    return S_OK;
}

/* Matches EnumThreads' answer with the slots: keeps each known thread's handle and clock,
 * opens new ones, closes those gone. */
static void rescan(sampler_t *s)
{
    struct sig_sampler *g = s->sig;
    ICorProfilerInfo15 *info = clrprof_info(s->p);
    ICorProfilerThreadEnum *e = NULL;
    static ThreadID ids[SAMPLER_MAX_THREADS]; /* the sampling thread's own */
    ULONG n = 0;
    g->last_scan_ns = mono__ns();
    if (FAILED(info->lpVtbl->EnumThreads(info, &e)) || !e)
        return;
    e->lpVtbl->Next(e, SAMPLER_MAX_THREADS, ids, &n);
    e->lpVtbl->Release(e);
    for (int k = 0; k < g->nslots; k++)
        g->slots[k].seen = 0;
    for (ULONG i = 0; i < n; i++) {
        DWORD tid = 0;
        if (FAILED(info->lpVtbl->GetThreadInfo(info, ids[i], &tid)) || tid == 0 ||
            tid == g->self_tid)
            continue;
        int k = 0;
        while (k < g->nslots && !(g->slots[k].id == ids[i] && g->slots[k].t.tid == tid))
            k++;
        if (k == g->nslots) {
            sw_slot_t fresh = {.id = ids[i], .delta_ns = -1, .store_index = -1};
            if (k == SAMPLER_MAX_THREADS || sw_open(tid, &fresh.t) != 0)
                continue;
            sw_cpu_ns(&fresh.t, &fresh.last_cpu_ns);
            g->slots[g->nslots++] = fresh;
        }
        g->slots[k].seen = 1;
    }
    for (int k = 0; k < g->nslots;) {
        if (g->slots[k].seen) {
            k++;
            continue;
        }
        sw_close(&g->slots[k].t);
        g->slots[k] = g->slots[--g->nslots];
    }
}

/* A frame for a function or a native name, interned in the store: the only part of naming that
 * writes what a drain reads, so the only part under s->lock. */
static uint32_t intern(sampler_t *s, FunctionID fid, const char *name)
{
    pthread_mutex_lock(&s->lock);
    uint32_t frame = fid ? store_frame(s->store, s->p, fid) : store_name(s->store, name);
    pthread_mutex_unlock(&s->lock);
    return frame;
}

/* The store's frame for an IP (a return address looked up one byte back, inside its call).
 * Only after the thread runs again: the runtime and the module tables may take locks. */
static uint32_t ip_frame(sampler_t *s, uint64_t ip)
{
    struct sig_sampler *g = s->sig;
    unsigned h = (unsigned)((ip * 0x9E3779B97F4A7C15ULL) >> 50) & (SW_NAMES - 1);
    for (unsigned probe = 0; probe < 8; probe++, h = (h + 1) & (SW_NAMES - 1)) {
        if (g->name_ip[h] == ip)
            return g->name_frame[h];
        if (g->name_ip[h] == 0)
            break;
    }
    ICorProfilerInfo15 *info = clrprof_info(s->p);
    FunctionID fid = 0;
    char name[512];
    uint32_t frame;
    if (SUCCEEDED(info->lpVtbl->GetFunctionFromIP(info, (LPCBYTE)(uintptr_t)ip, &fid)) && fid)
        frame = intern(s, fid, NULL);
    else if (sw_native_name((uintptr_t)ip, name, sizeof name) == 0)
        frame = intern(s, 0, name);
    else
        frame = FRAME_NATIVE;
    if (g->name_ip[h] == 0 || g->name_ip[h] == ip)
        g->name_ip[h] = ip, g->name_frame[h] = frame;
    return frame;
}

/* Whether this tick samples the slot (cpu mode: only a thread that ran). */
static int chosen(const sampler_t *s, const sw_slot_t *slot)
{
    return s->mode != MODE_CPU || slot->delta_ns > 0;
}

/* The sample's frames, leaf first, with its markers, from the depth IPs in g->ips. */
static void name_frames(sampler_t *s, const sw_slot_t *slot, sw_take_t *take)
{
    unsigned n = 0;
    if (s->mode == MODE_WALL && slot->delta_ns <= 0)
        take->frames[n++] = FRAME_BLOCKED;
    for (int i = 0; i < take->depth; i++)
        take->frames[n++] = ip_frame(s, s->sig->ips[i] - (i ? 1 : 0));
    if (take->cut)
        take->frames[n++] = FRAME_TRUNCATED;
    if (n == 0)
        take->frames[n++] = FRAME_NATIVE;
    take->n = n;
}

/* The hand-off to what a drain reads (under s->lock): the suspension's statistics, the thread
 * the first time, the sample. */
static void hand_off(sampler_t *s, sw_slot_t *slot, const sw_take_t *take)
{
    struct sig_sampler *g = s->sig;
    s->suspensions++;
    s->suspend_ns += take->took;
    if (take->took > s->longest_suspend_ns)
        s->longest_suspend_ns = take->took;
    if (slot->store_index < 0)
        slot->store_index = store_thread(s->store, slot->t.tid, take->name);
    uint64_t weight = s->mode == MODE_CPU ? (uint64_t)slot->delta_ns : 1000000000ULL / s->hz;
    if (slot->store_index >= 0 &&
        store_add(s->store, slot->store_index, take->frames, take->n, 1, weight) == 0)
        g->samples++, g->frames += (uint64_t)take->depth;
}

/* One sample of one slot. No lock is held while the thread stands, and sw_sample takes none
 * and allocates nothing then (the thread may hold the heap lock or any other); the naming
 * follows the resume, and s->lock covers only the store's writes, so a drain waits for one
 * hand-off at most, never for a suspension. */
static void sample_one(sampler_t *s, sw_slot_t *slot)
{
    struct sig_sampler *g = s->sig;
    sw_take_t take = {.name = ""};
    unsigned max = s->max_depth < SW_MAX_DEPTH ? s->max_depth : SW_MAX_DEPTH;
    take.depth = sw_sample(&slot->t, g->copy, g->ips, max, &take.cut, &take.took);
    if (take.depth < 0) {
        __atomic_store_n(&s->threads_changed, 1, __ATOMIC_RELAXED);
        pthread_mutex_lock(&s->lock);
        g->failures++;
        pthread_mutex_unlock(&s->lock);
        return;
    }
    name_frames(s, slot, &take);
    if (slot->store_index < 0)
        thread_name(slot->t.tid, take.name, sizeof take.name);
    pthread_mutex_lock(&s->lock);
    hand_off(s, slot, &take);
    pthread_mutex_unlock(&s->lock);
}

/* Each slot's CPU time since the last tick (-1: unknown, the thread ended). */
static void read_clocks(struct sig_sampler *g)
{
    for (int k = 0; k < g->nslots; k++) {
        sw_slot_t *slot = &g->slots[k];
        uint64_t cpu = 0;
        slot->delta_ns = sw_cpu_ns(&slot->t, &cpu) == 0 ? (int64_t)(cpu - slot->last_cpu_ns) : -1;
        if (slot->delta_ns >= 0)
            slot->last_cpu_ns = cpu;
    }
}

void native_tick(sampler_t *s)
{
    struct sig_sampler *g = s->sig;
    s->ticks++;
    if (s->mode == MODE_STACK && s->snapshot_done)
        return;
    if (!g->self_tid)
        g->self_tid = sw_self_tid();
    if (__atomic_exchange_n(&s->threads_changed, 0, __ATOMIC_RELAXED) ||
        mono__ns() - g->last_scan_ns >= RESCAN_NS)
        rescan(s);
    read_clocks(g);
    for (int k = 0; k < g->nslots; k++)
        if (chosen(s, &g->slots[k]))
            sample_one(s, &g->slots[k]);
    pthread_mutex_lock(&s->lock);
    g->threads = g->nslots;
    if (s->mode == MODE_STACK && g->nslots > 0)
        s->snapshot_done = 1;
    pthread_mutex_unlock(&s->lock);
}

int native_running(const sampler_t *s)
{
    (void)s;
    return 1;
}

unsigned native_period_ms(const sampler_t *s, unsigned tick_ms)
{
    (void)s;
    return tick_ms;
}

/* Samples are stored as they are taken: nothing is pending. */
void native_stop(sampler_t *s)
{
    (void)s;
}

void native_stats(const sampler_t *s, char *info, size_t cap)
{
    size_t len = strlen(info);
    snprintf(info + len, cap - len, " samples=%llu frames=%llu threads=%d suspend_failures=%llu",
             (unsigned long long)s->sig->samples, (unsigned long long)s->sig->frames,
             s->sig->threads, (unsigned long long)s->sig->failures);
}

void native_free(sampler_t *s)
{
    for (int k = 0; k < s->sig->nslots; k++)
        sw_close(&s->sig->slots[k].t);
    pages_free(s->sig->copy, SW_COPY_BYTES);
    pages_free(s->sig, sizeof *s->sig);
    s->sig = NULL;
}
