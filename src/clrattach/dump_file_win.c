/* dump_file_win.c - dump_file.h on Windows. */
#include "clrattach.h"
#include "dump_file.h"

#include <errno.h>
#include <string.h>
#include <windows.h>

/* GetFileAttributesExW: the size and the last write time in 100 ns steps (stat under mingw
 * has 32-bit sizes and whole seconds). */
void clra__dump_file_state(const char *path, file_state_t *fs)
{
    wchar_t w[CLRA_PATH_MAX];
    WIN32_FILE_ATTRIBUTE_DATA a;
    memset(fs, 0, sizeof *fs);
    if (MultiByteToWideChar(CP_UTF8, 0, path, -1, w, CLRA_PATH_MAX) <= 0 ||
        !GetFileAttributesExW(w, GetFileExInfoStandard, &a)) {
        fs->err = GetLastError() == ERROR_ACCESS_DENIED ? EACCES : ENOENT;
        return;
    }
    unsigned long long t = (unsigned long long)a.ftLastWriteTime.dwHighDateTime << 32 |
                           a.ftLastWriteTime.dwLowDateTime;
    fs->exists = 1;
    fs->size = (long long)((unsigned long long)a.nFileSizeHigh << 32 | a.nFileSizeLow);
    fs->mtime_s = (long long)(t / 10000000u);
    fs->mtime_ns = (long long)(t % 10000000u) * 100;
}

/* Seen with .NET 10: a path with a space made createdump read its second word as the pid
 * argument it no longer takes. */
int clra__dump_path_needs_quotes(const char *path)
{
    return strpbrk(path, " \t") != NULL;
}
