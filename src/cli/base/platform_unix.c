/* platform_unix.c - base/platform.h on Linux: uids, pid namespaces, /proc. */
#define _GNU_SOURCE
#include "base/platform.h"

#include <errno.h>
#include <signal.h>

#include <stdio.h>
#include <unistd.h>

const char *const cli_platform_usage_note = "";
const char *const cli_platform_no_endpoint_hint =
    "the runtime creates its socket at startup unless DOTNET_EnableDiagnostics=0; check the "
    "process's TMPDIR and that it is not a NativeAOT app";
const char *const cli_platform_process_line = "process %d (pid %llu in its own namespace)\n";

/* The SDK's control socket serves hold here. */
int cli_platform_refuses_hold(void)
{
    return 0;
}

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

int cli_platform_process_gone(int pid)
{
    return kill(pid, 0) != 0 && errno == ESRCH;
}

int cli_platform_hold_unserved(void)
{
    return 0;
}

const char *const cli_platform_native_method = "signal";

/* CLRA_SAMPLER_INSTALLED and CLRA_SAMPLER_BUILT come from CMakeLists.txt. */
int cli_platform_sampler_place(int i, char *out, size_t cap)
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
