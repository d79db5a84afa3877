/* cmd_launch.c - `clrattach launch`: start a .NET program paused at its first instruction on a
 * diagnostic port of our own; start a trace, register a startup profiler and queue startup
 * hooks while it is paused; then let it run and wait for it. Options are in launch_args.c, the
 * trace's drain and report in launch_trace.c, the startup profile (--profile) in
 * launch_profile.c. */
#define _GNU_SOURCE
#include "verbs.h"
#include "launch/launch.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define EXIT_CHILD_NOT_STARTED 127

static volatile sig_atomic_t child_pid;
/* While a trace runs, the first signal is held until the trace is stopped (wait_program):
 * .NET dies of SIGINT and SIGTERM without ending its sessions, and the file would be cut.
 * While a profile is sampled, it is held until the sampler is drained. */
static volatile sig_atomic_t hold_signal, held_signal;

/* Passes the signal on: the program decides what Ctrl-C means, as if we were not there. */
static void forward_signal(int sig)
{
    if (hold_signal && !held_signal) {
        held_signal = sig;
        return;
    }
    if (child_pid > 0)
        kill(child_pid, sig);
}

static void install_forwarding(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = forward_signal;
    sa.sa_flags = SA_RESTART;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

/* Child side: our port goes first, so a port the user configured still works after ours. */
static void exec_command(const launch_opts_t *o, const char *socket_path)
{
    char *ports;
    const char *theirs = getenv("DOTNET_DiagnosticPorts");
    if (asprintf(&ports, "%s,connect,suspend%s%s", socket_path, theirs ? ";" : "",
                 theirs ? theirs : "") < 0)
        _exit(EXIT_CHILD_NOT_STARTED);
    setenv("DOTNET_DiagnosticPorts", ports, 1);
    if (o->data)
        setenv("CLRPROF_OPTIONS", o->data, 1);
    for (int i = 0; i < o->nenv; i++)
        putenv(o->env[i]);
    execvp(o->command[0], o->command);
    fprintf(stderr, "clrattach launch: cannot run '%s': %s\n", o->command[0], strerror(errno));
    _exit(EXIT_CHILD_NOT_STARTED);
}

/* Exit code of a finished child, shell style. */
static int exit_code_of(int status)
{
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* One launch in progress. */
typedef struct launch {
    const launch_opts_t *o;
    clra_reverse_server_t *srv;
    clra_advertise_t ad; /* the runtime's first advertise: its cookie picks its connections */
    int status;          /* the program's wait status once it ended */
    int ended;           /* it ended and was reaped (status is set) */
    int connected;       /* its runtime has advertised itself on the port */
    int tracing;
    int trace_done;      /* the trace was stopped and finished while the program runs on */
    launch_trace_t trace;
    int profiling;
    launch_profile_t prof;
    int convert_failed;  /* a --format file could not be written */
} launch_t;

/* Waits for the runtime's next advertise in short slices, so a program that exits (or never
 * was .NET) is noticed at once instead of at the deadline. 0, a CLRA_E* code, or 1 when the
 * child ended (l->status set). */
static int wait_advertise(launch_t *l, const clra_guid_t *cookie, clra_advertise_t *ad,
                          clra_status_t *st)
{
    int timeout_ms = (int)l->o->timeout_ms;
    for (int waited = 0;; waited += 200) {
        int rc = clra_reverse_server_wait(l->srv, cookie, 200, ad, st);
        if (rc != CLRA_ETIMEDOUT)
            return rc;
        if (waitpid(child_pid, &l->status, WNOHANG) == child_pid) {
            l->ended = 1;
            return 1;
        }
        if (waited >= timeout_ms) {
            snprintf(st->detail, sizeof st->detail, "the runtime did not connect to the launch "
                     "port within %d ms", timeout_ms);
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
    return launch_trace_start(&l->trace, t, &l->o->cfg, (int)l->o->timeout_ms, child_pid, st);
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

static int do_stop_trace(const clra_target_t *t, launch_t *l, const void *arg,
                         clra_status_t *st)
{
    (void)arg;
    return launch_trace_stop(&l->trace, t, (int)l->o->timeout_ms, st);
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
        usleep(20000);
    }
}

/* Whether /proc/PID/maps names path (1), not within timeout_ms (0), or the program ended (-1):
 * the runtime accepts StartupProfiler for any path and only finds out at load time, silently,
 * so this is the only way to tell the user it worked. */
static int wait_mapped(pid_t pid, const char *path, int timeout_ms)
{
    siginfo_t info;
    for (int waited = 0; waited <= timeout_ms; waited += 50) {
        int mapped = clra_library_is_mapped((int)pid, path);
        if (mapped == 1)
            return 1;
        if (held_signal) /* the user wants out: say nothing, stop the trace */
            return -1;
        /* A program that already ended has empty maps; WNOWAIT leaves it for the final wait. */
        info.si_pid = 0;
        if (mapped < 0 || (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
                   info.si_pid == pid))
            return -1;
        usleep(50000);
    }
    return 0;
}

/* Says what runs once the runtime is resumed; the profiler only once it is really mapped. */
static void report_running(const launch_opts_t *o)
{
    int pid = (int)child_pid;
    for (int i = 0; i < o->nhooks; i++)
        fprintf(stderr, "clrattach launch: process %d runs startup hook %s before Main\n", pid,
                o->hooks[i]);
    if (!o->profiler[0]) {
        fprintf(stderr, "clrattach launch: process %d runs\n", pid);
        return;
    }
    int mapped = wait_mapped(child_pid, o->profiler,
                             o->timeout_ms < 10000 ? (int)o->timeout_ms : 10000);
    if (mapped == 1)
        fprintf(stderr, "clrattach launch: process %d runs with startup profiler %s\n", pid,
                o->profiler);
    else if (mapped == 0)
        fprintf(stderr, "clrattach launch: warning: process %d runs, but its runtime did not "
                "load %s (wrong CLSID, missing DllGetClassObject, or Initialize failed; the "
                "runtime logs why only to its event log)\n", pid, o->profiler);
}

/* Names the step the runtime refused, before the common error report. */
static int refused(int rc, const char *what, const char *path)
{
    if (rc == CLRA_ERUNTIME)
        fprintf(stderr, "clrattach launch: the runtime refused %s%s%s\n", what, path ? " " : "",
                path ? path : "");
    return rc;
}

/* Runs the startup sequence on the port: the trace first, so it sees everything the others
 * cause; then the profiler and the hooks; then ResumeRuntime. 0 once the runtime is resumed,
 * 1 when the program ended first, or a CLRA_E* code. */
static int prepare_and_resume(launch_t *l, clra_status_t *st)
{
    const launch_opts_t *o = l->o;
    int rc = wait_advertise(l, NULL, &l->ad, st);
    l->connected = rc == 0;
    if (rc == 0 && l->tracing)
        rc = refused(on_port(l, do_trace, NULL, st), "the trace", NULL);
    /* From here a signal to launch is held until the trace is stopped (or the sampler
     * drained), even during startup. */
    hold_signal = rc == 0 && (l->tracing || l->profiling);
    if (rc == 0 && o->profiler[0])
        rc = refused(startup_profiler_when_paused(l, st), "the startup profiler", o->profiler);
    for (int i = 0; rc == 0 && i < o->nhooks; i++)
        rc = refused(on_port(l, do_hook, o->hooks[i], st), "the startup hook", o->hooks[i]);
    if (rc == 0)
        rc = on_port(l, do_resume, NULL, st);
    if (rc == 0)
        report_running(o);
    if (rc == 0 && l->profiling)
        launch_profile_connect(&l->prof, (int)child_pid, (int)o->timeout_ms);
    return rc;
}

/* Ends the trace cleanly and drains the sampler before the held signal goes on; a second
 * signal meanwhile goes on at once (the handler no longer holds it) and cuts the trace short. */
static void stop_then_forward(launch_t *l, pid_t pid)
{
    clra_status_t st;
    int sig = held_signal;
    fprintf(stderr, "clrattach launch: %s: %s, then passing the signal on (a second one is "
            "passed on at once)\n", strsignal(sig), l->tracing && !l->trace_done && l->profiling
            ? "stopping the trace and draining the sampler" : l->tracing && !l->trace_done
            ? "stopping the trace"
            : "draining the sampler");
    if (l->profiling)
        launch_profile_poll(&l->prof, 1, (int)l->o->timeout_ms);
    int rc = l->tracing && !l->trace_done ? on_port(l, do_stop_trace, NULL, &st) : 0;
    if (rc < 0)
        fprintf(stderr, "clrattach launch: could not stop the trace: %s (%s); passing %s on\n",
                clra_strerror(rc), cli_vis(st.detail), strsignal(sig));
    hold_signal = 0;
    if (!l->ended)
        kill(pid, sig);
}

/* --duration or the stopping event: ends the trace (rundown and all) and writes its formats
 * while the program runs on; a signal from then on holds only for the sampler. */
static void stop_trace_early(launch_t *l, pid_t pid, const char *why)
{
    clra_status_t st;
    fprintf(stderr, "clrattach launch: %s: stopping the trace; process %d runs on\n", why,
            (int)pid);
    int rc = on_port(l, do_stop_trace, NULL, &st);
    if (rc < 0)
        fprintf(stderr, "clrattach launch: could not stop the trace: %s (%s)\n",
                clra_strerror(rc), cli_vis(st.detail));
    launch_trace_finish(&l->trace, (int)l->o->timeout_ms, (int)pid, 0);
    l->trace_done = 1;
    l->convert_failed = launch_trace_convert(&l->trace, l->o->formats) != 0;
    hold_signal = l->profiling;
}

/* Waits for the program; in short slices while a signal may be held for the trace or the
 * sampler, draining the sampler every second and watching for the trace's end. */
static void wait_program(launch_t *l, pid_t pid)
{
    char why[400];
    while (!l->ended) {
        int holding = hold_signal;
        pid_t r = waitpid(pid, &l->status, holding ? WNOHANG : 0);
        if (r == pid || (r < 0 && errno != EINTR)) {
            l->ended = r == pid;
            return;
        }
        if (holding && held_signal) {
            stop_then_forward(l, pid);
        } else if (holding && l->tracing && !l->trace_done &&
                   launch_trace_due(&l->trace, l->o->trace_duration_s, why, sizeof why)) {
            stop_trace_early(l, pid, why);
        } else if (holding) {
            if (l->profiling)
                launch_profile_poll(&l->prof, 0, (int)l->o->timeout_ms);
            usleep(20000);
        }
    }
}

/* The default trace file: COMMAND's base name and the program's pid, in our directory. */
static void default_trace_output(launch_opts_t *o, pid_t pid)
{
    const char *slash = strrchr(o->command[0], '/');
    const char *base = slash ? slash + 1 : o->command[0];
    snprintf(o->trace_output, sizeof o->trace_output, "%.200s-%d.nettrace", base, (int)pid);
}

/* Stops a program that has not run managed code yet: nothing is left half done. */
static void stop_child(launch_t *l, pid_t pid)
{
    if (pid > 0) {
        kill(pid, SIGKILL);
        waitpid(pid, &l->status, 0);
    }
}

/* Ends a launch that failed before the program ran any managed code (rc 1: it ended itself). */
static int give_up(launch_t *l, pid_t pid, int rc, clra_status_t *st)
{
    if (rc != 1)
        stop_child(l, pid);
    if (l->tracing)
        launch_trace_abandon(&l->trace);
    if (l->profiling)
        launch_profile_abandon(&l->prof);
    if (rc == 1 && l->connected) {
        fprintf(stderr, "clrattach launch: %s ended (code %d) while its runtime was paused on "
                "the launch port, before it was resumed\n", l->o->command[0],
                exit_code_of(l->status));
        return EXIT_CONNECTION;
    }
    if (rc == 1 && WIFSIGNALED(l->status)) { /* a crash is not "not a .NET program" */
        fprintf(stderr, "clrattach launch: %s was killed by signal %d (%s) before its runtime "
                "connected to the launch port: it crashed or was killed at startup; run it "
                "without clrattach to see why\n", l->o->command[0], WTERMSIG(l->status),
                strsignal(WTERMSIG(l->status)));
        return EXIT_NOTDOTNET; /* documented as "never connected" */
    }
    if (rc == 1) {
        fprintf(stderr, "clrattach launch: %s exited (code %d) before its runtime connected to "
                "the launch port: not a .NET program, or diagnostics disabled "
                "(DOTNET_EnableDiagnostics=0)\n", l->o->command[0], exit_code_of(l->status));
        return EXIT_NOTDOTNET;
    }
    cli_run_t run;
    cli_run_begin(&run, (int)pid, 0);
    return cli_fail(&run, &(cli_failure_t){.rc = rc, .st = st, .action = "launch"});
}

/* Starts the program on the port at sock and sees it through; returns the exit code. dir is
 * launch's private directory (the sampler leaves its last samples there). */
static int run(launch_opts_t *o, clra_reverse_server_t *srv, const char *sock, const char *dir)
{
    static launch_t l; /* the profile's buffers make it large for a stack */
    l = (launch_t){.o = o, .srv = srv, .tracing = o->cfg.provider_count > 0,
                   .profiling = o->profile_output != NULL};
    clra_status_t st;
    memset(&st, 0, sizeof st);
    l.trace.file.fd = l.trace.file.dir = -1;
    /* A path the user chose is checked before the program starts; the default needs its pid. */
    if (l.tracing && o->trace_output[0] && launch_trace_open(&l.trace, o->trace_output, &o->stop_event) != 0)
        return EXIT_USAGE;
    if (l.profiling && launch_profile_open(&l.prof, o, dir) != 0) {
        if (l.tracing)
            launch_trace_abandon(&l.trace);
        return EXIT_USAGE;
    }
    if (l.profiling)
        o->data = l.prof.data; /* COMMAND's CLRPROF_OPTIONS (--data is refused with --profile) */
    install_forwarding();
    pid_t pid = fork();
    if (pid == 0)
        exec_command(o, sock);
    child_pid = pid;
    if (pid < 0) {
        st.sys_errno = errno;
        snprintf(st.detail, sizeof st.detail, "fork: %s", strerror(errno));
        return give_up(&l, pid, CLRA_EIO, &st);
    }
    if (l.tracing && !o->trace_output[0]) {
        default_trace_output(o, pid);
        if (launch_trace_open(&l.trace, o->trace_output, &o->stop_event) != 0) {
            stop_child(&l, pid);
            return EXIT_USAGE;
        }
    }
    int rc = prepare_and_resume(&l, &st);
    if (rc != 0)
        return give_up(&l, pid, rc, &st);
    /* The listener stays open: the runtime's next connection then waits quietly in the backlog
     * instead of retrying every half second for the rest of the program's life (and is there
     * when a signal needs the trace stopped). */
    wait_program(&l, pid);
    if (l.tracing && !l.trace_done) {
        launch_trace_finish(&l.trace, (int)o->timeout_ms, (int)pid, l.status);
        l.convert_failed = launch_trace_convert(&l.trace, o->formats) != 0;
    }
    int code = exit_code_of(l.status);
    if (l.convert_failed && code == 0)
        code = EXIT_INTERNAL;
    if (l.profiling && launch_profile_finish(&l.prof, l.status) != 0 && code == 0)
        code = EXIT_INTERNAL;
    return code;
}

int cmd_launch(int argc, char **argv)
{
    static launch_opts_t o; /* the hook paths make it large for a stack */
    clra_status_t st;
    clra_reverse_server_t *srv = NULL;
    char dir[] = "/tmp/clrattach-launch-XXXXXX", sock[64];
    memset(&o, 0, sizeof o);
    int p = launch_parse(argc, argv, &o);
    if (p != 0) {
        clra_trace_config_free(&o.cfg);
        trace_stop_event_free(&o.stop_event);
        return p > 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (!mkdtemp(dir)) {
        fprintf(stderr, "clrattach launch: cannot create %s: %s\n", dir, strerror(errno));
        clra_trace_config_free(&o.cfg);
        return EXIT_INTERNAL;
    }
    snprintf(sock, sizeof sock, "%s/port", dir);
    int code, rc = clra_reverse_server_listen(sock, &srv, &st);
    if (rc) {
        cli_run_t run;
        cli_run_begin(&run, 0, 0);
        cli_failure_t f = {.rc = rc, .st = &st, .action = "open the launch port",
                           .hint = "check that /tmp is writable and not full"};
        code = cli_fail(&run, &f);
    } else {
        code = run(&o, srv, sock, dir);
        clra_reverse_server_close(srv);
    }
    rmdir(dir);
    clra_trace_config_free(&o.cfg);
    trace_stop_event_free(&o.stop_event);
    return code;
}
