/* launch_args.c - the options of `clrattach launch`, one table for every platform, read before
 * anything is started; the files they name are checked next (launch_check.c). */
#include "launch/launch.h"
#include "launch/launch_platform.h"
#include "launch/launch_sdk.h"
#include "trace/trace_options.h"

#include <stdlib.h>
#include <string.h>

/* --startup-hook: made absolute here (checked once every option is read, by
 * launch_check_inputs). */
static int take_hook(void *dest, const char *arg)
{
    launch_opts_t *o = CLI_CONTAINER(dest, launch_opts_t, hooks);
    if (o->nhooks == LAUNCH_MAX_HOOKS) {
        fprintf(stderr, "clrattach launch: at most %d --startup-hook\n", LAUNCH_MAX_HOOKS);
        return -1;
    }
    if (cli_absolute_path(arg, o->hooks[o->nhooks], CLRA_PATH_MAX) != 0) {
        cli_say_path_problem("clrattach launch", arg, CLRA_PATH_MAX);
        return -1;
    }
    o->nhooks++;
    return 0;
}

/* --env NAME=VALUE: kept as given, for putenv in the child. */
static int take_env(void *dest, const char *arg)
{
    launch_opts_t *o = CLI_CONTAINER(dest, launch_opts_t, env);
    if (!strchr(arg, '=') || arg[0] == '=' || o->nenv == LAUNCH_MAX_ENV) {
        fprintf(stderr, "clrattach launch: --env wants NAME=VALUE (at most %d), not '%s'\n",
                LAUNCH_MAX_ENV, cli_vis(arg));
        return -1;
    }
    o->env[o->nenv++] = (char *)arg; /* an argv string: putenv keeps it */
    return 0;
}

/* --trace: the providers option trace itself takes. */
static int take_trace(void *dest, const char *arg)
{
    return trace_opt_providers(dest, arg);
}

/* --profile FILE: kept as given; launch_profile_choose checks it. */
static int take_profile(void *dest, const char *arg)
{
    *(const char **)dest = arg;
    return 0;
}

/* --profiler: made absolute here, checked once all options are read. */
static int take_profiler(void *dest, const char *arg)
{
    if (cli_absolute_path(arg, dest, CLRA_PATH_MAX) == 0)
        return 0;
    cli_say_path_problem("clrattach launch", arg, CLRA_PATH_MAX);
    return -1;
}

/* --trace-output: a trace setting, so it needs --trace too. */
static int take_trace_output(void *dest, const char *arg)
{
    launch_opts_t *o = CLI_CONTAINER(dest, launch_opts_t, trace_output);
    o->tr.settings++;
    if ((size_t)snprintf(o->trace_output, sizeof o->trace_output, "%s", arg) <
        sizeof o->trace_output)
        return 0;
    fprintf(stderr, "clrattach launch: --trace-output path is too long\n");
    return -1;
}

static const cli_opt_t launch_opts[] = {
    CLI_CALL("profiler", CLI_ARG_REQUIRED, launch_opts_t, profiler, "PATH", take_profiler,
             "the profiler library (made absolute)"),
    CLI_GUID("clsid", launch_opts_t, clsid,
             "its CLSID (default: the hello profiler's,\n" CLSID_HELLO_TEXT ")"),
    CLI_STRING("data", launch_opts_t, data, "TEXT",
               "settings for the profiler: StartupProfiler carries no client data, so TEXT goes "
               "into COMMAND's CLRPROF_OPTIONS, where libclrprof profilers read it"),
    CLI_CALL("profile", CLI_ARG_REQUIRED, launch_opts_t, profile_output, "FILE", take_profile,
               "sample COMMAND's managed stacks from startup until it exits (or Ctrl-C) with "
               "clrattach's sampler as the startup profiler; FILE's extension picks the format "
               "(.html, .folded/.txt, .json, .pb, .pb.gz)"),
    CLI_STRING("profile-mode", launch_opts_t, profile_mode, "cpu|wall",
               "as `clrattach profile --mode` (default cpu)"),
    CLI_STRING("profile-method", launch_opts_t, profile_method, "signal|suspend|walk",
               "as `clrattach profile --method` (default signal, on Windows suspend;\n"
               "else walk)"),
    CLI_INT("profile-hz", launch_opts_t, profile_hz, "N", 1, 1000,
            "samples per second (default 99)"),
    CLI_CALL("startup-hook", CLI_ARG_REQUIRED, launch_opts_t, hooks, "DLL", take_hook,
             "a managed assembly whose StartupHook.Initialize() runs before Main "
             "(ApplyStartupHook; .NET 8 or later). Checked first: a hook the runtime cannot run "
             "ends the program. Repeatable (up to " CLI_STR(LAUNCH_MAX_HOOKS) "), run in the "
             "order given"),
    CLI_CALL("trace", CLI_ARG_REQUIRED, launch_opts_t, tr, "SPEC", take_trace,
             "record an EventPipe trace from the first instruction until COMMAND exits; "
             "providers as `clrattach trace --providers`:" TRACE_SPEC_HELP),
    CLI_CALL("trace-output", CLI_ARG_REQUIRED, launch_opts_t, trace_output, "FILE",
             take_trace_output, "where to write it (default COMMAND-PID.nettrace in the current "
             "directory, e.g. dotnet-4242.nettrace)"),
    TRACE_FORMAT_OPTION(launch_opts_t, formats, "the trace file"),
    TRACE_STOP_EVENT_OPTIONS(launch_opts_t, stop_event),
    CLI_DURATION_YEAR("duration", launch_opts_t, trace_duration_s,
                      "stop the trace S seconds (or dd:hh:mm:ss) after it started while COMMAND "
                      "runs on (default: when COMMAND exits)"),
    TRACE_SETTING_OPTIONS(launch_opts_t, tr),
    CLI_CALL("env", CLI_ARG_REQUIRED, launch_opts_t, env, "NAME=VALUE", take_env,
             "add to COMMAND's environment (repeatable)"),
    CLI_END,
};

static const cli_verb_t launch_verb = {
    .name = "launch",
    .synopsis = "-- COMMAND [ARGS...]",
    .description = launch_description,
    .epilogue = launch_epilogue,
    .opts = launch_opts,
    .common = CLI_COMMON_TIMEOUT | CLI_COMMON_JSON,
    .json_help = "print JSON Lines on stdout instead of text on stderr: one object with\n"
                 "\"event\":\"started\" and COMMAND's pid as soon as it runs, then one with\n"
                 "\"event\":\"result\" when launch ends (what was started, the trace's and\n"
                 "the profile's files and checks, COMMAND's exit, exit_code). COMMAND's\n"
                 "stdout then goes to launch's stderr, so stdout holds JSON only",
    .timeout_help = "how long to wait for the runtime at each step, in milliseconds",
    .default_timeout_ms = LAUNCH_DEFAULT_TIMEOUT_MS,
    .min_args = 1,
    .max_args = -1,
    .stop_at_arg = 1,
    .args_error = "expected -- COMMAND [ARGS...]",
};

/* --profile-mode, --profile-method and --profile-hz: checked with or without --profile; with it, the sampler
 * becomes the startup profiler (launch_profile_choose). */
static int check_profile(launch_opts_t *o)
{
    o->profile_mode_given = o->profile_mode != NULL;
    if (!o->profile_mode)
        o->profile_mode = "cpu";
    if (strcmp(o->profile_mode, "cpu") != 0 && strcmp(o->profile_mode, "wall") != 0) {
        fprintf(stderr, "clrattach launch: --profile-mode is cpu or wall, not '%s'\n",
                o->profile_mode);
        return -1;
    }
    int given = o->profile_mode_given || o->profile_hz || o->profile_method;
    if (!o->profile_output) {
        if (given)
            fprintf(stderr, "clrattach launch: --profile-mode, --profile-method and "
                    "--profile-hz need --profile FILE\n");
        return given ? -1 : 0;
    }
    return launch_profile_choose(o);
}

/* What makes sense together: something to do, trace settings only with a trace. */
static int check_combination(launch_opts_t *o, int trace_settings)
{
    int tracing = o->cfg.provider_count > 0;
    if (check_profile(o) != 0)
        return -1;
    if (!o->profiler[0] && o->nhooks == 0 && !tracing) {
        fprintf(stderr, "clrattach launch: nothing to do: %s\n", launch_nothing_to_do);
        return -1;
    }
    if (trace_settings && !tracing) {
        fprintf(stderr, "clrattach launch: --trace-output, --format, --duration, "
                "--stopping-event-*, --rundown, --no-rundown, --rundown-keyword, --no-stackwalk "
                "and --buffer-mb need --trace PROVIDERS\n");
        return -1;
    }
    return 0;
}

/* Options stop at COMMAND, so COMMAND's own options reach it untouched. */
int launch_parse(int argc, char **argv, launch_opts_t *o)
{
    cli_args_t a;
    clra_guid_parse(CLSID_HELLO_TEXT, &o->clsid);
    clra_trace_config_init(&o->cfg);
    o->tr = (trace_option_state_t){.cfg = &o->cfg, .providers_flag = "--trace"};
    int p = cli_parse(&launch_verb, argc, argv, o, &a);
    if (p != 0)
        return p;
    if (trace_option_settle(&o->tr) != 0 || trace_stop_event_settle(&o->stop_event) != 0)
        return -1;
    o->timeout_ms = a.timeout_ms;
    o->json = a.json;
    o->command = a.args;
    o->command[a.nargs] = NULL; /* argv was reordered: end COMMAND's argv where it ends */
    if (launch_refuses_sdk_child(o->command))
        return -1;
    int trace_settings = o->tr.settings || o->formats || o->stop_event.provider ||
                         o->trace_duration_s || o->trace_output[0];
    return check_combination(o, trace_settings);
}
