/* launch_platform.h - what `clrattach launch` does differently per platform, beside the shared
 * options and checks: launch_platform_unix.c and launch_platform_win.c (docs/platforms.md). */
#ifndef CLRA_CLI_LAUNCH_PLATFORM_H
#define CLRA_CLI_LAUNCH_PLATFORM_H

/* What the launch port is called in messages: "port" (a Unix socket) or "pipe". */
extern const char launch_port_word[];
/* Whether two file names are the same (Windows ignores case). */
int launch_same_name(const char *a, const char *b);
/* COMMAND's file name without its directories (Windows has three separators). */
const char *launch_base_name(const char *command);
/* Whether base (a file name) is the dotnet host: "dotnet", or "dotnet.exe" on Windows. */
int launch_is_dotnet_host(const char *base);

#endif
