/* profile_platform_unix.c - profile_platform.h on Linux. */
#define _GNU_SOURCE
#include "profile/profile_platform.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>

const char *const profile_native_method = "signal";

/* CLRA_SAMPLER_INSTALLED and CLRA_SAMPLER_BUILT come from CMakeLists.txt. */
int profile_sampler_place(int i, char *out, size_t cap)
{
    static const char *const places[] = {
#ifdef CLRA_SAMPLER_INSTALLED
        CLRA_SAMPLER_INSTALLED,
#endif
#ifdef CLRA_SAMPLER_BUILT
        CLRA_SAMPLER_BUILT,
#endif
        NULL};
    if (i < 0 || i >= (int)(sizeof places / sizeof places[0]) - 1)
        return -1;
    int n = snprintf(out, cap, "%s", places[i]);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

/* kill(pid, 0) still reaches a zombie. */
int profile_process_gone(int pid)
{
    return kill(pid, 0) != 0 && errno == ESRCH;
}
