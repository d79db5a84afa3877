/* cmd_launch.c - `clrattach launch`: start a .NET program paused at its first instruction on a
 * diagnostic port of our own; start a trace, register a startup profiler and queue startup
 * hooks while it is paused; then let it run and wait for it. One sequence for every platform:
 * the process, its port and its signals are behind launch/launch_platform.h
 * (launch_spawn_unix.c, launch_spawn_win.c). Options are in launch_args.c and the checks of
 * their files in launch_check.c, the trace's drain and report in launch_trace.c, the startup
 * profile (--profile) in launch_profile.c, the --json lines in launch_json.c. */
#include "verbs.h"
#include "launch/launch_run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Waits for the runtime's next advertise in short slices, so a program that exits (or never
 * was .NET) or a Ctrl-C (Windows) is noticed at once instead of at the deadline. 0, a CLRA_E*
 * code, 1 when the child ended (its status set), 2 when interrupted. */
static int wait_advertise(launch_t *l, const clra_guid_t *cookie, clra_advertise_t *ad,
                          clra_status_t *st)
{
    int timeout_ms = (int)l->o->timeout_ms;
    for (int waited = 0;; waited += 200) {
        int rc = clra_reverse_server_wait(l->srv, cookie, 200, ad, st);
        if (rc != CLRA_ETIMEDOUT)
            return rc;
        if (launch_child_interrupted())
            return 2;
        if (launch_child_wait(&l->child, 0) == 1)
            return 1;
        if (waited >= timeout_ms) {
            snprintf(st->detail, sizeof st->detail, "the runtime did not connect to the launch "
                     "%s within %d ms", launch_port_word, timeout_ms);
            return CLRA_ETIMEDOUT;
        }
    }
}

/* One command on the runtime's next advertised connection. */
typedef int (*port_command_fn)(const clra_target_t *t, launch_t *l, const void *arg,
                               clra_status_t *st);

static int on_port(launch_t *l, port_command_fn fn, const void *arg, clra_status_t *st)
{
    clra_advertise_t again;
    clra_connection_t *conn;
    int rc = wait_advertise(l, &l->ad.cookie, &again, st);
    if (rc)
        return rc;
    rc = clra_reverse_server_accept(l->srv, &l->ad.cookie, &conn);
    clra_target_t t = clra_target_connection(conn);
    return rc ? rc : fn(&t, l, arg, st);
}

static int do_trace(const clra_target_t *t, launch_t *l, const void *arg, clra_status_t *st)
{
    (void)arg;
    return launch_trace_start(&l->trace, t, &l->o->cfg, (int)l->o->timeout_ms, l->child.pid,
                              st);
}

static int do_startup_profiler(const clra_target_t *t, launch_t *l, const void *arg,
                               clra_status_t *st)
{
    (void)arg;
    return clra_profiler_startup_register(t, &l->o->clsid, l->o->profiler,
                                          (int)l->o->timeout_ms, st);
}

static int do_hook(const clra_target_t *t, launch_t *l, const void *arg, clra_status_t *st)
{
    return clra_startup_hook_apply(t, arg, (int)l->o->timeout_ms, st);
}

/* arg: why, as the --json result names it ("signal", "duration", "stopping-event"). */
static int do_stop_trace(const clra_target_t *t, launch_t *l, const void *arg,
                         clra_status_t *st)
{
    return launch_trace_stop(&l->trace, t, (int)l->o->timeout_ms, arg, st);
}

static int do_resume(const clra_target_t *t, launch_t *l, const void *arg, clra_status_t *st)
{
    (void)arg;
    return clra_runtime_resume(t, (int)l->o->timeout_ms, st);
}

/* The runtime advertises before it marks itself paused, so the first StartupProfiler can meet
 * E_INVALIDARG ("not paused") although the pause is certain to come: retry until it does. */
static int startup_profiler_when_paused(launch_t *l, clra_status_t *st)
{
    for (int waited = 0;; waited += 20) {
        int rc = on_port(l, do_startup_profiler, NULL, st);
        if (rc != CLRA_ERUNTIME || (uint32_t)st->hresult != 0x80070057u ||
            waited >= l->o->timeout_ms)
            return rc;
        launch_sleep_ms(20);
    }
}

/* Says what runs once the runtime is resumed; the profiler only once it is really mapped
 * (l->loaded; with --json the started line says it, and only the warning is text). */
static void report_running(launch_t *l)
{
    const launch_opts_t *o = l->o;
    int pid = l->child.pid;
    for (int i = 0; i < o->nhooks && !o->json; i++)
        fprintf(stderr, "clrattach launch: process %d runs startup hook %s before Main\n", pid,
                o->hooks[i]);
    if (!o->profiler[0]) {
        if (!o->json)
            fprintf(stderr, "clrattach launch: process %d runs\n", pid);
        return;
    }
    int mapped = launch_child_wait_loaded(&l->child, o->profiler,
                                          o->timeout_ms < 10000 ? (int)o->timeout_ms : 10000);
    l->loaded = mapped;
    if (mapped == 1 && !o->json)
        fprintf(stderr, "clrattach launch: process %d runs with startup profiler %s\n", pid,
                o->profiler);
    else if (mapped == 0)
        fprintf(stderr, "clrattach launch: warning: process %d runs, but its runtime did not "
                "load %s (wrong CLSID, missing DllGetClassObject, or Initialize failed; the "
                "runtime logs why only to its event log)\n", pid, o->profiler);
}

/* Names the step the runtime refused (step: as --json's "refused" says it), before the common
 * error report. */
static int refused(launch_t *l, int rc, const char *step, const char *what, const char *path)
{
    if (rc != CLRA_ERUNTIME)
        return rc;
    l->refused = step;
    l->refused_path = path;
    if (!l->o->json)
        fprintf(stderr, "clrattach launch: the runtime refused %s%s%s\n", what, path ? " " : "",
                path ? path : "");
    return rc;
}

/* Runs the startup sequence on the port: the trace first, so it sees everything the others
 * cause; then the profiler and the hooks; then ResumeRuntime. 0 once the runtime is resumed,
 * 1 when the program ended first, 2 when interrupted, or a CLRA_E* code. */
static int prepare_and_resume(launch_t *l, clra_status_t *st)
{
    const launch_opts_t *o = l->o;
    int rc = wait_advertise(l, NULL, &l->ad, st);
    l->connected = rc == 0;
    if (rc == 0 && l->tracing)
        rc = refused(l, on_port(l, do_trace, NULL, st), "trace", "the trace", NULL);
    /* From here a signal to launch is held until the trace is stopped (or the sampler
     * drained), even during startup. */
    launch_signals_hold(rc == 0 && (l->tracing || l->profiling));
    if (rc == 0 && o->profiler[0])
        rc = refused(l, startup_profiler_when_paused(l, st), "profiler", "the startup profiler",
                     o->profiler);
    for (int i = 0; rc == 0 && i < o->nhooks; i++)
        rc = refused(l, on_port(l, do_hook, o->hooks[i], st), "startup_hook",
                     "the startup hook", o->hooks[i]);
    if (rc == 0)
        rc = on_port(l, do_resume, NULL, st);
    if (rc != 0)
        return rc;
    launch_child_resumed();
    l->started = 1;
    report_running(l);
    if (o->json)
        launch_json_started(l);
    if (l->profiling)
        launch_profile_connect(&l->prof, l->child.pid, (int)o->timeout_ms);
    return rc;
}

/* Ends the trace cleanly and drains the sampler before the held signal goes on; a second
 * signal meanwhile goes on at once (the handler no longer holds it) and cuts the trace short. */
static void stop_then_forward(launch_t *l)
{
    clra_status_t st;
    const char *sig = launch_signal_name();
    if (!l->o->json)
        fprintf(stderr, "clrattach launch: %s: %s, then passing the signal on (a second one is "
                "passed on at once)\n", sig, l->tracing && !l->trace_done && l->profiling
                ? "stopping the trace and draining the sampler" : l->tracing && !l->trace_done
                ? "stopping the trace"
                : "draining the sampler");
    if (l->profiling)
        launch_profile_poll(&l->prof, 1, (int)l->o->timeout_ms);
    int rc = l->tracing && !l->trace_done ? on_port(l, do_stop_trace, "signal", &st) : 0;
    if (rc < 0)
        fprintf(stderr, "clrattach launch: could not stop the trace: %s (%s); passing %s on\n",
                clra_strerror(rc), cli_vis(st.detail), sig);
    launch_signal_forward(&l->child);
}

/* --duration or the stopping event (step: which, as --json names it): ends the trace (rundown
 * and all) and writes its formats while the program runs on; a signal from then on holds only
 * for the sampler. */
static void stop_trace_early(launch_t *l, const char *step, const char *why)
{
    clra_status_t st;
    if (!l->o->json)
        fprintf(stderr, "clrattach launch: %s: stopping the trace; process %d runs on\n", why,
                l->child.pid);
    int rc = on_port(l, do_stop_trace, step, &st);
    if (rc < 0)
        fprintf(stderr, "clrattach launch: could not stop the trace: %s (%s)\n",
                clra_strerror(rc), cli_vis(st.detail));
    launch_trace_finish(&l->trace, (int)l->o->timeout_ms, l->child.pid, 0);
    l->trace_done = 1;
    l->convert_failed = launch_trace_convert(&l->trace, l->o->formats) != 0;
    launch_signals_hold(l->profiling);
}

/* Waits for the program; in short slices while a signal may be held for the trace or the
 * sampler, draining the sampler every second and watching for the trace's end. */
static void wait_program(launch_t *l)
{
    char why[400];
    while (!l->child.ended) {
        int holding = launch_signals_holding();
        const char *due = NULL;
        if (launch_child_wait(&l->child, !holding) != 0)
            return;
        if (holding && launch_signal_held()) {
            stop_then_forward(l);
        } else if (holding && l->tracing && !l->trace_done &&
                   (due = launch_trace_due(&l->trace, l->o->trace_duration_s, why, sizeof why))) {
            stop_trace_early(l, due, why);
        } else if (holding) {
            if (l->profiling)
                launch_profile_poll(&l->prof, 0, (int)l->o->timeout_ms);
            launch_sleep_ms(20);
        }
    }
}

/* The default trace file: COMMAND's base name and the program's pid, in our directory. */
static void default_trace_output(launch_opts_t *o, int pid)
{
    snprintf(o->trace_output, sizeof o->trace_output, "%.200s-%d.nettrace",
             launch_base_name(o->command[0]), pid);
}

/* Ends a launch that failed before the program ran any managed code (rc 1: it ended itself,
 * 2: interrupted). */
static int give_up(launch_t *l, int rc, clra_status_t *st)
{
    if (rc != 1)
        launch_child_stop(&l->child, rc == 2);
    if (l->tracing)
        launch_trace_abandon(&l->trace);
    if (l->profiling)
        launch_profile_abandon(&l->prof);
    cli_failure_t f = {.rc = rc, .st = st, .action = "launch"};
    if (rc == 1 || rc == 2) {
        f.exit_code = launch_child_explain(&l->child, rc, l->connected, st, &f.rc);
        f.say = launch_say_detail;
        f.hint = rc == 1 ? launch_command_hint : "run launch again";
    }
    return launch_fail(l, &f);
}

/* COMMAND could not be started (already said why): nothing to stop, outputs to remove. */
static int give_up_before_start(launch_t *l, int code, const clra_status_t *st)
{
    if (l->tracing)
        launch_trace_abandon(&l->trace);
    if (l->profiling)
        launch_profile_abandon(&l->prof);
    int not_run = code == EXIT_NOTDOTNET;
    return launch_fail_said(l, not_run ? CLRA_ENOTDOTNET : CLRA_EINVAL, code, st->detail,
                            not_run ? launch_command_hint : "check the --env settings");
}

/* An output file could not be made (out_file_open said why on stderr; errno is its reason). */
static int output_failed(launch_t *l, const char *flag, const char *path)
{
    char detail[CLRA_PATH_MAX + 200], hint[64];
    snprintf(detail, sizeof detail, "cannot create the %s file %s: %s", flag, path,
             strerror(errno));
    snprintf(hint, sizeof hint, "pick a writable path with %s", flag);
    return launch_fail_said(l, CLRA_EINVAL, EXIT_USAGE, detail, hint);
}

/* Opens the trace file the user chose and the profile before the program starts (the default
 * trace file needs its pid); 0, or EXIT_USAGE after saying why. */
static int open_outputs(launch_t *l, launch_opts_t *o, const char *dir)
{
    l->trace.file.fd = l->trace.file.dir = -1;
    if (l->tracing && o->trace_output[0] &&
        launch_trace_open(&l->trace, o->trace_output, &o->stop_event, o->json) != 0)
        return output_failed(l, "--trace-output", o->trace_output);
    if (l->profiling && launch_profile_open(&l->prof, o, dir) != 0) {
        int code = output_failed(l, "--profile", o->profile_output);
        if (l->tracing)
            launch_trace_abandon(&l->trace);
        return code;
    }
    if (l->profiling)
        o->data = l->prof.data; /* COMMAND's CLRPROF_OPTIONS (--data is refused with --profile) */
    return 0;
}

/* After the program ended: the trace's end and formats, the profile, and the exit code. */
static int finish(launch_t *l)
{
    const launch_opts_t *o = l->o;
    if (l->tracing && !l->trace_done) {
        launch_trace_finish(&l->trace, (int)o->timeout_ms, l->child.pid, l->child.status);
        l->convert_failed = launch_trace_convert(&l->trace, o->formats) != 0;
    }
    int code = launch_child_exit_code(&l->child);
    if (l->convert_failed && code == 0)
        code = EXIT_INTERNAL;
    if (l->profiling && launch_profile_finish(&l->prof, l->child.status) != 0 && code == 0)
        code = EXIT_INTERNAL;
    return o->json ? launch_json_result(l, code) : code;
}

/* Starts the program on port and sees it through; returns the exit code. */
static int start_and_run(launch_t *l, launch_opts_t *o, const launch_port_t *port)
{
    clra_status_t st;
    memset(&st, 0, sizeof st);
    int rc = launch_child_start(&l->child, o, port, &st);
    if (rc != 0)
        return rc > 0 ? give_up_before_start(l, rc, &st) : give_up(l, rc, &st);
    l->run.pid = l->child.pid; /* the result's pid: COMMAND's, once it runs */
    if (l->tracing && !o->trace_output[0]) {
        default_trace_output(o, l->child.pid);
        if (launch_trace_open(&l->trace, o->trace_output, &o->stop_event, o->json) != 0) {
            int code = output_failed(l, "--trace-output", o->trace_output);
            launch_child_stop(&l->child, 0);
            return code;
        }
    }
    rc = prepare_and_resume(l, &st);
    if (rc != 0)
        return give_up(l, rc, &st);
    /* The listener stays open: the runtime's next connection then waits quietly in the backlog
     * instead of retrying every half second for the rest of the program's life (and is there
     * when a signal needs the trace stopped). */
    wait_program(l);
    return finish(l);
}

/* Frees what launch_parse allocated. */
static void free_opts(launch_opts_t *o)
{
    clra_trace_config_free(&o->cfg);
    trace_stop_event_free(&o->stop_event);
}

/* The checked options on a port of our own: the launch itself. */
static int launch_on_port(launch_t *l, launch_opts_t *o)
{
    static launch_port_t port;
    clra_status_t st;
    int code = launch_port_make(&port);
    if (code != 0)
        return launch_fail_said(l, CLRA_EIO, code, "cannot make the launch port", NULL);
    int rc = clra_reverse_server_listen(port.listen, &l->srv, &st);
    if (rc) {
        cli_failure_t f = {.rc = rc, .st = &st, .action = launch_port_action,
                           .hint = launch_port_hint};
        code = launch_fail(l, &f);
    } else {
        code = open_outputs(l, o, port.dir);
        if (code == 0)
            code = start_and_run(l, o, &port);
        launch_child_release(&l->child);
        clra_reverse_server_close(l->srv);
    }
    launch_port_remove(&port);
    return code;
}

int cmd_launch(int argc, char **argv)
{
    static launch_opts_t o; /* the hook paths make it large for a stack */
    static launch_t l;      /* the profile's buffers, too */
    cli_failure_t f;
    clra_status_t st;
    memset(&o, 0, sizeof o);
    int p = launch_parse(argc, argv, &o);
    if (p != 0) {
        free_opts(&o);
        return p > 0 ? EXIT_OK : EXIT_USAGE;
    }
    l = (launch_t){.o = &o, .loaded = -1, .tracing = o.cfg.provider_count > 0,
                   .profiling = o.profile_output != NULL};
    cli_run_begin(&l.run, 0, o.json);
    int code = launch_check_inputs(&o, &f, &st) != 0 ? launch_fail(&l, &f)
                                                      : launch_on_port(&l, &o);
    free_opts(&o);
    return code;
}
