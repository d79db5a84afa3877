/* launch_platform_unix.c - launch/launch_platform.h's names and texts on Linux. */
#include "launch/launch_platform.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

const char launch_port_word[] = "port";
const char launch_nothing_to_do[] =
    "give --profile, --profiler, --startup-hook or --trace (see --help)";

const char launch_description[] =
    "Starts COMMAND (a .NET program) with its runtime paused before any managed code,\n"
    "on a private diagnostic port (DOTNET_DiagnosticPorts=<socket>,connect,suspend).\n"
    "While it is paused: starts the trace (--trace), so it holds events from the\n"
    "first instruction; registers the profiler with StartupProfiler, so it loads\n"
    "through ICorProfilerCallback::Initialize and may use every event flag (attach\n"
    "cannot); queues the startup hooks, which the runtime runs before Main. Then it\n"
    "resumes the runtime on that port and waits for COMMAND, exiting with its exit\n"
    "code. COMMAND keeps stdin, stdout and stderr (with --json its stdout goes to\n"
    "stderr, so ours holds only the JSON lines: the first, with COMMAND's pid, comes\n"
    "as soon as it runs, the second when it has ended); SIGINT, SIGTERM, SIGHUP and\n"
    "SIGQUIT are passed on to it. Give at least one of --profile, --profiler,\n"
    "--startup-hook and --trace. Options end at COMMAND (or at '--'), so COMMAND's\n"
    "own options are its own.\n"
    "--profile FILE makes clrattach's sampler the startup profiler (as `clrattach\n"
    "profile` samples, but from the runtime's first managed code): launch drains it\n"
    "every second while COMMAND runs and writes FILE once COMMAND has exited.\n";
const char launch_epilogue[] =
    "The trace ends when COMMAND exits: its runtime writes the rundown and the end\n"
    "marker itself, and the last line on stderr says whether the file is complete.\n"
    "With\n"
    "--duration or a stopping event it ends earlier: launch stops it (rundown\n"
    "included), writes the --format files and COMMAND runs on. .NET dies of SIGINT\n"
    "and SIGTERM without ending its trace, so while tracing, a signal sent to launch\n"
    "first stops the trace (the runtime writes its rundown) and is then passed on; a\n"
    "second one is passed on at once. Ctrl-C at a terminal reaches COMMAND at the\n"
    "same moment as launch, so the file keeps only what the runtime had written (the\n"
    "last line says it is incomplete); end COMMAND normally, or signal launch alone\n"
    "(kill -INT LAUNCH_PID), for a complete one.\n"
    "\n"
    "With --profile, a signal to launch likewise first drains the sampler, then goes\n"
    "on. At a normal exit the runtime's Shutdown hands launch the last samples; a\n"
    "program killed by a signal loses what it sampled since the last drain (up to a\n"
    "second).\n"
    "\n"
    "examples:\n"
    "  clrattach launch --profiler ./libhello_profiler.so -- dotnet app.dll\n"
    "  clrattach launch --profile startup.html --profile-mode wall -- dotnet app.dll\n"
    "  clrattach launch --startup-hook ./hook.dll\n"
    "      --trace Microsoft-Windows-DotNETRuntime:0x8:4 -- ./app\n"
    "  clrattach launch --json --trace ClrAttach-Sample -- dotnet app.dll |\n"
    "      jq -c 'select(.event == \"started\") | .pid'\n"
    "\n"
    "exit codes: COMMAND's own (128+N when killed by signal N); before it runs: 2\n"
    "usage, a startup hook that is not one or a trace file that cannot be created, 4\n"
    "COMMAND never connected (not .NET?), 7 timed out, 8 connection failure or\n"
    "COMMAND ended while paused, 10 the runtime refused the trace, the profiler or a\n"
    "hook (COMMAND is then stopped before running managed code).\n";

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

/* access() as the runtime's dlopen will need it: readable. */
const char *launch_profiler_problem(const char *path)
{
    return access(path, R_OK) == 0 ? NULL : strerror(errno);
}
