/* launch_json.c - `clrattach launch --json`: JSON Lines on stdout. COMMAND may run for hours,
 * and a script needs its pid at once (to attach, sample or signal it), so one object comes as
 * soon as it runs ("event":"started") and one when launch ends ("event":"result": ok, pid, the
 * error members every verb has, exit_code, elapsed_ms). A launch that fails before COMMAND
 * runs writes the result alone. docs/launch.md has the shapes. */
#include "launch/launch_run.h"

/* What was asked for, in both lines: COMMAND, the profiler (and whether it is mapped, once
 * that is known) and the startup hooks. */
static void asked(json_out_t *j, const launch_t *l)
{
    const launch_opts_t *o = l->o;
    json_array(j, "command");
    for (char **arg = o->command; arg && *arg; arg++)
        json_str(j, NULL, *arg);
    json_close(j);
    if (o->profiler[0] && !l->profiling) {
        char clsid[37];
        clra_guid_format(&o->clsid, clsid);
        json_object(j, "profiler");
        json_str(j, "path", o->profiler);
        json_str(j, "clsid", clsid);
        if (l->loaded >= 0)
            json_bool(j, "loaded", l->loaded);
        json_close(j);
    }
    if (o->nhooks == 0)
        return;
    json_array(j, "startup_hooks");
    for (int i = 0; i < o->nhooks; i++)
        json_str(j, NULL, o->hooks[i]);
    json_close(j);
}

/* The session as it started: where it goes, its id and the command that started it. */
static void trace_started(json_out_t *j, const launch_trace_t *t)
{
    char id[24];
    snprintf(id, sizeof id, "0x%llx", (unsigned long long)t->s.id);
    json_object(j, "trace");
    json_str(j, "output", t->path);
    json_str(j, "session_id", id);
    json_int(j, "command_version", t->s.command_version);
    json_close(j);
}

/* The sampler as it started: FILE, its settings and whether it is mapped. */
static void profile_started(json_out_t *j, const launch_t *l)
{
    const launch_opts_t *o = l->o;
    json_object(j, "profile");
    json_str(j, "output", o->profile_output);
    json_str(j, "mode", o->profile_mode);
    json_int(j, "hz", o->profile_hz ? o->profile_hz : 99);
    json_str(j, "sampler", o->profiler);
    if (l->loaded >= 0)
        json_bool(j, "loaded", l->loaded);
    json_close(j);
}

/* Written, and flushed, once the runtime is resumed and the profiler checked. */
void launch_json_started(const launch_t *l)
{
    json_out_t j;
    json_begin(&j, stdout);
    json_str(&j, "event", "started");
    json_int(&j, "pid", l->child.pid);
    asked(&j, l);
    if (l->tracing)
        trace_started(&j, &l->trace);
    if (l->profiling)
        profile_started(&j, l);
    json_double(&j, "elapsed_ms", cli_run_ms(&l->run));
    json_end(&j);
}

/* How COMMAND ended: its exit code as a shell gives it, and the signal that killed it. */
static void program(json_out_t *j, const launch_t *l)
{
    const char *name;
    int sig = launch_child_signal(&l->child, &name);
    json_object(j, "program");
    json_int(j, "exit_code", launch_child_exit_code(&l->child));
    if (sig) {
        json_int(j, "signal", sig);
        json_str(j, "signal_name", name);
    }
    json_close(j);
}

/* Whether launch did all it was asked: the profiler (or sampler) loaded, the trace complete
 * and converted, the profile written. COMMAND's own exit code is not launch's success (it is
 * in "program" and exit_code); a load never checked (COMMAND ended first) is not a failure. */
static int outputs_ok(const launch_t *l)
{
    if (l->loaded == 0)
        return 0;
    if (l->tracing && (l->trace.info.state != CLRA_NETTRACE_VALID || l->convert_failed))
        return 0;
    return !l->profiling || l->prof.written;
}

int launch_json_result(launch_t *l, int code)
{
    json_out_t *j = cli_result_open(&l->run, outputs_ok(l));
    if (!j)
        return code;
    json_str(j, "event", "result");
    asked(j, l);
    program(j, l);
    if (l->tracing) {
        json_object(j, "trace");
        launch_trace_json(j, &l->trace);
        json_close(j);
    }
    if (l->profiling) {
        json_object(j, "profile");
        launch_profile_json(j, &l->prof);
        json_close(j);
    }
    /* no error members: what failed is in the trace's or the profile's own */
    return cli_result_close(&l->run, &(cli_failure_t){.exit_code = code, .exit_code_set = 1});
}

/* The result of a launch that failed; its pid is COMMAND's once it has one. */
int launch_fail(launch_t *l, const cli_failure_t *f)
{
    json_out_t *j = cli_result_open(&l->run, 0);
    if (j) {
        json_str(j, "event", "result");
        asked(j, l);
        if (l->refused) {
            json_str(j, "refused", l->refused);
            json_str(j, "refused_path", l->refused_path);
        }
    }
    return cli_result_close(&l->run, f);
}

/* Text mode has said it all already: the failure's text is not printed twice. */
static void said(const cli_failure_t *f, const void *ctx)
{
    (void)f, (void)ctx;
}

int launch_fail_said(launch_t *l, int rc, int code, const char *detail, const char *hint)
{
    clra_status_t st = {0};
    snprintf(st.detail, sizeof st.detail, "%s", detail);
    cli_failure_t f = {.rc = rc, .st = &st, .action = "launch", .say = said, .hint = hint,
                       .exit_code = code};
    return launch_fail(l, &f);
}

const char launch_command_hint[] =
    "COMMAND must be the .NET program itself (dotnet app.dll, or the app's executable) with "
    "diagnostics enabled; run it without clrattach to see how it ends";
