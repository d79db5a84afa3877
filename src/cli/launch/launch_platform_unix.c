/* launch_platform_unix.c - launch/launch_platform.h on Linux. */
#include "launch/launch_platform.h"

#include <string.h>

const char launch_port_word[] = "port";

/* File names are bytes: case matters. */
int launch_same_name(const char *a, const char *b)
{
    return strcmp(a, b) == 0;
}

const char *launch_base_name(const char *command)
{
    const char *slash = strrchr(command, '/');
    return slash ? slash + 1 : command;
}

int launch_is_dotnet_host(const char *base)
{
    return launch_same_name(base, "dotnet");
}
