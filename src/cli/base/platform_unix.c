/* platform_unix.c - base/platform.h on Linux: uids, pid namespaces, /proc. */
#define _GNU_SOURCE
#include "base/platform.h"

#include <stdio.h>
#include <unistd.h>

const char *const cli_platform_usage_note = "";
const char *const cli_platform_no_endpoint_hint =
    "the runtime creates its socket at startup unless DOTNET_EnableDiagnostics=0; check the "
    "process's TMPDIR and that it is not a NativeAOT app";
const char *const cli_platform_process_line = "process %d (pid %llu in its own namespace)\n";

void cli_platform_gmtime(time_t t, struct tm *tm)
{
    gmtime_r(&t, tm);
}

unsigned cli_platform_euid(void)
{
    return (unsigned)geteuid();
}

/* /proc/PID/environ and maps are what ps reads; root reads all but a few. */
void cli_platform_say_unreadable(int n)
{
    fprintf(stderr, "clrattach: %d process%s could not be inspected (/proc/PID/environ and "
            "maps unreadable); %s\n", n, n == 1 ? "" : "es",
            geteuid() == 0 ? "even root cannot read a non-dumpable process or one owned by "
            "another user namespace" : "run as root to include other users' processes");
}
