/* platform.h - what the command says or does differently per platform, for the shared verbs:
 * base/platform_unix.c and base/platform_win.c (docs/platforms.md). */
#ifndef CLRA_CLI_PLATFORM_H
#define CLRA_CLI_PLATFORM_H

#include <stddef.h>
#include <time.h>

/* The top-level usage's note on what the platform lacks ("" when nothing). */
extern const char *const cli_platform_usage_note;
/* What to do when a pid has no diagnostics endpoint (CLRA_ENOENDPOINT). */
extern const char *const cli_platform_no_endpoint_hint;
/* info's first line, a printf format taking our pid (int) and the runtime's own (unsigned long
 * long): Linux shows both (pid namespaces); Windows, which has none, ours only. */
extern const char *const cli_platform_process_line;

/* The sampler's own method here, as --method and --json name it: "signal" on Linux (a
 * timer signal per thread), "suspend" on Windows (each thread suspended in turn). */
extern const char *const cli_platform_native_method;

/* The i-th place (0, 1, ...) where profile, stack and launch --profile look for the sampler
 * when none is named: into out; 0, or -1 past the last. Linux: the installed library, then the
 * build tree; Windows: beside clrattach.exe, then its profilers folder (the build tree). */
int cli_platform_sampler_place(int i, char *out, size_t cap);

/* attach --hold where there is no holder yet: says so on stderr and returns 1, else 0. */
int cli_platform_refuses_hold(void);
/* Whether process pid is gone for good (a zombie is not gone: its library may still leave). */
int cli_platform_process_gone(int pid);
/* 1 where the SDK serves no "hold" yet (Windows): profile and stack then go on unheld, so a
 * killed command leaves its sampler loaded; 0 where it does. Silent. */
int cli_platform_hold_unserved(void);
/* UTC time of t into tm. */
void cli_platform_gmtime(time_t t, struct tm *tm);
/* The effective uid for the access hint (1 on Windows, which has none: any user's advice). */
unsigned cli_platform_euid(void);
/* dump's last hint when nothing more specific explains a failed write into directory dir:
 * owner is the target's uid, other whether it lives in another mount namespace. */
void cli_platform_dump_hint(char *out, size_t cap, const char *dir, int owner, int other);
/* ps's closing note on the n processes it could not inspect (n > 0). */
void cli_platform_say_unreadable(int n);

#endif
