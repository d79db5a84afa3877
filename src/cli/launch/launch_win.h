/* launch_win.h - `clrattach launch` on Windows: its options and COMMAND's command line
 * (launch_args_win.c), the start on a reverse-connect named pipe (launch_win.c). */
#ifndef CLRA_LAUNCH_WIN_H
#define CLRA_LAUNCH_WIN_H

#include "base/cli.h"
#include "base/options.h"

#include <wchar.h>

#define LAUNCH_DEFAULT_TIMEOUT_MS 30000
#define LAUNCH_MAX_ENV 64

typedef struct launch_win_opts {
    clra_guid_t clsid;
    char profiler[CLRA_PATH_MAX]; /* absolute; "" when no --profiler */
    const char *data;             /* COMMAND's CLRPROF_OPTIONS, NULL when none */
    const char *env[LAUNCH_MAX_ENV];
    int nenv;
    const char *refused; /* an option Windows does not have yet; set while parsing */
    long long timeout_ms;
    char **command;
} launch_win_opts_t;

/* Parses and checks the options; 0, 1 after the help, or -1 after saying what is wrong
 * (nothing has been started). */
int launch_win_parse(int argc, char **argv, launch_win_opts_t *o);

/* COMMAND's argv as one UTF-16 command line that CommandLineToArgvW and the C runtimes split
 * back into the same argv (quotes and backslashes escaped); malloc'd, NULL when an argument is
 * not UTF-8 or out of memory. */
wchar_t *launch_win_command_line(char *const *argv);

/* UTF-8 to a malloc'd UTF-16 string; NULL when invalid or out of memory. */
wchar_t *launch_win_wide(const char *s);

#endif
