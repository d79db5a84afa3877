/* profile_platform_win.c - profile_platform.h on Windows. */
#include "profile/profile_platform.h"
#include "clrattach.h" /* clra_process_is_alive */

#include <stdio.h>
#include <string.h>
#include <windows.h>

const char *const profile_native_method = "suspend";

/* Found from the command's own file, as a Windows build tree and install keep them together
 * (a Unix path given to StartupProfiler made wine report the launched process as exited). */
int profile_sampler_place(int i, char *out, size_t cap)
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

int profile_process_gone(int pid)
{
    return !clra_process_is_alive(pid);
}
