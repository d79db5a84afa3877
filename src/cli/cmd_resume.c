/* cmd_resume.c - `clrattach resume`: let a runtime paused at startup run. */
#include "cli.h"

#define DEFAULT_TIMEOUT_MS 10000

static void resume_usage(FILE *f)
{
    fprintf(f,
            "usage: clrattach resume [--json] [--timeout MS] PID\n"
            "\n"
            "Sends ResumeRuntime to .NET process PID. A runtime started with\n"
            "DOTNET_DefaultDiagnosticPortSuspend=1 waits before running any managed code until\n"
            "this arrives; a running process answers OK and nothing changes.\n"
            "\n"
            "options:\n"
            "  --json         one JSON object instead of text\n"
            "  --timeout MS   deadline for the whole exchange (default %d)\n",
            DEFAULT_TIMEOUT_MS);
}

static const cli_verb_spec_t resume_spec = {"resume", "", 0, 0, DEFAULT_TIMEOUT_MS,
                                            resume_usage, NULL};

int cmd_resume(int argc, char **argv)
{
    cli_common_t o;
    clra_status_t st;
    json_out_t j;
    if (cli_parse_common(argc, argv, &resume_spec, &o) != 0)
        return EXIT_USAGE;
    clra_target_t target = clra_target_pid(o.pid);
    int rc = clra_runtime_resume(&target, (int)o.timeout_ms, &st);
    json_out_t *jp = cli_json_start(&o, &j, rc);
    if (rc == 0 && !jp)
        printf("resumed process %d (a runtime that was not paused ignores this)\n", o.pid);
    return cli_finish(jp, "resume", &o, rc, &st);
}
