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
