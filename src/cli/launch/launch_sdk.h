/* launch_sdk.h - what launch refuses to start (launch_sdk.c). */
#ifndef CLRA_CLI_LAUNCH_SDK_H
#define CLRA_CLI_LAUNCH_SDK_H

/* Whether COMMAND is `dotnet run`, `watch` or `test`, which launch refuses (said on stderr). */
int launch_refuses_sdk_child(char **command);

#endif
