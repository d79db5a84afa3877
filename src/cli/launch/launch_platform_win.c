/* launch_platform_win.c - launch/launch_platform.h's names and texts on Windows. */
#include "launch/launch_platform.h"
#include "launch/launch_win.h"

#include <stdlib.h>
#include <string.h>
#include <windows.h>

const char launch_port_word[] = "pipe";
const char launch_nothing_to_do[] =
    "give --profile, --profiler, --startup-hook or --trace (see --help)";

const char launch_description[] =
    "Starts COMMAND (a .NET program) with its runtime paused before any managed code,\n"
    "on a private named pipe (DOTNET_DiagnosticPorts=<pipe name>,connect,suspend).\n"
    "While it is paused: starts the trace (--trace), so it holds events from the\n"
    "first instruction; registers the profiler with StartupProfiler, so it loads\n"
    "through ICorProfilerCallback::Initialize and may use every event flag (attach\n"
    "cannot); queues the startup hooks, which the runtime runs before Main. Then it\n"
    "resumes the runtime and waits for COMMAND, exiting with its exit code. COMMAND\n"
    "keeps the console and its standard handles (with --json its stdout is our\n"
    "stderr, so ours holds only the JSON lines); Ctrl-C reaches it as it reaches us\n"
    "(we ignore it once COMMAND runs; before, COMMAND is stopped). Give at least one\n"
    "of --profile, --profiler, --startup-hook and --trace. Options end at COMMAND (or\n"
    "at '--').\n";
const char launch_epilogue[] =
    "--profile FILE makes clrattach's sampler the startup profiler (as `clrattach\n"
    "profile` samples, but from the runtime's first managed code): launch drains it\n"
    "every second while COMMAND runs and writes FILE when COMMAND exits.\n"
    "The trace ends when COMMAND exits: its runtime writes the rundown and the end\n"
    "marker itself, and the last line on stderr says whether the file is complete.\n"
    "With --duration or a stopping event it ends earlier: launch stops it (rundown\n"
    "included), writes the --format files and COMMAND runs on. Ctrl-C reaches\n"
    "COMMAND from the console at the same moment as launch, so a trace ended that\n"
    "way keeps only what the runtime had written.\n"
    "\n"
    "examples:\n"
    "  clrattach launch --profiler libhello_profiler.dll -- app.exe\n"
    "  clrattach launch --profile startup.html -- app.exe\n"
    "  clrattach launch --startup-hook hook.dll\n"
    "      --trace Microsoft-Windows-DotNETRuntime:0x8:4 -- app.exe\n"
    "\n"
    "exit codes: COMMAND's own; before it runs: 2 usage, a startup hook that is not\n"
    "one or a trace file that cannot be created, 4 COMMAND never connected (not .NET,\n"
    "or it could not be started), 7 timed out, 8 connection failure or COMMAND ended\n"
    "while paused, 10 the runtime refused the trace, the profiler or a hook, 130\n"
    "Ctrl-C while paused (COMMAND is then stopped before running managed code).\n";

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

/* The runtime's LoadLibrary needs a file, not a directory. */
const char *launch_profiler_problem(const char *path)
{
    wchar_t *w = launch_win_wide(path);
    DWORD attrs = w ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;
    free(w);
    if (attrs == INVALID_FILE_ATTRIBUTES)
        return "no such file";
    return attrs & FILE_ATTRIBUTE_DIRECTORY ? "a directory" : NULL;
}
