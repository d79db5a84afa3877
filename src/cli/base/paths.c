/* paths.c - paths handed to the target: it resolves them in its own working directory and
 * mount namespace, so the command makes them absolute first. */
#define _GNU_SOURCE
#include "base/cli.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
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

/* The reason names the limit, since "cannot make an absolute path" hid it (issue 17). */
void cli_path_problem(const char *in, size_t cap, char *why, size_t why_cap)
{
    char cwd[CLRA_PATH_MAX] = "";
    size_t len = strlen(in);
    const char *more = len > 60 ? "..." : "";
    if (len >= cap)
        snprintf(why, why_cap, "the path '%.60s%s' is too long: %zu bytes, the limit is %zu",
                 in, more, len, cap - 1);
    else if (in[0] != '/' && !getcwd(cwd, sizeof cwd))
        snprintf(why, why_cap, "cannot make '%.60s%s' an absolute path: the working directory "
                 "cannot be read (%s); pass an absolute path", in, more, strerror(errno));
    else
        snprintf(why, why_cap, "the path '%.60s%s' is too long once joined to the working "
                 "directory (%zu + %zu bytes, the limit is %zu); pass a shorter path",
                 in, more, strlen(cwd) + 1, len, cap - 1);
}

/* One wording for every verb that takes a path. */
void cli_say_path_problem(const char *who, const char *in, size_t cap)
{
    char why[400];
    cli_path_problem(in, cap, why, sizeof why);
    fprintf(stderr, "%s: %s\n", who, cli_vis(why));
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
