/* platform_win.c - base/platform.h on Windows: no uids, no pid namespaces, pipes. */
#include "base/platform.h"

#include <stdio.h>

const char *const cli_platform_usage_note =
    "\nOn Windows, perfmap, profile, stack and launch --profile are not supported yet\n"
    "(they exit with the usage error, 2).\n";
/* A .NET Framework process is reached through mscoree.dll, not a pipe. */
const char *const cli_platform_no_endpoint_hint =
    "a .NET (Core) runtime creates its pipe at startup unless DOTNET_EnableDiagnostics=0; for a "
    ".NET Framework process (clr.dll) the detail names the mscoree.dll step that failed";
const char *const cli_platform_process_line = "process %d\n"; /* the runtime's pid is the pid */

void cli_platform_gmtime(time_t t, struct tm *tm)
{
    gmtime_s(tm, &t);
}

unsigned cli_platform_euid(void)
{
    return 1;
}

/* Another user's process shows no modules and no pipe to a non-elevated ps. */
void cli_platform_say_unreadable(int n)
{
    fprintf(stderr, "clrattach: %d process%s could not be inspected (modules unreadable, no "
            "diagnostics pipe); run elevated to include other users' processes\n", n,
            n == 1 ? "" : "es");
}
