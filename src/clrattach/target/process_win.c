/* process_win.c - processes through the Win32 API: the Windows twin of procfs (no /proc). */
#include "target/process_win.h"

#include <stdio.h>
#include <string.h>
#include <windows.h>
#include <psapi.h>

int clra__win_process_exists(int pid)
{
    HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)pid);
    if (!h)
        return GetLastError() == ERROR_ACCESS_DENIED; /* there, but not ours to open */
    DWORD code = 0;
    int alive = GetExitCodeProcess(h, &code) && code == STILL_ACTIVE;
    CloseHandle(h);
    return alive;
}

/* Whether base (a module's file name) is name, ignoring case as Windows does. */
static int module_is(const char *base, const char *name)
{
    return _stricmp(base, name) == 0;
}

int clra__win_process_runtimes(int pid)
{
    HANDLE h = OpenProcess(PROCESS_QUERY_INFORMATION | PROCESS_VM_READ, FALSE, (DWORD)pid);
    if (!h)
        return -1;
    HMODULE mods[1024];
    DWORD bytes = 0;
    int found = -1;
    if (EnumProcessModulesEx(h, mods, sizeof mods, &bytes, LIST_MODULES_ALL)) {
        found = 0;
        DWORD n = bytes / sizeof mods[0];
        for (DWORD i = 0; i < n && i < 1024; i++) {
            char base[MAX_PATH];
            if (!GetModuleBaseNameA(h, mods[i], base, sizeof base))
                continue;
            if (module_is(base, "coreclr.dll"))
                found |= CLRA__WIN_CORECLR;
            else if (module_is(base, "clr.dll"))
                found |= CLRA__WIN_CLR;
        }
    }
    CloseHandle(h);
    return found;
}

int clra__win_process_is_dotnet(int pid, char *which, size_t cap)
{
    int found = clra__win_process_runtimes(pid);
    if (found <= 0)
        return found;
    if (which && cap)
        snprintf(which, cap, "%s", found & CLRA__WIN_CORECLR ? "coreclr.dll" : "clr.dll");
    return 1;
}

/* Whether name contains part, ignoring ASCII case (Windows paths compare so). */
static int contains_nocase(const char *name, const char *part)
{
    size_t n = strlen(part);
    for (; *name; name++)
        if (_strnicmp(name, part, n) == 0)
            return 1;
    return 0;
}

int clra__win_module_loaded(int pid, unsigned long long base, const char *path)
{
    HANDLE h = OpenProcess(PROCESS_QUERY_INFORMATION | PROCESS_VM_READ, FALSE, (DWORD)pid);
    if (!h)
        return -1;
    HMODULE mods[1024];
    DWORD bytes = 0;
    int found = -1;
    if (EnumProcessModulesEx(h, mods, sizeof mods, &bytes, LIST_MODULES_ALL)) {
        found = 0;
        for (DWORD i = 0; i < bytes / sizeof mods[0] && i < 1024 && !found; i++) {
            char file[MAX_PATH * 2];
            if (base && (unsigned long long)(uintptr_t)mods[i] == base)
                found = 1;
            else if (path && GetModuleFileNameExA(h, mods[i], file, sizeof file) &&
                     contains_nocase(file, path))
                found = 1;
        }
    }
    DWORD code = 0;
    if (found < 0 || (GetExitCodeProcess(h, &code) && code != STILL_ACTIVE))
        found = -1;
    CloseHandle(h);
    return found;
}

int clra__win_process_image(int pid, char *out, size_t cap)
{
    HANDLE h = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)pid);
    if (!h)
        return -1;
    wchar_t wide[MAX_PATH * 4];
    DWORD n = sizeof wide / sizeof wide[0];
    int rc = -1;
    if (QueryFullProcessImageNameW(h, 0, wide, &n) &&
        WideCharToMultiByte(CP_UTF8, 0, wide, -1, out, (int)cap, NULL, NULL) > 0)
        rc = 0;
    CloseHandle(h);
    return rc;
}

int clra__win_process_ids(int *pids, int cap)
{
    DWORD ids[4096], bytes = 0;
    if (!EnumProcesses(ids, sizeof ids, &bytes))
        return -1;
    int n = 0;
    for (DWORD i = 0; i < bytes / sizeof ids[0] && n < cap; i++)
        if (ids[i] != 0)
            pids[n++] = (int)ids[i];
    return n;
}
