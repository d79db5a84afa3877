/* paths.c - paths handed to the target: it resolves them in its own working directory and
 * mount namespace, so the command makes them absolute first. */
#define _GNU_SOURCE
#include "cli.h"

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
