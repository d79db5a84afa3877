/* framework_win.h - attaching to a .NET Framework 4 process (clr.dll) through mscoree.dll's
 * ICLRProfiling (internal, Windows only; docs/windows.md). */
#ifndef CLRA_FRAMEWORK_WIN_H
#define CLRA_FRAMEWORK_WIN_H

#include "clrattach.h"
#include "framework/metahost_win.h"
#include "util/deadline.h"

/* What the shim gave for one target: release it with clra__fx_release. */
typedef struct clra__fx {
    HMODULE mscoree;
    clra__clr_profiling_t *profiling;
    char version[32]; /* the runtime's version string, e.g. "v4.0.30319" */
    char dll[MAX_PATH * 3]; /* the mscoree.dll loaded (UTF-8) */
} clra__fx_t;

/* Loads mscoree.dll (CLRA_MSCOREE_PATH, else the system's) and walks CLRCreateInstance,
 * EnumerateLoadedRuntimes(process) and GetInterface(CLSID_CLRProfiling) to the ICLRProfiling of
 * the first runtime in process that offers one. 0, or CLRA_ENOENDPOINT (CLRA_EACCES when the
 * shim was denied the process) with the step and its error in st->detail. */
int clra__fx_profiling_get(HANDLE process, int pid, clra__fx_t *fx, clra_status_t *st);
void clra__fx_release(clra__fx_t *fx);

/* The Framework's attach for pid: the arguments of clra_profiler_attach (already checked for
 * presence), the path at most 260 UTF-16 units with its NUL (CLRA_EINVAL before anything is
 * called otherwise), the same bitness as this process, then ICLRProfiling::AttachProfiler with
 * dwMillisecondsMax = attach_timeout_ms cut to what is left of d. A failed HRESULT is
 * CLRA_ERUNTIME with st->hresult (E_NOTIMPL reported as CORPROF_E_PROFILER_NOT_ATTACHABLE, as
 * the API documents). */
int clra__framework_attach(int pid, const clra_guid_t *clsid, const char *profiler_path,
                           const void *client_data, size_t client_data_len,
                           uint32_t attach_timeout_ms, const clra__deadline_t *d,
                           clra_status_t *st);

#endif
