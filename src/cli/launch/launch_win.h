/* launch_win.h - the UTF-16 helpers the Windows side of launch shares (launch_spawn_win.c):
 * COMMAND's command line and wide strings for the Win32 calls. */
#ifndef CLRA_LAUNCH_WIN_H
#define CLRA_LAUNCH_WIN_H

#include <wchar.h>

/* COMMAND's argv as one UTF-16 command line that CommandLineToArgvW and the C runtimes split
 * back into the same argv (quotes and backslashes escaped); malloc'd, NULL when an argument is
 * not UTF-8 or out of memory. */
wchar_t *launch_win_command_line(char *const *argv);

/* UTF-8 to a malloc'd UTF-16 string; NULL when invalid or out of memory. */
wchar_t *launch_win_wide(const char *s);

#endif
