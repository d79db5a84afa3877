/* launch_args_win.c - the options of `clrattach launch` on Windows and COMMAND's command line.
 * The Linux options the Windows build cannot serve yet (--trace, --profile, --startup-hook) are
 * known here and refused by name, so the user learns why instead of "unknown option". */
#include "launch/launch_win.h"
#include "launch/launch_sdk.h"

#include <stdlib.h>
#include <string.h>
#include <windows.h>

/* The one sentence for an option Windows does not have yet. */
static int not_yet(const char *option, const char *why)
{
    fprintf(stderr, "clrattach launch: %s is not supported on Windows yet: %s (see "
            "docs/windows.md)\n", option, why);
    return -1;
}

static int refuse_trace(void *dest, const char *arg)
{
    (void)dest, (void)arg;
    return not_yet("--trace", "the trace stream is not built for Windows");
}
static int refuse_profile(void *dest, const char *arg)
{
    (void)dest, (void)arg;
    return not_yet("--profile", "the sampler profiler is built for Linux only so far");
}
static int refuse_hook(void *dest, const char *arg)
{
    (void)dest, (void)arg;
    return not_yet("--startup-hook", "the startup hook check is not built for Windows");
}

/* --env NAME=VALUE: kept as given, set in COMMAND's environment. */
static int take_env(void *dest, const char *arg)
{
    launch_win_opts_t *o = CLI_CONTAINER(dest, launch_win_opts_t, env);
    if (!strchr(arg, '=') || arg[0] == '=' || o->nenv == LAUNCH_MAX_ENV) {
        fprintf(stderr, "clrattach launch: --env wants NAME=VALUE (at most %d), not '%s'\n",
                LAUNCH_MAX_ENV, cli_vis(arg));
        return -1;
    }
    o->env[o->nenv++] = arg;
    return 0;
}

/* --profiler: made absolute against our working directory, as the runtime must find it. */
static int take_profiler(void *dest, const char *arg)
{
    if (cli_absolute_path(arg, dest, CLRA_PATH_MAX) == 0)
        return 0;
    cli_say_path_problem("clrattach launch", arg, CLRA_PATH_MAX);
    return -1;
}

static const cli_opt_t launch_opts[] = {
    CLI_CALL("profiler", CLI_ARG_REQUIRED, launch_win_opts_t, profiler, "PATH", take_profiler,
             "the profiler DLL (made absolute)"),
    CLI_GUID("clsid", launch_win_opts_t, clsid,
             "its CLSID (default: the hello profiler's,\n" CLSID_HELLO_TEXT ")"),
    CLI_STRING("data", launch_win_opts_t, data, "TEXT",
               "settings for the profiler: StartupProfiler carries no client data, so TEXT goes "
               "into COMMAND's CLRPROF_OPTIONS, where libclrprof profilers read it"),
    CLI_CALL("env", CLI_ARG_REQUIRED, launch_win_opts_t, env, "NAME=VALUE", take_env,
             "add to COMMAND's environment (repeatable)"),
    CLI_CALL("trace", CLI_ARG_REQUIRED, launch_win_opts_t, refused, "SPEC", refuse_trace,
             "not on Windows yet"),
    CLI_CALL("profile", CLI_ARG_REQUIRED, launch_win_opts_t, refused, "FILE", refuse_profile,
             "not on Windows yet"),
    CLI_CALL("startup-hook", CLI_ARG_REQUIRED, launch_win_opts_t, refused, "DLL", refuse_hook,
             "not on Windows yet"),
    CLI_END,
};

static const cli_verb_t launch_verb = {
    .name = "launch",
    .synopsis = "-- COMMAND [ARGS...]",
    .description =
        "Starts COMMAND (a .NET program) with its runtime paused before any managed code,\n"
        "on a private named pipe (DOTNET_DiagnosticPorts=<pipe name>,connect,suspend).\n"
        "While it is paused, registers the profiler with StartupProfiler, so it loads\n"
        "through ICorProfilerCallback::Initialize and may use every event flag (attach\n"
        "cannot). Then it resumes the runtime and waits for COMMAND, exiting with its\n"
        "exit code. COMMAND keeps the console and its standard handles; Ctrl-C reaches it\n"
        "as it reaches us (we ignore it once COMMAND runs; before, COMMAND is stopped).\n"
        "Options end at COMMAND (or at '--').\n",
    .epilogue =
        "example:\n"
        "  clrattach launch --profiler libhello_profiler.dll -- app.exe\n"
        "\n"
        "exit codes: COMMAND's own; before it runs: 2 usage, 4 COMMAND never connected\n"
        "(not .NET, or it could not be started), 7 timed out, 8 connection failure or\n"
        "COMMAND ended while paused, 10 the runtime refused the profiler, 130 Ctrl-C\n"
        "while paused (COMMAND is then stopped before running managed code).\n",
    .opts = launch_opts,
    .common = CLI_COMMON_TIMEOUT,
    .timeout_help = "how long to wait for the runtime at each step, in milliseconds",
    .default_timeout_ms = LAUNCH_DEFAULT_TIMEOUT_MS,
    .min_args = 1,
    .max_args = -1,
    .stop_at_arg = 1,
    .args_error = "expected -- COMMAND [ARGS...]",
};

int launch_win_parse(int argc, char **argv, launch_win_opts_t *o)
{
    cli_args_t a;
    clra_guid_parse(CLSID_HELLO_TEXT, &o->clsid);
    int p = cli_parse(&launch_verb, argc, argv, o, &a);
    if (p != 0)
        return p;
    o->timeout_ms = a.timeout_ms;
    o->command = a.args;
    o->command[a.nargs] = NULL;
    if (launch_refuses_sdk_child(o->command))
        return -1;
    if (!o->profiler[0]) {
        fprintf(stderr, "clrattach launch: nothing to do: give --profiler (on Windows the only "
                "startup action so far; see --help)\n");
        return -1;
    }
    wchar_t *w = launch_win_wide(o->profiler);
    DWORD attrs = w ? GetFileAttributesW(w) : INVALID_FILE_ATTRIBUTES;
    free(w);
    if (attrs == INVALID_FILE_ATTRIBUTES || (attrs & FILE_ATTRIBUTE_DIRECTORY)) {
        fprintf(stderr, "clrattach launch: cannot read the profiler %s: %s\n", o->profiler,
                attrs == INVALID_FILE_ATTRIBUTES ? "no such file" : "a directory");
        return -1;
    }
    return 0;
}

wchar_t *launch_win_wide(const char *s)
{
    int n = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, NULL, 0);
    wchar_t *w = n > 0 ? malloc((size_t)n * sizeof *w) : NULL;
    if (w && MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, s, -1, w, n) <= 0) {
        free(w);
        w = NULL;
    }
    return w;
}

/* Appends one argument, quoted when it must be: inside quotes, backslashes count only before a
 * quote (2n+1 of them make n and a literal quote) and before the closing quote (doubled). */
static wchar_t *append_arg(wchar_t *p, const wchar_t *arg)
{
    if (arg[0] && !wcspbrk(arg, L" \t\n\v\"")) {
        wcscpy(p, arg);
        return p + wcslen(arg);
    }
    *p++ = L'"';
    for (const wchar_t *s = arg;; s++) {
        size_t slashes = 0;
        while (*s == L'\\') {
            slashes++;
            s++;
        }
        size_t times = *s == L'"' || !*s ? slashes * 2 : slashes;
        for (size_t i = 0; i < times; i++)
            *p++ = L'\\';
        if (!*s)
            break;
        if (*s == L'"')
            *p++ = L'\\';
        *p++ = *s;
    }
    *p++ = L'"';
    return p;
}

wchar_t *launch_win_command_line(char *const *argv)
{
    size_t cap = 1;
    int n = 0;
    while (argv[n])
        n++;
    wchar_t **w = calloc((size_t)n + 1, sizeof *w);
    for (int i = 0; w && i < n; i++) {
        if (!(w[i] = launch_win_wide(argv[i]))) {
            while (i-- > 0)
                free(w[i]);
            free(w);
            return NULL;
        }
        cap += wcslen(w[i]) * 2 + 3; /* every character escaped, two quotes, a space */
    }
    wchar_t *line = w ? malloc(cap * sizeof *line) : NULL;
    wchar_t *p = line;
    for (int i = 0; line && i < n; i++) {
        if (i)
            *p++ = L' ';
        p = append_arg(p, w[i]);
    }
    if (p)
        *p = L'\0';
    for (int i = 0; w && i < n; i++)
        free(w[i]);
    free(w);
    return line;
}
