/* paths_win.c - the Windows twin of paths.c: a path handed to the target is made absolute
 * against our working directory (drive letters and UNC paths are absolute already). */
#include "base/cli.h"

#include <windows.h>

/* GetFullPathNameW in UTF-16, so any Unicode path survives; UTF-8 in and out. */
int cli_absolute_path(const char *in, char *out, size_t cap)
{
    wchar_t win[CLRA_PATH_MAX], wfull[CLRA_PATH_MAX];
    if (MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, in, -1, win, CLRA_PATH_MAX) <= 0)
        return -1;
    DWORD n = GetFullPathNameW(win, CLRA_PATH_MAX, wfull, NULL);
    if (n == 0 || n >= CLRA_PATH_MAX)
        return -1;
    return WideCharToMultiByte(CP_UTF8, 0, wfull, -1, out, (int)cap, NULL, NULL) > 0 ? 0 : -1;
}

/* Windows' wording of a path that could not be made absolute: too long, or not valid UTF-8. */
void cli_say_path_problem(const char *who, const char *in, size_t cap)
{
    size_t len = strlen(in);
    if (len >= cap)
        fprintf(stderr, "%s: the path '%.60s...' is too long: %zu bytes, the limit is %zu\n",
                who, cli_vis(in), len, cap - 1);
    else
        fprintf(stderr, "%s: cannot make '%s' an absolute path (too long once joined to the "
                "working directory, or not valid UTF-8); pass a shorter absolute path\n", who,
                cli_vis(in));
}

/* YYYYMMDD<between>HHMMSS in local time, for default file names (GetLocalTime: msvcrt has no
 * localtime_r). */
void cli_time_stamp(char *out, size_t cap, char between)
{
    SYSTEMTIME t;
    GetLocalTime(&t);
    snprintf(out, cap, "%04u%02u%02u%c%02u%02u%02u", t.wYear, t.wMonth, t.wDay, between, t.wHour,
             t.wMinute, t.wSecond);
}
