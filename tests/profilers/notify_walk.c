/* notify_walk.c - a probe for issue 14: a notification-only profiler (LoadAsNotificationOnly)
 * that, once attached beside a main profiler, stops the runtime with SuspendRuntime, walks every
 * managed thread with DoStackSnapshot and resumes it, logging each answer:
 *   notify_walk suspend hr=0x...
 *   notify_walk walk tid=T hr=0x... frames=N     (one per thread with an OS thread)
 *   notify_walk resume hr=0x... threads=N walked=W frames=F
 * The e2e test (test_notify_walk.c) reads these lines. */
#include "clrprof/clrprof_profiler.h"

static HRESULT count_frame(FunctionID id, UINT_PTR ip, COR_PRF_FRAME_INFO fi, ULONG32 csize,
                           BYTE ctx[], void *data)
{
    (void)ip, (void)fi, (void)csize, (void)ctx;
    if (id)
        ++*(unsigned *)data;
    return S_OK;
}

/* The profiler thread: one suspended walk of every thread, then done. */
static void walk_once(clrprof_profiler_t *p, void *arg)
{
    (void)arg;
    ICorProfilerInfo10 *info = CLRPROF_INFO(p, 10);
    if (!info) {
        clrprof_log(p, "notify_walk no ICorProfilerInfo10");
        return;
    }
    HRESULT hr = info->lpVtbl->SuspendRuntime(info);
    clrprof_log(p, "notify_walk suspend hr=0x%08X", (unsigned)hr);
    ICorProfilerThreadEnum *e = NULL;
    ThreadID ids[256];
    ULONG n = 0;
    unsigned walked = 0, frames_total = 0;
    if (SUCCEEDED(info->lpVtbl->EnumThreads(info, &e)) && e) {
        e->lpVtbl->Next(e, 256, ids, &n);
        e->lpVtbl->Release(e);
    }
    for (ULONG i = 0; i < n; i++) {
        DWORD tid = 0;
        if (FAILED(info->lpVtbl->GetThreadInfo(info, ids[i], &tid)) || !tid)
            continue;
        unsigned frames = 0;
        HRESULT w = info->lpVtbl->DoStackSnapshot(info, ids[i], count_frame,
                                                  COR_PRF_SNAPSHOT_DEFAULT, &frames, NULL, 0);
        clrprof_log(p, "notify_walk walk tid=%u hr=0x%08X frames=%u", (unsigned)tid,
                    (unsigned)w, frames);
        walked += SUCCEEDED(w);
        frames_total += frames;
    }
    HRESULT r = SUCCEEDED(hr) ? info->lpVtbl->ResumeRuntime(info) : hr;
    clrprof_log(p, "notify_walk resume hr=0x%08X threads=%u walked=%u frames=%u", (unsigned)r,
                (unsigned)n, walked, frames_total);
}

static void notify_walk_attached(clrprof_profiler_t *p)
{
    int err = clrprof_thread_start(p, walk_once, NULL);
    if (err)
        clrprof_log(p, "notify_walk cannot start its thread (errno %d)", err);
}

/* {3D1F8E2A-7C4B-4E5D-A6F9-0B1C2D3E4F51} */
static const clrprof_def_t notify_walk = {
    .name = "notify_walk",
    .clsid = {0x3D1F8E2A, 0x7C4B, 0x4E5D, {0xA6, 0xF9, 0x0B, 0x1C, 0x2D, 0x3E, 0x4F, 0x51}},
    .events = COR_PRF_ENABLE_STACK_SNAPSHOT,
    .notification_only = 1,
    .attached = notify_walk_attached,
};
CLRPROF_DEFINE(notify_walk)
