/* launch_profile_unix.c - launch_profile_os.h on Unix. */
#include "launch/launch_profile_os.h"

#include <sys/wait.h>

/* The private directory is launch's alone (0700), made for this run. */
int launch_profile_final_path(const char *dir, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%s/final", dir);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

FILE *launch_profile_final_open(const char *path)
{
    return fopen(path, "re");
}

int launch_profile_killed(int status)
{
    return WIFSIGNALED(status);
}
