/* paths_win.c - the Windows twin of paths.c: a path handed to the target is made absolute
 * against our working directory (drive letters and UNC paths are absolute already). */
#include "cli.h"

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
