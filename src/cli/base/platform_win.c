/* platform_win.c - base/platform.h on Windows: no uids, no pid namespaces, pipes. */
#include "base/platform.h"
#include "clrattach.h" /* clra_process_is_alive */

#include <stdio.h>
#include <string.h>
#include <windows.h>

const char *const cli_platform_usage_note =
    "\nOn Windows, perfmap, launch, trace, convert, counters, profile, stack, dump,\n"
    "startup-hook and attach --hold are not supported yet (they exit with the usage\n"
    "error, 2).\n";
/* A .NET Framework process is reached through mscoree.dll, not a pipe. */
const char *const cli_platform_no_endpoint_hint =
    "a .NET (Core) runtime creates its pipe at startup unless DOTNET_EnableDiagnostics=0; for a "
    ".NET Framework process (clr.dll) the detail names the mscoree.dll step that failed";
const char *const cli_platform_process_line = "process %d\n"; /* the runtime's pid is the pid */

/* Refused before the attach, so no profiler is left loaded without a holder. */
int cli_platform_refuses_hold(void)
{
    fprintf(stderr, "clrattach attach --hold: not supported on Windows: the SDK's control "
            "pipe serves status and detach, not hold (see docs/windows.md); attach, then "
            "clrattach detach\n");
    return 1;
}

void cli_platform_gmtime(time_t t, struct tm *tm)
{
    gmtime_s(tm, &t);
}

unsigned cli_platform_euid(void)
{
    return 1;
}

/* Another user's process shows no modules and no pipe to a non-elevated ps. */
void cli_platform_say_unreadable(int n)
{
    fprintf(stderr, "clrattach: %d process%s could not be inspected (modules unreadable, no "
            "diagnostics pipe); run elevated to include other users' processes\n", n,
            n == 1 ? "" : "es");
}

int cli_platform_process_gone(int pid)
{
    return !clra_process_is_alive(pid);
}

int cli_platform_hold_unserved(void)
{
    return 1;
}

const char *const cli_platform_native_method = "suspend";

/* Found from the command's own file, as a Windows build tree and install keep them together. */
int cli_platform_sampler_place(int i, char *out, size_t cap)
{
    static const char *const under[] = {"", "profilers\\"};
    wchar_t self[MAX_PATH];
    char dir[MAX_PATH * 3];
    DWORD n = GetModuleFileNameW(NULL, self, MAX_PATH);
    if (i < 0 || i > 1 || n == 0 || n >= MAX_PATH ||
        !WideCharToMultiByte(CP_UTF8, 0, self, -1, dir, sizeof dir, NULL, NULL))
        return -1;
    char *slash = strrchr(dir, '\\');
    if (!slash)
        return -1;
    slash[1] = '\0';
    int len = snprintf(out, cap, "%s%slibsampler_profiler.dll", dir, under[i]);
    return len > 0 && (size_t)len < cap ? 0 : -1;
}
