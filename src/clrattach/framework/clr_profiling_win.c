/* clr_profiling_win.c - from a process handle to the ICLRProfiling of the .NET Framework runtime
 * loaded in it, through mscoree.dll loaded at run time (nothing links against it, so the
 * command runs where no .NET Framework is installed and a test can put a fake in its place). */
#include "framework/framework_win.h"
#include "util/status.h"

#include <stdio.h>
#include <string.h>

/* CLRA_MSCOREE_PATH (for tests) or the system's mscoree.dll; fx->dll names the one tried. */
static int load_mscoree(clra__fx_t *fx, clra_status_t *st)
{
    wchar_t wpath[MAX_PATH * 2];
    DWORD n = GetEnvironmentVariableW(L"CLRA_MSCOREE_PATH", wpath, MAX_PATH * 2);
    if (n == 0 || n >= MAX_PATH * 2)
        wcscpy(wpath, L"mscoree.dll");
    if (WideCharToMultiByte(CP_UTF8, 0, wpath, -1, fx->dll, (int)sizeof fx->dll, NULL, NULL) <= 0)
        strcpy(fx->dll, "mscoree.dll");
    /* The system directory only, unless a path was given: never one beside the working dir. */
    fx->mscoree = n ? LoadLibraryW(wpath)
                    : LoadLibraryExW(wpath, NULL, LOAD_LIBRARY_SEARCH_SYSTEM32);
    if (fx->mscoree)
        return 0;
    clra__detail(st, "the process runs the .NET Framework (clr.dll), but %s, which attaches "
                 "to it, cannot be loaded here (Windows error %lu): install the .NET Framework "
                 "4 on this machine", fx->dll, (unsigned long)GetLastError());
    return CLRA_ENOENDPOINT;
}

/* The shim's metahost, or the detail of why there is none. */
static int meta_host(clra__fx_t *fx, clra__clr_meta_host_t **host, clra_status_t *st)
{
    FARPROC proc = GetProcAddress(fx->mscoree, "CLRCreateInstance");
    clra__clr_create_instance_fn create;
    if (!proc) {
        clra__detail(st, "%s has no CLRCreateInstance: it is older than the .NET Framework 4, "
                     "which the attach API needs", fx->dll);
        return CLRA_ENOENDPOINT;
    }
    memcpy(&create, &proc, sizeof create); /* a function pointer of another type, not a cast */
    HRESULT hr = create(&clra__clsid_clr_meta_host, &clra__iid_clr_meta_host, (void **)host);
    if (FAILED(hr) || !*host) {
        clra__detail(st, "CLRCreateInstance(CLSID_CLRMetaHost) of %s failed with 0x%08lX",
                     fx->dll, (unsigned long)hr);
        return CLRA_ENOENDPOINT;
    }
    return 0;
}

/* One enumerated runtime: its version into fx, and its ICLRProfiling when it has one. */
static void try_runtime(clra__unknown_t *item, clra__fx_t *fx, char *seen, size_t cap)
{
    clra__clr_runtime_info_t *info = NULL;
    HRESULT hr = item->vtbl->QueryInterface(item, &clra__iid_clr_runtime_info, (void **)&info);
    if (FAILED(hr) || !info)
        return;
    WCHAR wver[32];
    DWORD chars = 32;
    char ver[32] = "?";
    if (SUCCEEDED(info->vtbl->GetVersionString(info, wver, &chars)))
        WideCharToMultiByte(CP_UTF8, 0, wver, -1, ver, (int)sizeof ver, NULL, NULL);
    ver[sizeof ver - 1] = '\0';
    size_t used = strlen(seen);
    snprintf(seen + used, cap - used, "%s%s", used ? ", " : "", ver);
    hr = info->vtbl->GetInterface(info, &clra__clsid_clr_profiling, &clra__iid_clr_profiling,
                                  (void **)&fx->profiling);
    if (FAILED(hr))
        fx->profiling = NULL;
    if (fx->profiling)
        snprintf(fx->version, sizeof fx->version, "%s", ver);
    info->vtbl->Release(info);
}

/* Walks the runtimes loaded in process until one hands out ICLRProfiling. */
static int find_profiling(clra__clr_meta_host_t *host, HANDLE process, int pid, clra__fx_t *fx,
                          clra_status_t *st)
{
    clra__enum_unknown_t *runtimes = NULL;
    HRESULT hr = host->vtbl->EnumerateLoadedRuntimes(host, process, &runtimes);
    if (FAILED(hr) || !runtimes) {
        clra__detail(st, "%s could not list the runtimes of process %d "
                     "(EnumerateLoadedRuntimes: 0x%08lX)", fx->dll, pid, (unsigned long)hr);
        return (unsigned long)hr == 0x80070005ul ? CLRA_EACCES : CLRA_ENOENDPOINT;
    }
    char seen[128] = "";
    clra__unknown_t *item = NULL;
    ULONG got = 0;
    for (int i = 0; i < 16 && !fx->profiling; i++) {
        item = NULL;
        if (runtimes->vtbl->Next(runtimes, 1, &item, &got) != S_OK || got != 1 || !item)
            break;
        try_runtime(item, fx, seen, sizeof seen);
        item->vtbl->Release(item);
    }
    runtimes->vtbl->Release(runtimes);
    if (fx->profiling)
        return 0;
    clra__detail(st, "%s lists %s in process %d, but none offers ICLRProfiling (attach needs a "
                 ".NET Framework 4 runtime)", fx->dll, seen[0] ? seen : "no runtime", pid);
    return CLRA_ENOENDPOINT;
}

int clra__fx_profiling_get(HANDLE process, int pid, clra__fx_t *fx, clra_status_t *st)
{
    clra__clr_meta_host_t *host = NULL;
    memset(fx, 0, sizeof *fx);
    int rc = load_mscoree(fx, st);
    if (rc == 0)
        rc = meta_host(fx, &host, st);
    if (rc == 0) {
        rc = find_profiling(host, process, pid, fx, st);
        host->vtbl->Release(host);
    }
    if (rc)
        clra__fx_release(fx);
    return rc;
}

void clra__fx_release(clra__fx_t *fx)
{
    if (fx->profiling)
        fx->profiling->vtbl->Release(fx->profiling);
    fx->profiling = NULL;
    if (fx->mscoree)
        FreeLibrary(fx->mscoree);
    fx->mscoree = NULL;
}
