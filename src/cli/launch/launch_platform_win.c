/* launch_platform_win.c - launch/launch_platform.h on Windows. */
#include "launch/launch_platform.h"

#include <string.h>

const char launch_port_word[] = "pipe";

/* Windows file names ignore case. */
int launch_same_name(const char *a, const char *b)
{
    return _stricmp(a, b) == 0;
}

/* A backslash, a slash or a drive's colon ends a directory. */
const char *launch_base_name(const char *command)
{
    const char *base = command;
    for (const char *c = command; *c; c++)
        if (strchr("\\/:", *c))
            base = c + 1;
    return base;
}

int launch_is_dotnet_host(const char *base)
{
    return launch_same_name(base, "dotnet") || launch_same_name(base, "dotnet.exe");
}
