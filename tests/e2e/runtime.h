/* runtime.h - which .NET runtime the end-to-end tests start the sample app on.
 *
 * By default the system's (the `dotnet` found at configure time, newest Microsoft.NETCore.App).
 * With CLRA_RUNTIME_VERSION=X and CLRA_RUNTIME_ROOT=DIR in the environment (set by ctest for
 * the runtime matrix, cmake/runtimes.cmake) the app runs as `DIR/dotnet exec --fx-version X`,
 * so one net8.0 build of the test apps runs on every version. */
#ifndef CLRA_E2E_RUNTIME_H
#define CLRA_E2E_RUNTIME_H

/* The muxer that starts the app. */
const char *e2e_dotnet(void);
/* The runtime version the app runs on, e.g. "8.0.0". */
const char *e2e_runtime_version(void);
/* The argv of the app's command line: the muxer, the runtime choice, sample.dll and its
 * arguments; NULL-terminated (static storage). */
const char *const *e2e_app_argv(void);
/* The same as one string with single spaces (what the runtime reports as its command line). */
const char *e2e_app_command_line(void);
/* What goes between the muxer and the app's dll: "exec --fx-version X" or "" (static). */
const char *e2e_runtime_args(void);
/* Whether the runtime is at least version major.minor. */
int e2e_runtime_at_least(int major, int minor);
/* Skips the running test unless the runtime is at least major.minor, saying what needs it. */
void e2e_require_runtime(int major, int minor, const char *what);

#endif
