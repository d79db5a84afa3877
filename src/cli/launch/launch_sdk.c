/* launch_sdk.c - `dotnet run`/`watch`/`test` refused by launch, on Linux and Windows alike. */
#include "base/cli.h"
#include "launch/launch_platform.h"
#include "launch/launch_sdk.h"

#include <string.h>

/* `dotnet run`/`watch`/`test` run the SDK, itself a .NET program, which starts the app as a
 * child: both would inherit the suspending launch port, and the child's runtime, never resumed,
 * would wait forever. Refused up front with the command that works. */
int launch_refuses_sdk_child(char **command)
{
    static const char *const verbs[] = {"run", "watch", "test"};
    int dotnet = launch_is_dotnet_host(launch_base_name(command[0]));
    for (size_t i = 0; dotnet && command[1] && i < sizeof verbs / sizeof verbs[0]; i++) {
        if (launch_same_name(command[1], verbs[i])) {
            fprintf(stderr, "clrattach launch: 'dotnet %s' runs the SDK, which starts your app as "
                    "a second .NET process; that one would inherit the paused launch %s and "
                    "never be resumed\n  what to do: build first, then launch the app itself: "
                    "clrattach launch ... -- dotnet bin/Release/net10.0/app.dll (or its own "
                    "executable)\n", verbs[i], launch_port_word);
            return 1;
        }
    }
    return 0;
}
