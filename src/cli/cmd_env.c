/* cmd_env.c - `clrattach env` and `clrattach setenv`: read and change a running process's
 * environment through its runtime. */
#include "verbs.h"
#include "base/cli.h"
#include "base/options.h"

#include <string.h>

#define DEFAULT_TIMEOUT_MS 10000

static const cli_verb_t env_verb = {
    .name = "env",
    .synopsis = "PID",
    .description =
        "Prints the environment of .NET process PID as its runtime sees it now, one\n"
        "NAME=VALUE per line (changes the app or 'clrattach setenv' made after startup\n"
        "included, unlike /proc/PID/environ). --json prints {\"variables\": {NAME: VALUE,\n"
        "...}}.\n",
    .epilogue = "exit codes: 0 printed, 2 usage, 3 no such process, 4 not .NET, 5 no endpoint,\n"
                "6 permission denied, 7 timed out, 8 connection/protocol failure, 10 the runtime\n"
                "refused (the HRESULT is printed).\n",
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT,
    .default_timeout_ms = DEFAULT_TIMEOUT_MS,
    .pid = 1,
    .args_error = "expected PID",
};

static const cli_verb_t setenv_verb = {
    .name = "setenv",
    .synopsis = "PID NAME [VALUE]",
    .description =
        "Sets NAME=VALUE inside .NET process PID (Environment.GetEnvironmentVariable sees\n"
        "it at once); without VALUE, removes NAME. VALUE may contain '=' and ';'; put\n"
        "'--' before a VALUE that starts with '-'.\n",
    .epilogue =
        "exit codes: 0 set (or removed), 2 usage, 3 no such process, 4 not .NET, 5 no\n"
        "endpoint, 6 permission denied, 7 timed out, 8 connection/protocol failure, 10\n"
        "the runtime refused (the HRESULT is printed).\n",
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT,
    .default_timeout_ms = DEFAULT_TIMEOUT_MS,
    .pid = 1,
    .min_args = 1,
    .max_args = 2,
    .args_error = "expected PID NAME [VALUE]",
};

/* The variables as text lines or as the members of one JSON object. */
static int print_env(cli_run_t *run, const clra_environment_t *env)
{
    json_out_t *j = cli_result_open(run, 1);
    if (!j) {
        for (size_t i = 0; i < env->count; i++)
            printf("%s=%s\n", cli_vis(env->vars[i].name), cli_vis(env->vars[i].value));
        return EXIT_OK;
    }
    json_int(j, "count", (long long)env->count);
    json_object(j, "variables");
    for (size_t i = 0; i < env->count; i++)
        json_str(j, env->vars[i].name, env->vars[i].value);
    json_close(j);
    return cli_result_close(run, NULL);
}

/* Reads the runtime's own view of the environment, not /proc/PID/environ. */
int cmd_env(int argc, char **argv)
{
    cli_args_t a;
    cli_run_t run;
    clra_status_t st;
    clra_environment_t env;
    int p = cli_parse(&env_verb, argc, argv, NULL, &a);
    if (p != 0)
        return p > 0 ? EXIT_OK : a.fail_exit;
    cli_run_begin(&run, a.pid, a.json);
    clra_target_t target = clra_target_pid(a.pid);
    int rc = clra_environment_get(&target, (int)a.timeout_ms, &env, &st);
    if (rc != 0)
        return cli_fail(&run, &(cli_failure_t){.rc = rc, .st = &st,
                                               .action = "read the environment of"});
    int code = print_env(&run, &env);
    clra_environment_free(&env);
    return code;
}

/* NAME is checked here: the runtime would take "A=B" as a name and set it. */
int cmd_setenv(int argc, char **argv)
{
    cli_args_t a;
    cli_run_t run;
    clra_status_t st;
    int p = cli_parse(&setenv_verb, argc, argv, NULL, &a);
    if (p != 0)
        return p > 0 ? EXIT_OK : a.fail_exit;
    const char *name = a.args[0], *value = a.nargs > 1 ? a.args[1] : NULL;
    if (!name[0] || strchr(name, '=')) {
        fprintf(stderr, "clrattach setenv: NAME must be non-empty and contain no '=' (got '%s'); "
                "pass the value as a separate argument\n", name);
        return EXIT_USAGE;
    }
    cli_run_begin(&run, a.pid, a.json);
    clra_target_t target = clra_target_pid(a.pid);
    int rc = clra_environment_set(&target, name, value, (int)a.timeout_ms, &st);
    json_out_t *j = cli_result_open(&run, rc == 0);
    if (j) {
        json_str(j, "name", name);
        json_str(j, "value", value);
    } else if (rc == 0) {
        printf(value ? "set %s in process %d\n" : "removed %s from process %d\n", name, a.pid);
    }
    cli_failure_t f = {.rc = rc, .st = &st,
                       .action = value ? "set a variable in" : "remove a variable from"};
    return cli_result_close(&run, rc ? &f : NULL);
}
