/* launch_profile_os.h - what launch --profile (launch_profile.c) asks the platform: where the
 * sampler writes its last samples at the program's exit, how to read them back, and whether the
 * program's end was a kill (launch_profile_unix.c: launch's private directory, a signal;
 * launch_profile_win.c: a fresh name in %TEMP%, never, as Windows has no signals). */
#ifndef CLRA_CLI_LAUNCH_PROFILE_OS_H
#define CLRA_CLI_LAUNCH_PROFILE_OS_H

#include <stddef.h>
#include <stdio.h>

/* The file for the sampler's final=, given launch's private directory (Unix); 0 or -1. */
int launch_profile_final_path(const char *dir, char *out, size_t cap);
/* Opens it for reading (binary, not inherited); NULL when it is not there. */
FILE *launch_profile_final_open(const char *path);
/* Whether the program's wait status says it was killed by a signal. */
int launch_profile_killed(int status);

#endif
