/* tick.c - one sampling tick.
 *
 * method=walk on both platforms. CoreCLR on Linux walks another thread's stack only while the
 * runtime is suspended (there is no way to stop one thread there), so a tick that
 * samples stops the runtime with ICorProfilerInfo10::SuspendRuntime from this profiler thread,
 * enumerates the managed threads, walks the chosen ones and resumes; the FunctionIDs are named
 * after the resume, since metadata reads may take locks a suspended thread holds.
 * cpu mode reads each known thread's CPU clock first and walks only those that ran; when none
 * did (and no thread started or ended) the runtime is not touched at all.
 */
#define _GNU_SOURCE
#include "sampler.h"
#include "common/mono_clock.h"
#include "sampler_os.h"

#include <stdio.h>
#include <string.h>

/* Reads every known thread's CPU clock; whether any ran since the last tick. */
static int read_clocks(sampler_t *s)
{
    int ran = 0;
    for (int i = 0; i < s->nthreads; i++) {
        sampler_thread_t *t = &s->threads[i];
        uint64_t cpu;
        if (thread_cpu_ns(t->tid, &cpu) != 0) {
            t->delta_ns = -1; /* gone: the next enumeration drops it */
            __atomic_store_n(&s->threads_changed, 1, __ATOMIC_RELAXED);
            continue;
        }
        t->delta_ns = (int64_t)(cpu - t->last_cpu_ns);
        t->last_cpu_ns = cpu;
        ran |= t->delta_ns > 0;
    }
    return ran;
}

/* Matches the suspended runtime's threads with the records of the last tick; keeps each
 * record's clock and store index, adds new threads with their clock read now (so they count
 * from the next tick on). Returns how many threads it holds. */
static int enumerate(sampler_t *s)
{
    ICorProfilerInfo15 *info = clrprof_info(s->p);
    ICorProfilerThreadEnum *e = NULL;
    ThreadID ids[SAMPLER_MAX_THREADS];
    ULONG n = 0;
    if (FAILED(info->lpVtbl->EnumThreads(info, &e)) || !e)
        return s->nthreads = 0;
    e->lpVtbl->Next(e, SAMPLER_MAX_THREADS, ids, &n);
    e->lpVtbl->Release(e);
    sampler_thread_t next[SAMPLER_MAX_THREADS];
    int count = 0;
    for (ULONG i = 0; i < n; i++) {
        DWORD tid = 0;
        if (FAILED(info->lpVtbl->GetThreadInfo(info, ids[i], &tid)) || tid == 0)
            continue; /* not running on an OS thread now */
        sampler_thread_t t = {ids[i], tid, 0, -1, -1, 1};
        for (int k = 0; k < s->nthreads; k++)
            if (s->threads[k].id == ids[i] && s->threads[k].tid == tid)
                t = s->threads[k];
        if (t.index < 0)
            thread_cpu_ns(tid, &t.last_cpu_ns);
        next[count++] = t;
    }
    memcpy(s->threads, next, (size_t)count * sizeof *next);
    return s->nthreads = count;
}

static HRESULT on_frame(FunctionID id, UINT_PTR ip, COR_PRF_FRAME_INFO fi, ULONG32 csize,
                        BYTE ctx[], void *data)
{
    (void)ip, (void)fi, (void)csize, (void)ctx;
    sampler_walk_t *w = data;
    if (w->len == w->cap) {
        w->cut = 1;
        return E_FAIL; /* stops the walk: the rest is the root side */
    }
    w->ids[w->len++] = id;
    return S_OK;
}

/* Names the threads whose walk failed, in the log of the first ticks (after the resume: the
 * log and the thread names need no suspended thread). */
static void log_failures(sampler_t *s, int n)
{
    for (int i = 0; i < n; i++) {
        char name[64];
        if (s->walks[i].cap)
            continue;
        thread_name(s->threads[i].tid, name, sizeof name);
        clrprof_log(s->p, "sampler: walk failed tid=%u name=%s thread_id=0x%llx hr=0x%08X",
                    (unsigned)s->threads[i].tid, name, (unsigned long long)s->threads[i].id,
                    (unsigned)s->walks[i].hr);
    }
}

/* Whether this tick walks thread t. */
static int chosen(const sampler_t *s, const sampler_thread_t *t)
{
    return s->mode != MODE_CPU || t->delta_ns > 0;
}

/* Interns one walk's frames and adds it to the store (under the lock). */
static void record(sampler_t *s, sampler_thread_t *t, sampler_walk_t *w, uint32_t *frames)
{
    unsigned n = 0;
    if (s->mode == MODE_WALL && t->delta_ns <= 0)
        frames[n++] = FRAME_BLOCKED;
    for (unsigned i = 0; i < w->len; i++)
        frames[n++] = store_frame(s->store, s->p, w->ids[i]);
    if (w->cut)
        frames[n++] = FRAME_TRUNCATED;
    if (n == 0)
        frames[n++] = FRAME_NATIVE; /* a managed thread with no managed frame on its stack now */
    if (t->index < 0) {
        char name[64];
        thread_name(t->tid, name, sizeof name);
        t->index = store_thread(s->store, t->tid, name);
    }
    if (t->index >= 0) {
        uint64_t weight = s->mode == MODE_CPU ? (uint64_t)t->delta_ns
                                              : 1000000000ULL / (s->hz ? s->hz : 1);
        store_add(s->store, t->index, frames, n, 1, weight);
    }
}

void sampler_tick(sampler_t *s)
{
    ICorProfilerInfo15 *info = clrprof_info(s->p);
    int ran = read_clocks(s);
    int changed = __atomic_exchange_n(&s->threads_changed, 0, __ATOMIC_RELAXED);
    s->ticks++;
    if (s->mode == MODE_CPU && !ran && !changed)
        return;
    uint64_t t0 = mono__ns();
    HRESULT hr = info->lpVtbl->SuspendRuntime(info);
    if (FAILED(hr)) {
        s->last_error = hr;
        if (changed) /* enumerate once it works (a startup sampler's runtime not started yet) */
            __atomic_store_n(&s->threads_changed, 1, __ATOMIC_RELAXED);
        return;
    }
    int n = enumerate(s), walked = 0;
    for (int i = 0; i < n; i++) {
        sampler_walk_t *w = &s->walks[i];
        *w = (sampler_walk_t){s->walk_ids + (size_t)i * s->max_depth, 0, s->max_depth, 0, S_OK};
        if (!chosen(s, &s->threads[i]))
            continue;
        hr = info->lpVtbl->DoStackSnapshot(info, s->threads[i].id, on_frame, COR_PRF_SNAPSHOT_DEFAULT,
                                           w, NULL, 0);
        if (FAILED(hr) && !w->cut && w->len == 0) {
            s->walk_failures++, w->cap = 0; /* cap 0: not recorded */
            s->last_error = hr;
        }
        w->hr = hr;
        walked++;
    }
    HRESULT resumed = info->lpVtbl->ResumeRuntime(info);
    if (FAILED(resumed))
        s->resume_error = resumed;
    uint64_t took = mono__ns() - t0;
    if (s->suspensions < 3)
        log_failures(s, n);
    uint32_t frames[SAMPLER_MAX_DEPTH_LIMIT + 2];
    pthread_mutex_lock(&s->lock);
    s->suspensions++;
    s->suspend_ns += took;
    if (took > s->longest_suspend_ns)
        s->longest_suspend_ns = took;
    for (int i = 0; i < n; i++)
        if (chosen(s, &s->threads[i]) && s->walks[i].cap)
            record(s, &s->threads[i], &s->walks[i], frames);
    if (s->mode == MODE_STACK)
        s->snapshot_done = 1;
    pthread_mutex_unlock(&s->lock);
    (void)walked;
}
