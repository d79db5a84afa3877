/* profile_platform.h - what profile, stack and launch --profile do differently per platform:
 * profile/profile_platform_unix.c and profile/profile_platform_win.c (docs/platforms.md). Only
 * those verbs call these, so a command built without them (the static container set) keeps none
 * of their text. */
#ifndef CLRA_CLI_PROFILE_PLATFORM_H
#define CLRA_CLI_PROFILE_PLATFORM_H

#include <stddef.h>

/* The sampler's own method here, as --method and --json name it: "signal" on Linux (a timer
 * signal per thread), "suspend" on Windows (each thread suspended in turn). */
extern const char *const profile_native_method;
/* The i-th place (0, 1, ...) to look for the sampler when none is named: into out; 0, or -1
 * past the last. Linux: the installed library, then the build tree; Windows: beside
 * clrattach.exe, then its profilers folder (the build tree). */
int profile_sampler_place(int i, char *out, size_t cap);
/* Whether process pid is gone for good (a zombie is not gone: its library may still leave). */
int profile_process_gone(int pid);

#endif
