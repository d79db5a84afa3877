/* endpoint_win.c - pid -> diagnostics named pipe on Windows (docs/windows.md).
 *
 * The runtime names its pipe \\.\pipe\dotnet-diagnostic-<pid> with the Windows pid, so there is
 * no directory to search and no start-time key: the process is checked to exist, and the pipe
 * is probed with WaitNamedPipe (which does not take one of the server's instances). */
#include "clrattach.h"
#include "target/process_win.h"
#include "util/status.h"

#include <stdio.h>
#include <string.h>
#include <windows.h>

int clra_endpoint_find(int pid, clra_endpoint_t *ep, clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (!ep || pid <= 0) {
        clra__detail(st, "a pid > 0 and an endpoint to fill are required");
        return CLRA_EINVAL;
    }
    memset(ep, 0, sizeof *ep);
    if (!clra__win_process_exists(pid)) {
        clra__detail(st, "no process %d (OpenProcess failed)", pid);
        return CLRA_ENOPROC;
    }
    ep->pid = pid;
    ep->ns_pid = pid;
    snprintf(ep->path, sizeof ep->path, "\\\\.\\pipe\\dotnet-diagnostic-%d", pid);
    wchar_t wpath[64];
    swprintf(wpath, 64, L"\\\\.\\pipe\\dotnet-diagnostic-%d", pid);
    /* TRUE: an instance is free; ERROR_SEM_TIMEOUT: all busy, but the pipe exists. */
    if (WaitNamedPipeW(wpath, 1) || GetLastError() == ERROR_SEM_TIMEOUT ||
        GetLastError() == ERROR_PIPE_BUSY)
        return 0;
    DWORD err = GetLastError();
    int dotnet = clra__win_process_is_dotnet(pid, NULL, 0);
    if (err == ERROR_ACCESS_DENIED) {
        clra__detail(st, "access to %s denied: run as the process's user or elevated", ep->path);
        return CLRA_EACCES;
    }
    if (dotnet == 0) {
        clra__detail(st, "process %d has neither coreclr.dll nor clr.dll loaded", pid);
        return CLRA_ENOTDOTNET;
    }
    clra__detail(st, "no pipe %s (Windows error %lu)%s", ep->path, (unsigned long)err,
                 dotnet == 1 ? "; the runtime is loaded, so its diagnostics may be disabled "
                               "(DOTNET_EnableDiagnostics=0) or it is still starting"
                             : "");
    return CLRA_ENOENDPOINT;
}
