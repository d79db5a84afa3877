/* cmd_launch.c - `clrattach launch`: start a .NET program paused at its first instruction on a
 * diagnostic port of our own, register a startup profiler, then let it run and wait for it. */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define DEFAULT_TIMEOUT_MS 30000
#define MAX_ENV 64
#define EXIT_CHILD_NOT_STARTED 127

static void launch_usage(FILE *f)
{
    fprintf(f,
            "usage: clrattach launch [options] -- COMMAND [ARGS...]\n"
            "\n"
            "Starts COMMAND (a .NET program) with its runtime paused before any managed code, on a\n"
            "private diagnostic port (DOTNET_DiagnosticPorts=<socket>,connect,suspend); registers\n"
            "the profiler with StartupProfiler, so it loads through ICorProfilerCallback::Initialize\n"
            "and may use every event flag (attach cannot); resumes the runtime on that port; then\n"
            "waits for COMMAND and exits with its exit code. COMMAND keeps stdin, stdout and\n"
            "stderr; SIGINT, SIGTERM, SIGHUP and SIGQUIT are passed on to it.\n"
            "\n"
            "options:\n"
            "  --profiler PATH      the profiler library (made absolute)\n"
            "  --clsid GUID         its CLSID (default: the hello profiler's, %s)\n"
            "  --data TEXT          settings for the profiler: StartupProfiler carries no client\n"
            "                       data, so TEXT goes into COMMAND's CLRPROF_OPTIONS, where\n"
            "                       libclrprof profilers read it\n"
            "  --env NAME=VALUE     add to COMMAND's environment (repeatable)\n"
            "  --timeout MS         how long to wait for the runtime at each step (default %d)\n"
            "  --help               show this help\n"
            "\n"
            "exit codes: COMMAND's own (128+N when killed by signal N); before it runs: 2 usage,\n"
            "4 COMMAND never connected (not .NET?), 7 timed out, 8 connection failure, 10 the\n"
            "runtime refused the profiler (COMMAND is then stopped before running managed code).\n",
            HELLO_CLSID, DEFAULT_TIMEOUT_MS);
}

typedef struct launch_opts {
    clra_guid_t clsid;
    char profiler[CLRA_PATH_MAX];
    const char *data;
    char *env[MAX_ENV];
    int nenv;
    long long timeout_ms;
    char **command;
} launch_opts_t;

static int parse_options(int argc, char **argv, launch_opts_t *o)
{
    static const struct option longs[] = {
        {"profiler", required_argument, 0, 'p'}, {"clsid", required_argument, 0, 'c'},
        {"data", required_argument, 0, 'd'},     {"env", required_argument, 0, 'e'},
        {"timeout", required_argument, 0, 't'},  {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int c;
    clra_guid_parse(HELLO_CLSID, &o->clsid);
    o->timeout_ms = DEFAULT_TIMEOUT_MS;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+", longs, NULL)) != -1) {
        if (c == 'p' && cli_absolute_path(optarg, o->profiler, sizeof o->profiler) != 0) {
            fprintf(stderr, "clrattach launch: cannot make '%s' an absolute path\n", optarg);
            return -1;
        } else if (c == 'c' && clra_guid_parse(optarg, &o->clsid) != 0) {
            fprintf(stderr, "clrattach launch: --clsid wants a GUID like %s, not '%s'\n",
                    HELLO_CLSID, optarg);
            return -1;
        } else if (c == 'd') {
            o->data = optarg;
        } else if (c == 'e') {
            if (!strchr(optarg, '=') || optarg[0] == '=' || o->nenv == MAX_ENV) {
                fprintf(stderr, "clrattach launch: --env wants NAME=VALUE (at most %d), not '%s'\n",
                        MAX_ENV, optarg);
                return -1;
            }
            o->env[o->nenv++] = optarg;
        } else if (c == 't') {
            if (cli_parse_int("--timeout", optarg, 1, 86400000, &o->timeout_ms) != 0)
                return -1;
        } else if (c == 'h') {
            launch_usage(stdout);
            exit(EXIT_OK);
        } else if (c == '?') {
            return -1;
        }
    }
    if (o->profiler[0] && access(o->profiler, R_OK) != 0) {
        fprintf(stderr, "clrattach launch: cannot read the profiler %s: %s\n", o->profiler,
                strerror(errno));
        return -1;
    }
    if (optind >= argc) {
        fprintf(stderr, "clrattach launch: expected -- COMMAND [ARGS...] (see --help)\n");
        return -1;
    }
    o->command = argv + optind;
    return 0;
}

static volatile sig_atomic_t child_pid;

/* Passes the signal on: the program decides what Ctrl-C means, as if we were not there. */
static void forward_signal(int sig)
{
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

/* Waits for the runtime's next advertise in short slices, so a program that exits (or never
 * was .NET) is noticed at once instead of at the deadline. 0, a CLRA_E* code, or 1 when the
 * child ended (*status set). */
static int wait_advertise(clra_reverse_server_t *srv, const clra_guid_t *cookie, int timeout_ms,
                          clra_advertise_t *ad, int *status, clra_status_t *st)
{
    for (int waited = 0;; waited += 200) {
        int rc = clra_reverse_wait(srv, cookie, 200, ad, st);
        if (rc != CLRA_ETIMEDOUT)
            return rc;
        if (waitpid(child_pid, status, WNOHANG) == child_pid)
            return 1;
        if (waited >= timeout_ms) {
            snprintf(st->detail, sizeof st->detail, "the runtime did not connect to the launch "
                     "port within %d ms", timeout_ms);
            return CLRA_ETIMEDOUT;
        }
    }
}

/* One command on the runtime's next advertised connection. */
typedef int (*port_command_fn)(const clra_endpoint_t *ep, const launch_opts_t *o, int timeout_ms,
                               clra_status_t *st);

static int do_startup_profiler(const clra_endpoint_t *ep, const launch_opts_t *o, int timeout_ms,
                               clra_status_t *st)
{
    return clra_startup_profiler(ep, &o->clsid, o->profiler, timeout_ms, st);
}

static int on_port(clra_reverse_server_t *srv, const clra_advertise_t *ad, port_command_fn fn,
                   const launch_opts_t *o, int *status, clra_status_t *st)
{
    clra_advertise_t again;
    clra_endpoint_t ep;
    int rc = wait_advertise(srv, &ad->cookie, (int)o->timeout_ms, &again, status, st);
    if (rc)
        return rc;
    rc = clra_reverse_endpoint(srv, &ad->cookie, &ep);
    return rc ? rc : fn(&ep, o, (int)o->timeout_ms, st);
}

/* The runtime advertises before it marks itself paused, so the first StartupProfiler can meet
 * E_INVALIDARG ("not paused") although the pause is certain to come: retry until it does. */
static int startup_profiler_when_paused(clra_reverse_server_t *srv, const clra_advertise_t *ad,
                                        const launch_opts_t *o, int *status, clra_status_t *st)
{
    for (int waited = 0;; waited += 20) {
        int rc = on_port(srv, ad, do_startup_profiler, o, status, st);
        if (rc != CLRA_ERUNTIME || (uint32_t)st->hresult != 0x80070057u ||
            waited >= o->timeout_ms)
            return rc;
        usleep(20000);
    }
}

static int do_resume(const clra_endpoint_t *ep, const launch_opts_t *o, int timeout_ms,
                     clra_status_t *st)
{
    (void)o;
    return clra_resume_runtime(ep, timeout_ms, st);
}

/* Whether /proc/PID/maps names path (1), not within timeout_ms (0), or the program ended (-1): the runtime accepts StartupProfiler for any path and only
 * finds out at load time, silently, so this is the only way to tell the user it worked. */
static int wait_mapped(pid_t pid, const char *path, int timeout_ms)
{
    char maps[64], line[CLRA_PATH_MAX + 128];
    siginfo_t info;
    snprintf(maps, sizeof maps, "/proc/%d/maps", (int)pid);
    for (int waited = 0; waited <= timeout_ms; waited += 50) {
        FILE *f = fopen(maps, "r");
        int found = 0;
        while (f && !found && fgets(line, sizeof line, f))
            found = strstr(line, path) != NULL;
        if (f)
            fclose(f);
        if (found)
            return 1;
        /* A program that already ended has empty maps; WNOWAIT leaves it for the final wait. */
        info.si_pid = 0;
        if (!f || (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
                   info.si_pid == pid))
            return -1;
        usleep(50000);
    }
    return 0;
}

/* Runs the startup sequence on the port; 0 once the runtime is resumed. */
static int prepare_and_resume(clra_reverse_server_t *srv, const launch_opts_t *o, int *status,
                              int *ended, clra_status_t *st)
{
    clra_advertise_t ad;
    int rc = wait_advertise(srv, NULL, (int)o->timeout_ms, &ad, status, st);
    if (rc == 0 && o->profiler[0]) {
        rc = startup_profiler_when_paused(srv, &ad, o, status, st);
        if (rc == CLRA_ERUNTIME)
            fprintf(stderr, "clrattach launch: the runtime refused the startup profiler %s\n",
                    o->profiler);
    }
    if (rc == 0)
        rc = on_port(srv, &ad, do_resume, o, status, st);
    *ended = rc == 1;
    int mapped = rc == 0 && o->profiler[0]
                     ? wait_mapped(child_pid, o->profiler,
                                   o->timeout_ms < 10000 ? (int)o->timeout_ms : 10000)
                     : -1;
    if (rc == 0 && !o->profiler[0])
        fprintf(stderr, "clrattach launch: process %d runs\n", (int)child_pid);
    else if (rc == 0 && mapped == 1)
        fprintf(stderr, "clrattach launch: process %d runs with startup profiler %s\n",
                (int)child_pid, o->profiler);
    else if (rc == 0 && mapped == 0)
        fprintf(stderr, "clrattach launch: warning: process %d runs, but its runtime did not "
                "load %s (wrong CLSID, missing DllGetClassObject, or Initialize failed; the "
                "runtime logs why only to its event log)\n", (int)child_pid, o->profiler);
    return rc;
}

int cmd_launch(int argc, char **argv)
{
    launch_opts_t o;
    clra_status_t st;
    clra_reverse_server_t *srv = NULL;
    char dir[] = "/tmp/clrattach-launch-XXXXXX", sock[64];
    int status = 0, ended = 0;
    memset(&o, 0, sizeof o);
    if (parse_options(argc, argv, &o) != 0)
        return EXIT_USAGE;
    if (!mkdtemp(dir)) {
        fprintf(stderr, "clrattach launch: cannot create %s: %s\n", dir, strerror(errno));
        return EXIT_INTERNAL;
    }
    snprintf(sock, sizeof sock, "%s/port", dir);
    int rc = clra_reverse_listen(sock, &srv, &st);
    if (rc) {
        rmdir(dir);
        fprintf(stderr, "clrattach launch: cannot open the launch port: %s\n  detail: %s\n"
                "  what to do: check that /tmp is writable and not full\n", clra_strerror(rc),
                st.detail);
        return cli_exit_code(rc);
    }
    install_forwarding();
    pid_t pid = fork();
    if (pid == 0)
        exec_command(&o, sock);
    child_pid = pid;
    rc = pid < 0 ? CLRA_EIO : prepare_and_resume(srv, &o, &status, &ended, &st);
    if (rc != 0 && !ended) {
        /* Nothing managed has run yet, so stopping it now leaves no half-profiled program. */
        if (pid > 0) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
        }
        clra_reverse_close(srv);
        rmdir(dir);
        cli_report_error("launch", (int)pid, rc, &st, NULL);
        return cli_exit_code(rc);
    }
    if (ended) {
        clra_reverse_close(srv);
        rmdir(dir);
        fprintf(stderr, "clrattach launch: %s exited (code %d) before its runtime connected to "
                "the launch port: not a .NET program, or diagnostics disabled "
                "(DOTNET_EnableDiagnostics=0)\n", o.command[0], exit_code_of(status));
        return EXIT_NOTDOTNET;
    }
    /* The listener stays open: the runtime's next connection then waits quietly in the backlog
     * instead of retrying every half second for the rest of the program's life. */
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    clra_reverse_close(srv);
    rmdir(dir);
    return exit_code_of(status);
}
