/* launch_profile_win.c - launch_profile_os.h on Windows: the launch's pipe has no directory, so
 * the final samples go to a name of this run's own in %TEMP% (our pid and the performance
 * counter), which launch removes once read. */
#include "launch/launch_profile_os.h"

#include <windows.h>

int launch_profile_final_path(const char *dir, char *out, size_t cap)
{
    wchar_t wdir[MAX_PATH];
    char tmp[MAX_PATH * 3];
    LARGE_INTEGER now;
    (void)dir;
    QueryPerformanceCounter(&now);
    if (!GetTempPathW(MAX_PATH, wdir) ||
        !WideCharToMultiByte(CP_UTF8, 0, wdir, -1, tmp, sizeof tmp, NULL, NULL))
        return -1;
    int n = snprintf(out, cap, "%sclrattach-profile-%lu-%llx.samples", tmp,
                     (unsigned long)GetCurrentProcessId(), (unsigned long long)now.QuadPart);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

/* The path is UTF-8, as the sampler got it. */
FILE *launch_profile_final_open(const char *path)
{
    wchar_t wpath[MAX_PATH * 2];
    if (!MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, wpath, MAX_PATH * 2))
        return NULL;
    return _wfopen(wpath, L"rbN");
}

/* A Windows process ends with an exit code only (TerminateProcess sets one too). */
int launch_profile_killed(int status)
{
    (void)status;
    return 0;
}
