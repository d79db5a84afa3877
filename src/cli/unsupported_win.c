/* unsupported_win.c - the verbs the Windows build does not have yet (docs/windows.md): each
 * says so and exits with the usage error, never a crash. */
#include "verbs.h"
#include "base/cli.h"

/* The one message of every verb missing on Windows. */
static int not_on_windows(const char *verb, const char *why)
{
    fprintf(stderr, "clrattach %s: not supported on Windows%s%s (see docs/windows.md)\n", verb,
            why[0] ? ": " : "", why);
    return EXIT_USAGE;
}

int cmd_perfmap(int argc, char **argv)
{
    (void)argc, (void)argv;
    return not_on_windows("perfmap", "perf maps are for Linux perf");
}
