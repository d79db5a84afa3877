/* paths.c - paths handed to the target: it resolves them in its own working directory and
 * mount namespace, so the command makes them absolute first. */
#define _GNU_SOURCE
#include "cli.h"

#include <time.h>
#include <unistd.h>

/* No realpath: the file lives where the target looks, which may not be where we look. */
int cli_absolute_path(const char *in, char *out, size_t cap)
{
    char cwd[CLRA_PATH_MAX];
    if (in[0] == '/')
        return (size_t)snprintf(out, cap, "%s", in) < cap ? 0 : -1;
    if (!getcwd(cwd, sizeof cwd))
        return -1;
    return (size_t)snprintf(out, cap, "%s/%s", cwd, in) < cap ? 0 : -1;
}

/* snprintf rather than strftime: strftime pulls 3.5 KB of musl into the static command. */
void cli_time_stamp(char *out, size_t cap, char between)
{
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    snprintf(out, cap, "%04d%02d%02d%c%02d%02d%02d", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, between, tm.tm_hour, tm.tm_min, tm.tm_sec);
}
