/* main.c - the clrattach command: dispatches to one verb per file. */
#include "verbs.h"
#include "base/cli.h"
#include "base/platform.h"
#include "clrattach_buildinfo.h"

#include <string.h>

typedef struct verb {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary; /* one line for the verb list of --help */
} verb_t;

static const verb_t verbs[] = {
    {"attach", cmd_attach, "load a profiler into a running process (ICorProfilerCallback3)"},
    {"detach", cmd_detach, "unload libclrprof profilers from a process and wait until they are "
                           "gone"},
    {"env", cmd_env, "print the environment a process's runtime sees now"},
    {"setenv", cmd_setenv, "set or remove an environment variable inside a process"},
    {"resume", cmd_resume, "let a runtime paused at startup run"},
    {"perfmap", cmd_perfmap, "make a process write perf maps for perf (enable/disable)"},
#ifndef CLRA_NO_VERB_LAUNCH
    {"launch", cmd_launch, "start a .NET program with a profiler, startup hooks or a trace in "
                           "place\n            from its first instruction"},
#endif
    {"info", cmd_info, "what the runtime says about a process: command line, version, RID, ..."},
    {"ps", cmd_ps, "list the .NET processes this user can see, in any TMPDIR or namespace"},
#ifndef CLRA_NO_VERB_TRACE
    {"trace", cmd_trace, "record an EventPipe trace (.nettrace) of a process"},
#endif
#ifndef CLRA_NO_VERB_CONVERT
    {"convert", cmd_convert, "read a .nettrace file: JSON lines, or its CPU samples as a profile"},
#endif
#ifndef CLRA_NO_VERB_COUNTERS
    {"counters", cmd_counters, "watch a process's counters (CPU, GC, allocations, exceptions...)"},
#endif
#ifndef CLRA_NO_VERB_PROFILE
    {"profile", cmd_profile, "profile CPU, wall time, allocations, locks, exceptions or waits"},
#endif
#ifndef CLRA_NO_VERB_STACK
    {"stack", cmd_stack, "print the managed stack of every thread of a process now"},
#endif
#ifndef CLRA_NO_VERB_HEAP
    {"heap", cmd_heap, "count a process's live objects by type (a GC heap snapshot; forces a "
                       "full GC)"},
#endif
#ifndef CLRA_NO_VERB_DUMP
    {"dump", cmd_dump, "write a core dump of a process (createdump, run by the runtime)"},
#endif
    {"startup-hook", cmd_startup_hook, "run a managed startup hook (StartupHook.Initialize) in a "
                                       "process"},
};

#define NVERBS (sizeof verbs / sizeof verbs[0])

/* Verbs a size-budgeted build (CLRA_CLI_LEAVE_OUT) left out, to say so rather than "unknown". */
static const char *const left_out[] = {
#ifdef CLRA_NO_VERB_LAUNCH
    "launch",
#endif
#ifdef CLRA_NO_VERB_TRACE
    "trace",
#endif
#ifdef CLRA_NO_VERB_CONVERT
    "convert",
#endif
#ifdef CLRA_NO_VERB_COUNTERS
    "counters",
#endif
#ifdef CLRA_NO_VERB_PROFILE
    "profile",
#endif
#ifdef CLRA_NO_VERB_STACK
    "stack",
#endif
#ifdef CLRA_NO_VERB_DUMP
    "dump",
#endif
#ifdef CLRA_NO_VERB_HEAP
    "heap",
#endif
    NULL,
};

/* The top-level help; the verb list comes from the table the dispatch uses. */
static void usage(FILE *f)
{
    fprintf(f, "usage: clrattach <verb> [options] PID ...\n");
#ifndef CLRA_NO_VERB_LAUNCH
    fprintf(f, "       clrattach launch [options] -- COMMAND [ARGS...]\n");
#endif
    fprintf(f, "\n"
               "Attach profilers to running .NET processes over the diagnostics port, natively.\n"
               "\nverbs:\n");
    for (size_t i = 0; i < NVERBS; i++)
        fprintf(f, "  %-9s %s%s\n", verbs[i].name, strlen(verbs[i].name) > 9 ? " " : "",
                verbs[i].summary);
    fprintf(f, "%s\n" /* what the platform lacks, if anything */
               "Run 'clrattach <verb> --help' for a verb's options. 'clrattach --version' prints\n"
               "the version.\n"
               "\n"
               "exit codes:\n"
               "  0 success               1 internal error        2 usage error\n"
               "  3 no such process       4 not a .NET process    5 no diagnostics endpoint\n"
               "  6 permission denied     7 timed out             "
               "8 connection or protocol failure\n"
               "  10 the runtime refused (the HRESULT is printed)\n", cli_platform_usage_note);
}

/* Dispatches to the verb; the global options are --help and --version. */
int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("clrattach %s\ngit: %s\nbuild: %s\n", clra_version_string(), CLRA_GIT_REVISION,
               CLRA_BUILD_OPTIONS);
        return EXIT_OK;
    }
    for (size_t i = 0; i < NVERBS; i++)
        if (strcmp(argv[1], verbs[i].name) == 0)
            return verbs[i].run(argc - 1, argv + 1);
    for (size_t i = 0; left_out[i]; i++)
        if (strcmp(argv[1], left_out[i]) == 0) {
            fprintf(stderr, "clrattach: this build leaves out '%s' to stay small (see "
                    "'clrattach --version'); use a full build of clrattach for it\n", argv[1]);
            return EXIT_USAGE;
        }
    fprintf(stderr, "clrattach: unknown verb '%s'; run 'clrattach --help' for the list\n", argv[1]);
    return EXIT_USAGE;
}
