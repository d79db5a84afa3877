/* main.c - the clrattach command: dispatches to one verb per file. */
#include "cli.h"

#include <string.h>

static void usage(FILE *f)
{
    fprintf(f,
            "usage: clrattach <verb> [options] PID ...\n"
            "       clrattach launch [options] -- COMMAND [ARGS...]\n"
            "\n"
            "Attach profilers to running .NET processes over the diagnostics port, natively.\n"
            "\n"
            "verbs:\n"
            "  attach    load a profiler into a running process (ICorProfilerCallback3)\n"
            "  detach    unload libclrprof profilers from a process and wait until they are gone\n"
            "  env       print the environment a process's runtime sees now\n"
            "  setenv    set or remove an environment variable inside a process\n"
            "  resume    let a runtime paused at startup run\n"
            "  perfmap   make a process write perf maps for perf (enable/disable)\n"
            "  launch    start a .NET program with a profiler, startup hooks or a trace in place\n"
            "            from its first instruction\n"
            "  info      what the runtime says about a process: command line, version, RID, ...\n"
            "  ps        list the .NET processes this user can see, in any TMPDIR or namespace\n"
            "  trace     record an EventPipe trace (.nettrace) of a process\n"
            "  dump      write a core dump of a process (createdump, run by the runtime)\n"
            "  startup-hook  run a managed startup hook (StartupHook.Initialize) in a process\n"
            "\n"
            "Run 'clrattach <verb> --help' for a verb's options. 'clrattach --version' prints\n"
            "the version.\n"
            "\n"
            "exit codes:\n"
            "  0 success               1 internal error        2 usage error\n"
            "  3 no such process       4 not a .NET process    5 no diagnostics endpoint\n"
            "  6 permission denied     7 timed out             8 connection or protocol failure\n"
            "  10 the runtime refused (the HRESULT is printed)\n");
}

typedef struct verb {
    const char *name;
    int (*run)(int argc, char **argv);
} verb_t;

/* One row per verb; the usage text above lists them for people. */
static const verb_t verbs[] = {
    {"attach", cmd_attach},
    {"detach", cmd_detach},
    {"env", cmd_env},
    {"setenv", cmd_setenv},
    {"resume", cmd_resume},
    {"perfmap", cmd_perfmap},
    {"launch", cmd_launch},
    {"info", cmd_info},
    {"ps", cmd_ps},
    {"trace", cmd_trace},
    {"dump", cmd_dump},
    {"startup-hook", cmd_startup_hook},
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("clrattach %s\n", clra_version_string());
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++)
        if (strcmp(argv[1], verbs[i].name) == 0)
            return verbs[i].run(argc - 1, argv + 1);
    fprintf(stderr, "clrattach: unknown verb '%s'; run 'clrattach --help' for the list\n", argv[1]);
    return EXIT_USAGE;
}
