/* framework_attach_win.c - clrattach attach on a .NET Framework 4 process: the local checks the
 * API leaves to its caller (path length, bitness), then ICLRProfiling::AttachProfiler. */
#include "framework/framework_win.h"
#include "util/status.h"

#include <limits.h>
#include <stdio.h>

#define E_NOTIMPL_HR 0x80004001ul
#define NOT_ATTACHABLE_HR 0x80131368ul /* CORPROF_E_PROFILER_NOT_ATTACHABLE */

/* The path as UTF-16 for the API; refused here when over its 260 units (NUL included). */
static int wide_path(const char *path, WCHAR out[CLRA__FRAMEWORK_PATH_MAX], clra_status_t *st)
{
    int units = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
    if (units <= 0) {
        clra__detail(st, "the profiler path is not valid UTF-8");
        return CLRA_EENCODING;
    }
    if (units > CLRA__FRAMEWORK_PATH_MAX) {
        clra__detail(st, "the profiler path is %d characters long; the .NET Framework's "
                     "ICLRProfiling::AttachProfiler takes at most %d with its terminating NUL "
                     "(%d without), so it was not sent: move the DLL to a shorter path",
                     units - 1, CLRA__FRAMEWORK_PATH_MAX, CLRA__FRAMEWORK_PATH_MAX - 1);
        return CLRA_EINVAL;
    }
    MultiByteToWideChar(CP_UTF8, 0, path, -1, out, CLRA__FRAMEWORK_PATH_MAX);
    return 0;
}

/* 1 when the process is a 32-bit one on 64-bit Windows (WOW64), 0 when not, -1 unknown. */
static int is_wow64(HANDLE process)
{
    BOOL wow = FALSE;
    return IsWow64Process(process, &wow) ? wow != FALSE : -1;
}

/* The API attaches only between processes of the same bitness (seed 000): say so first. */
static int same_bitness(HANDLE process, int pid, clra_status_t *st)
{
    int target = is_wow64(process), self = is_wow64(GetCurrentProcess());
    if (target < 0 || self < 0 || target == self)
        return 0;
    clra__detail(st, "process %d is a %s process and this clrattach.exe is %s: the .NET "
                 "Framework attaches a profiler only from a process of the same bitness; run "
                 "the %s build of clrattach", pid, target ? "32-bit" : "64-bit",
                 self ? "32-bit" : "64-bit", target ? "32-bit (x86)" : "64-bit (x64)");
    return CLRA_EINVAL;
}

/* The target's handle for the shim, or why there is none. */
static HANDLE open_target(int pid, int *rc, clra_status_t *st)
{
    HANDLE h = OpenProcess(PROCESS_QUERY_INFORMATION | PROCESS_VM_READ, FALSE, (DWORD)pid);
    if (h)
        return h;
    DWORD err = GetLastError();
    *rc = err == ERROR_ACCESS_DENIED ? CLRA_EACCES : CLRA_ENOPROC;
    clra__detail(st, "cannot open process %d (Windows error %lu)%s", pid, (unsigned long)err,
                 err == ERROR_ACCESS_DENIED ? ": run as its user or elevated" : "");
    return NULL;
}

/* AttachProfiler itself; its failure HRESULT becomes the runtime's answer. */
static int call_attach(clra__fx_t *fx, int pid, DWORD max_ms, const clra_guid_t *clsid,
                       const WCHAR *wpath, const void *data, size_t len, clra_status_t *st)
{
    HRESULT hr = fx->profiling->vtbl->AttachProfiler(fx->profiling, (DWORD)pid, max_ms,
                                                     (const GUID *)(const void *)clsid, wpath,
                                                     len ? (void *)data : NULL, (UINT)len);
    if (SUCCEEDED(hr))
        return 0;
    st->hresult = (int32_t)hr;
    if ((unsigned long)hr == E_NOTIMPL_HR) {
        st->hresult = (int32_t)NOT_ATTACHABLE_HR;
        clra__detail(st, "ICLRProfiling::AttachProfiler (%s, runtime %s) returned E_NOTIMPL "
                     "(0x80004001): the profiler's InitializeForAttach does not support attach, "
                     "which the API reports as CORPROF_E_PROFILER_NOT_ATTACHABLE", fx->dll,
                     fx->version);
    } else {
        clra__detail(st, "answered by ICLRProfiling::AttachProfiler (%s, .NET Framework "
                     "runtime %s)", fx->dll, fx->version);
    }
    return CLRA_ERUNTIME;
}

int clra__framework_attach(int pid, const clra_guid_t *clsid, const char *profiler_path,
                           const void *client_data, size_t client_data_len,
                           uint32_t attach_timeout_ms, const clra__deadline_t *d,
                           clra_status_t *st)
{
    WCHAR wpath[CLRA__FRAMEWORK_PATH_MAX];
    int rc = wide_path(profiler_path, wpath, st);
    if (rc)
        return rc;
    if (client_data_len > UINT_MAX) {
        clra__detail(st, "client data of %zu bytes is more than AttachProfiler can take",
                     client_data_len);
        return CLRA_ETOOBIG;
    }
    HANDLE process = open_target(pid, &rc, st);
    if (!process)
        return rc;
    rc = same_bitness(process, pid, st);
    clra__fx_t fx;
    if (rc == 0)
        rc = clra__fx_profiling_get(process, pid, &fx, st);
    CloseHandle(process);
    if (rc)
        return rc;
    int left = clra__deadline_left_ms(d);
    if (left == 0) {
        clra__detail(st, "the deadline passed while finding the process's runtime");
        rc = CLRA_ETIMEDOUT;
    } else {
        DWORD max_ms = attach_timeout_ms;
        if (left > 0 && (uint32_t)left < max_ms)
            max_ms = (DWORD)left;
        rc = call_attach(&fx, pid, max_ms, clsid, wpath, client_data, client_data_len, st);
    }
    clra__fx_release(&fx);
    return rc;
}
