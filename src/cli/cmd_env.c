/* cmd_env.c - `clrattach env` and `clrattach setenv`: read and change a running process's
 * environment through its runtime. */
#include "cli.h"

#include <string.h>

#define DEFAULT_TIMEOUT_MS 10000

static void env_usage(FILE *f)
{
    fprintf(f,
            "usage: clrattach env [--json] [--timeout MS] PID\n"
            "\n"
            "Prints the environment of .NET process PID as its runtime sees it now, one NAME=VALUE\n"
            "per line (changes the app or 'clrattach setenv' made after startup included, unlike\n"
            "/proc/PID/environ). --json prints {\"variables\": {NAME: VALUE, ...}}.\n"
            "\n"
            "options:\n"
            "  --json         one JSON object instead of text\n"
            "  --timeout MS   deadline for the whole exchange (default %d)\n",
            DEFAULT_TIMEOUT_MS);
}

static void setenv_usage(FILE *f)
{
    fprintf(f,
            "usage: clrattach setenv [--json] [--timeout MS] PID NAME [VALUE]\n"
            "\n"
            "Sets NAME=VALUE inside .NET process PID (Environment.GetEnvironmentVariable sees it\n"
            "at once); without VALUE, removes NAME. VALUE may contain '=' and ';'.\n"
            "\n"
            "options:\n"
            "  --json         one JSON object instead of text\n"
            "  --timeout MS   deadline for the whole exchange (default %d)\n",
            DEFAULT_TIMEOUT_MS);
}

static const cli_verb_spec_t env_spec = {"env", "", 0, 0, DEFAULT_TIMEOUT_MS, env_usage, NULL};
static const cli_verb_spec_t setenv_spec = {"setenv", "NAME [VALUE]", 1, 2, DEFAULT_TIMEOUT_MS,
                                            setenv_usage, NULL};

static void print_env(const cli_common_t *o, const clra_environment_t *env)
{
    json_out_t j;
    if (!o->json) {
        for (size_t i = 0; i < env->count; i++)
            printf("%s=%s\n", env->vars[i].name, env->vars[i].value);
        return;
    }
    cli_json_start(o, &j, 0);
    json_int(&j, "count", (long long)env->count);
    json_object(&j, "variables");
    for (size_t i = 0; i < env->count; i++)
        json_str(&j, env->vars[i].name, env->vars[i].value);
    json_end(&j);
}

int cmd_env(int argc, char **argv)
{
    cli_common_t o;
    clra_status_t st;
    clra_environment_t env;
    json_out_t j;
    if (cli_parse_common(argc, argv, &env_spec, &o) != 0)
        return EXIT_USAGE;
    clra_target_t target = clra_target_pid(o.pid);
    int rc = clra_environment_get(&target, (int)o.timeout_ms, &env, &st);
    if (rc == 0) {
        print_env(&o, &env);
        clra_environment_free(&env);
        return EXIT_OK;
    }
    return cli_finish(cli_json_start(&o, &j, rc), "read the environment of", &o, rc, &st);
}

int cmd_setenv(int argc, char **argv)
{
    cli_common_t o;
    clra_status_t st;
    json_out_t j;
    if (cli_parse_common(argc, argv, &setenv_spec, &o) != 0)
        return EXIT_USAGE;
    const char *name = o.args[0], *value = o.nargs > 1 ? o.args[1] : NULL;
    if (!name[0] || strchr(name, '=')) {
        fprintf(stderr, "clrattach setenv: NAME must be non-empty and contain no '=' (got '%s'); "
                "pass the value as a separate argument\n", name);
        return EXIT_USAGE;
    }
    clra_target_t target = clra_target_pid(o.pid);
    int rc = clra_environment_set(&target, name, value, (int)o.timeout_ms, &st);
    json_out_t *jp = cli_json_start(&o, &j, rc);
    if (jp) {
        json_str(jp, "name", name);
        json_str(jp, "value", value);
    } else if (rc == 0) {
        printf(value ? "set %s in process %d\n" : "removed %s from process %d\n", name, o.pid);
    }
    return cli_finish(jp, value ? "set a variable in" : "remove a variable from", &o, rc, &st);
}
