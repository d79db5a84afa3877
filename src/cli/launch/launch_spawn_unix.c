/* launch_spawn_unix.c - COMMAND's process on Linux (launch/launch_platform.h): a socket in a
 * private directory as the port, fork and exec, wait statuses, and the signals launch passes
 * on to COMMAND (held while a trace or a profile must end cleanly first). */
#define _GNU_SOURCE
#include "launch/launch_platform.h"

#include <errno.h>
#include <fcntl.h>
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

const char launch_port_action[] = "open the launch port";
const char *const launch_port_hint = "check that /tmp is writable and not full";

/* A private directory, so no other user can put a socket where ours goes. */
int launch_port_make(launch_port_t *p)
{
    snprintf(p->dir, sizeof p->dir, "/tmp/clrattach-launch-XXXXXX");
    if (!mkdtemp(p->dir)) {
        fprintf(stderr, "clrattach launch: cannot create %s: %s\n", p->dir, strerror(errno));
        return EXIT_INTERNAL;
    }
    snprintf(p->listen, sizeof p->listen, "%s/port", p->dir);
    snprintf(p->name, sizeof p->name, "%s", p->listen);
    return 0;
}

void launch_port_remove(launch_port_t *p)
{
    rmdir(p->dir);
}

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

/* Child side: our port goes first, so a port the user configured still works after ours. A
 * failed exec writes its errno to report, a pipe the exec would close: a shell's 127 says
 * only "not run", the parent can then say why. */
static void exec_command(const launch_opts_t *o, const char *socket_path, int report)
{
    char *ports;
    const char *theirs = getenv("DOTNET_DiagnosticPorts");
    if (asprintf(&ports, "%s,connect,suspend%s%s", socket_path, theirs ? ";" : "",
                 theirs ? theirs : "") < 0)
        _exit(EXIT_CHILD_NOT_STARTED);
    setenv("DOTNET_DiagnosticPorts", ports, 1);
    if (o->data)
        setenv("CLRPROF_OPTIONS", o->data, 1);
    if (o->json) /* our stdout is for the JSON lines: a parser must never meet its output */
        dup2(STDERR_FILENO, STDOUT_FILENO);
    for (int i = 0; i < o->nenv; i++)
        putenv(o->env[i]);
    execvp(o->command[0], o->command);
    int err = errno;
    fprintf(stderr, "clrattach launch: cannot run '%s': %s\n", o->command[0], strerror(err));
    ssize_t told = write(report, &err, sizeof err); /* if not, the parent sees exit code 127 */
    (void)told;
    _exit(EXIT_CHILD_NOT_STARTED);
}

/* The errno of COMMAND's failed exec, from the pipe its exec closes; 0 once it runs. */
static int exec_errno(int fd)
{
    int err = 0;
    ssize_t n;
    do
        n = read(fd, &err, sizeof err);
    while (n < 0 && errno == EINTR);
    close(fd);
    return n == (ssize_t)sizeof err ? err : 0;
}

/* A local failure to start COMMAND (what: the call that failed). */
static int spawn_failed(const char *what, clra_status_t *st)
{
    st->sys_errno = errno;
    snprintf(st->detail, sizeof st->detail, "%s: %s", what, strerror(errno));
    return CLRA_EIO;
}

/* A COMMAND that cannot be executed exits 4 ("never connected") with the reason in st, its
 * process reaped; one that fails later shows as its exit code. */
int launch_child_start(launch_child_t *c, const launch_opts_t *o, const launch_port_t *port,
                       clra_status_t *st)
{
    int report[2];
    memset(c, 0, sizeof *c);
    c->command = o->command[0];
    install_forwarding();
    if (pipe2(report, O_CLOEXEC) != 0)
        return spawn_failed("pipe", st);
    pid_t pid = fork();
    if (pid == 0)
        exec_command(o, port->name, report[1]);
    if (pid < 0) {
        int err = errno;
        close(report[0]);
        close(report[1]);
        errno = err;
        return spawn_failed("fork", st);
    }
    close(report[1]);
    child_pid = pid;
    c->pid = (int)pid;
    int err = exec_errno(report[0]);
    if (err == 0)
        return 0;
    waitpid(pid, &c->status, 0);
    c->ended = 1;
    st->sys_errno = err;
    snprintf(st->detail, sizeof st->detail, "cannot run '%s': %s", c->command, strerror(err));
    return EXIT_NOTDOTNET;
}

/* EINTR (a signal forwarded or held) is "not yet": the caller looks at the signal first. */
int launch_child_wait(launch_child_t *c, int block)
{
    pid_t r = waitpid((pid_t)c->pid, &c->status, block ? 0 : WNOHANG);
    if (r == (pid_t)c->pid) {
        c->ended = 1;
        return 1;
    }
    return r < 0 && errno != EINTR ? -1 : 0;
}

/* Ctrl-C is forwarded to COMMAND like any signal: launch is never interrupted itself. */
int launch_child_interrupted(void)
{
    return 0;
}

void launch_child_resumed(void)
{
}

/* Nothing of it has run yet, so nothing is lost by SIGKILL. */
void launch_child_stop(launch_child_t *c, int interrupted)
{
    (void)interrupted;
    if (c->pid > 0) {
        kill((pid_t)c->pid, SIGKILL);
        waitpid((pid_t)c->pid, &c->status, 0);
    }
}

int launch_child_exit_code(const launch_child_t *c)
{
    return WIFEXITED(c->status) ? WEXITSTATUS(c->status) : 128 + WTERMSIG(c->status);
}

int launch_child_signal(const launch_child_t *c, const char **name)
{
    int sig = WIFSIGNALED(c->status) ? WTERMSIG(c->status) : 0;
    *name = sig ? strsignal(sig) : NULL;
    return sig;
}

/* A crash is not "not a .NET program": the signal says which it was. */
int launch_child_explain(const launch_child_t *c, int rc, int connected, clra_status_t *st,
                         int *err)
{
    (void)rc; /* never 2: launch_child_interrupted is always 0 */
    *err = connected ? CLRA_ECONNLOST : CLRA_ENOTDOTNET; /* 4 is documented as "never connected" */
    if (connected)
        snprintf(st->detail, sizeof st->detail, "%s ended (code %d) while its runtime was "
                 "paused on the launch port, before it was resumed", c->command,
                 launch_child_exit_code(c));
    else if (WIFSIGNALED(c->status))
        snprintf(st->detail, sizeof st->detail, "%s was killed by signal %d (%s) before its "
                 "runtime connected to the launch port: it crashed or was killed at startup; run "
                 "it without clrattach to see why", c->command, WTERMSIG(c->status),
                 strsignal(WTERMSIG(c->status)));
    else
        snprintf(st->detail, sizeof st->detail, "%s exited (code %d) before its runtime "
                 "connected to the launch port: not a .NET program, or diagnostics disabled "
                 "(DOTNET_EnableDiagnostics=0)", c->command, launch_child_exit_code(c));
    return connected ? EXIT_CONNECTION : EXIT_NOTDOTNET;
}

/* /proc/PID/maps naming path is the proof: the runtime accepts StartupProfiler for any path
 * and only finds out at load time, silently. */
int launch_child_wait_loaded(launch_child_t *c, const char *path, int timeout_ms)
{
    siginfo_t info;
    for (int waited = 0; waited <= timeout_ms; waited += 50) {
        int mapped = clra_library_is_mapped(c->pid, path);
        if (mapped == 1)
            return 1;
        if (held_signal) /* the user wants out: say nothing, stop the trace */
            return -1;
        /* A program that already ended has empty maps; WNOWAIT leaves it for the final wait. */
        info.si_pid = 0;
        if (mapped < 0 || (waitid(P_PID, (id_t)c->pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
                   info.si_pid == c->pid))
            return -1;
        usleep(50000);
    }
    return 0;
}

void launch_child_release(launch_child_t *c)
{
    (void)c;
}

void launch_sleep_ms(int ms)
{
    usleep((useconds_t)ms * 1000);
}

/* The forwarded signals (and SIGPIPE, so a pipe as output fails a write instead) are blocked
 * in the new thread, so they reach the main thread, which passes them on. */
int launch_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigaddset(&block, SIGQUIT);
    sigaddset(&block, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int err = pthread_create(t, NULL, fn, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return err;
}

int launch_status_killed(int status, char *text, size_t cap)
{
    if (!WIFSIGNALED(status))
        return 0;
    snprintf(text, cap, "signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    return 1;
}

void launch_signals_hold(int on)
{
    hold_signal = on;
}

int launch_signals_holding(void)
{
    return hold_signal;
}

int launch_signal_held(void)
{
    return held_signal;
}

const char *launch_signal_name(void)
{
    return strsignal(held_signal);
}

/* The hold ends: a further signal goes straight on. */
void launch_signal_forward(launch_child_t *c)
{
    hold_signal = 0;
    if (!c->ended)
        kill((pid_t)c->pid, held_signal);
}
