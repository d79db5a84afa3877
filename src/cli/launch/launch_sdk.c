/* launch_sdk.c - `dotnet run`/`watch`/`test` refused by launch, on Linux and Windows alike. */
#include "base/cli.h"
#include "launch/launch_sdk.h"

#include <string.h>
#ifdef _WIN32
#define SAME_NAME(a, b) (_stricmp(a, b) == 0) /* Windows file names ignore case */
#define SEPARATORS "\\/:"
#define LAUNCH_PORT "pipe"
#else
#define SAME_NAME(a, b) (strcmp(a, b) == 0)
#define SEPARATORS "/"
#define LAUNCH_PORT "port"
#endif

/* `dotnet run`/`watch`/`test` run the SDK, itself a .NET program, which starts the app as a
 * child: both would inherit the suspending launch port, and the child's runtime, never resumed,
 * would wait forever. Refused up front with the command that works. */
int launch_refuses_sdk_child(char **command)
{
    static const char *const verbs[] = {"run", "watch", "test"};
    const char *base = command[0];
    for (const char *c = command[0]; *c; c++)
        if (strchr(SEPARATORS, *c))
            base = c + 1;
#ifdef _WIN32
    int dotnet = SAME_NAME(base, "dotnet") || SAME_NAME(base, "dotnet.exe");
#else
    int dotnet = SAME_NAME(base, "dotnet");
#endif
    for (size_t i = 0; dotnet && command[1] && i < sizeof verbs / sizeof verbs[0]; i++) {
        if (SAME_NAME(command[1], verbs[i])) {
            fprintf(stderr, "clrattach launch: 'dotnet %s' runs the SDK, which starts your app as "
                    "a second .NET process; that one would inherit the paused launch "
                    LAUNCH_PORT " and never be resumed\n  what to do: build first, then launch "
                    "the app itself: clrattach launch ... -- dotnet bin/Release/net10.0/app.dll "
                    "(or its own executable)\n", verbs[i]);
            return 1;
        }
    }
    return 0;
}
