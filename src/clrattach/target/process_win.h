/* process_win.h - what the Win32 API says about a process (Windows twin of procfs.h). */
#ifndef CLRA_PROCESS_WIN_H
#define CLRA_PROCESS_WIN_H

#include <stddef.h>

/* 1 when a process with this pid exists (even one we may not open for reading), else 0. */
int clra__win_process_exists(int pid);
/* 1 when coreclr.dll or clr.dll is among its modules, 0 when neither is, -1 when its modules
 * cannot be read. The module found ("coreclr.dll" or "clr.dll") goes into which (may be NULL). */
int clra__win_process_is_dotnet(int pid, char *which, size_t cap);
/* Which runtimes pid has loaded: CLRA__WIN_CORECLR (.NET Core, .NET 5+) and CLRA__WIN_CLR (.NET
 * Framework 4) or'd, 0 for neither, -1 when its modules cannot be read. */
#define CLRA__WIN_CORECLR 1
#define CLRA__WIN_CLR 2
int clra__win_process_runtimes(int pid);
/* Its executable's full path (UTF-8) into out; 0 or -1. */
int clra__win_process_image(int pid, char *out, size_t cap);
/* Whether a module of pid is loaded at base (base != 0) or has a path containing path (path
 * != NULL, compared without case): 1, 0, or -1 when its modules cannot be read (it exited). */
int clra__win_module_loaded(int pid, unsigned long long base, const char *path);
/* Every pid of the system into pids (at most cap); the count, or -1. */
int clra__win_process_ids(int *pids, int cap);

#endif
