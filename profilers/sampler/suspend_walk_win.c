/* suspend_walk_win.c - suspend_walk.h: SuspendThread, GetThreadContext and a copy of the stack
 * while the thread stands still; the unwind after ResumeThread, on the copy; the thread's CPU
 * time through the same handle. */
#include "suspend_walk.h"
#include "common/mono_clock.h"

#include <string.h>
#include <windows.h>

/* NtQueryInformationThread's ThreadBasicInformation (class 0), as the public winternl.h
 * documents it: the TEB's address, whose NT_TIB starts with ExceptionList, StackBase. */
typedef struct sw_basic_info {
    LONG exit_status;
    void *teb;
    void *client_id[2];
    ULONG_PTR affinity;
    LONG priority, base_priority;
} sw_basic_info_t;
typedef LONG(WINAPI *query_thread_fn)(HANDLE, int, void *, ULONG, ULONG *);

int sw_open(uint32_t tid, sw_thread_t *t)
{
    static query_thread_fn query;
    memset(t, 0, sizeof *t);
    if (!query)
        query = (query_thread_fn)(void (*)(void))GetProcAddress(GetModuleHandleW(L"ntdll.dll"),
                                                                "NtQueryInformationThread");
    HANDLE h = OpenThread(THREAD_SUSPEND_RESUME | THREAD_GET_CONTEXT | THREAD_QUERY_INFORMATION,
                          FALSE, tid);
    sw_basic_info_t bi;
    if (!h || !query || query(h, 0, &bi, sizeof bi, NULL) < 0 || !bi.teb) {
        if (h)
            CloseHandle(h);
        return -1;
    }
    t->handle = h;
    t->stack_hi = (uintptr_t)((NT_TIB *)bi.teb)->StackBase;
    t->tid = tid;
    return 0;
}

uint32_t sw_self_tid(void)
{
    return GetCurrentThreadId();
}

void sw_close(sw_thread_t *t)
{
    if (t->handle)
        CloseHandle(t->handle);
    t->handle = NULL;
}

/* GetThreadTimes counts a thread that ended too, so the exit code tells it apart. */
int sw_cpu_ns(const sw_thread_t *t, uint64_t *out)
{
    FILETIME created, exited, kernel, user;
    DWORD code = 0;
    if (!t->handle || !GetThreadTimes(t->handle, &created, &exited, &kernel, &user) ||
        !GetExitCodeThread(t->handle, &code) || code != STILL_ACTIVE)
        return -1;
    uint64_t k = (uint64_t)kernel.dwHighDateTime << 32 | kernel.dwLowDateTime;
    uint64_t u = (uint64_t)user.dwHighDateTime << 32 | user.dwLowDateTime;
    *out = (k + u) * 100; /* 100 ns units */
    return 0;
}

/* The suspended part: context and stack bytes only. 1 with *ctx and *len, 0 not suspended. */
static int capture(sw_thread_t *t, CONTEXT *ctx, unsigned char *copy, size_t *len,
                   uint64_t *took)
{
    uint64_t t0 = mono__ns();
    if (SuspendThread(t->handle) == (DWORD)-1)
        return 0;
    ctx->ContextFlags = CONTEXT_CONTROL | CONTEXT_INTEGER;
    int ok = GetThreadContext(t->handle, ctx) != 0; /* waits until it really stands */
    *len = 0;
    if (ok && ctx->Rsp < t->stack_hi && t->stack_hi - ctx->Rsp <= (64u << 20)) {
        size_t n = t->stack_hi - ctx->Rsp;
        *len = n < SW_STACK_COPY ? n : SW_STACK_COPY;
        memcpy(copy, (const void *)(uintptr_t)ctx->Rsp, *len);
    }
    ResumeThread(t->handle);
    *took = mono__ns() - t0;
    return 1;
}

/* A register that held an address on the real stack, moved onto the copy. */
static DWORD64 moved(DWORD64 v, DWORD64 lo, DWORD64 hi, DWORD64 to)
{
    return v >= lo && v < hi ? v - lo + to : v;
}

int sw_sample(sw_thread_t *t, unsigned char *copy, uint64_t *ips, unsigned max, int *cut,
              uint64_t *suspend_ns)
{
    CONTEXT ctx;
    size_t len;
    *cut = 0;
    if (!capture(t, &ctx, copy, &len, suspend_ns))
        return -1;
    if (len == 0)
        return 0;
    DWORD64 lo = ctx.Rsp, hi = ctx.Rsp + len, to = (DWORD64)(uintptr_t)copy;
    DWORD64 copy_end = to + len;
    ctx.Rsp = moved(ctx.Rsp, lo, hi, to);
    ctx.Rbp = moved(ctx.Rbp, lo, hi, to);
    unsigned n = 0;
    while (ctx.Rip && n < max) {
        ips[n++] = ctx.Rip;
        DWORD64 base = 0, prev_sp = ctx.Rsp;
        RUNTIME_FUNCTION *fn = RtlLookupFunctionEntry(ctx.Rip, &base, NULL);
        if (fn) {
            void *handler_data = NULL;
            DWORD64 frame = 0;
            RtlVirtualUnwind(UNW_FLAG_NHANDLER, base, ctx.Rip, fn, &ctx, &handler_data, &frame,
                             NULL);
        } else if (n == 1) { /* a leaf without unwind data: its return address is on top */
            ctx.Rip = *(DWORD64 *)(uintptr_t)ctx.Rsp;
            ctx.Rsp += 8;
        } else {
            break;
        }
        ctx.Rbp = moved(ctx.Rbp, lo, hi, to);
        if (ctx.Rsp <= prev_sp || ctx.Rsp >= copy_end)
            break; /* off the copy, or not moving rootwards: stop rather than read wild */
    }
    *cut = n == max;
    return (int)n;
}
