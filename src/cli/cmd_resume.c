/* cmd_resume.c - `clrattach resume`: let a runtime paused at startup run. */
#include "verbs.h"
#include "base/cli.h"
#include "base/options.h"

#define DEFAULT_TIMEOUT_MS 10000

static const cli_verb_t resume_verb = {
    .name = "resume",
    .synopsis = "PID",
    .description =
        "Sends ResumeRuntime to .NET process PID. A runtime started with\n"
        "DOTNET_DefaultDiagnosticPortSuspend=1 waits before running any managed code\n"
        "until this arrives; a running process answers OK and nothing changes.\n",
    .epilogue =
        "exit codes: 0 resumed (or already running), 2 usage, 3 no such process, 4 not\n"
        ".NET, 5 no endpoint, 6 permission denied, 7 timed out, 8 connection/protocol\n"
        "failure, 10 the runtime refused (the HRESULT is printed).\n",
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT,
    .default_timeout_ms = DEFAULT_TIMEOUT_MS,
    .pid = 1,
    .args_error = "expected PID",
};

/* Harmless on a running process, so no check that the runtime is paused. */
int cmd_resume(int argc, char **argv)
{
    cli_args_t a;
    cli_run_t run;
    clra_status_t st;
    int p = cli_parse(&resume_verb, argc, argv, NULL, &a);
    if (p != 0)
        return p > 0 ? EXIT_OK : a.fail_exit;
    cli_run_begin(&run, a.pid, a.json);
    clra_target_t target = clra_target_pid(a.pid);
    int rc = clra_runtime_resume(&target, (int)a.timeout_ms, &st);
    if (!cli_result_open(&run, rc == 0) && rc == 0)
        printf("resumed process %d (a runtime that was not paused ignores this)\n", a.pid);
    cli_failure_t f = {.rc = rc, .st = &st, .action = "resume"};
    return cli_result_close(&run, rc ? &f : NULL);
}
