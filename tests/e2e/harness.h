/* harness.h - end-to-end helpers: a real .NET app under test, the clrattach command, and the
 * record file the hello profiler writes inside the app. */
#ifndef CLRA_HARNESS_H
#define CLRA_HARNESS_H

#include <stddef.h>
#include <sys/types.h>

typedef struct app {
    pid_t pid;         /* the app (or its wrapper, see app_options_t.wrapper) */
    pid_t launcher;    /* the clrattach launch that started the app, 0 when started directly */
    int ready_pid;     /* the pid the app printed: its pid inside its own PID namespace */
    int wrapped;       /* started under app_options_t.wrapper */
    pid_t host_pid;    /* the app itself as seen from here, once app_host_pid found it */
    int to_app;        /* the app's stdin */
    int from_app;      /* the app's stdout */
    int launch_json;   /* with app_options_t.launch_json: launch's stdout, its JSON lines (0:
                        * none) */
    char log_path[320]; /* where profilers record ($CLRPROF_LOG) */
    char dir[256];      /* a private temporary directory for this test */
} app_t;

/* Starts tests/apps/sample with CLRPROF_HELLO_LOG pointing into a fresh directory, plus
 * extra "NAME=VALUE" entries (NULL-terminated, may be NULL), and waits for "ready". */
void app_start(app_t *a, const char *const *extra_env);
/* app_start in two halves, for targets that do not run at once (paused at startup): starts the
 * process, then waits up to timeout_ms for "ready" (0, or -1 when it did not come). */
void app_spawn(app_t *a, const char *const *extra_env);
/* Starts the app through `clrattach launch OPTIONS... -- dotnet sample.dll`; launch_args is
 * NULL-terminated. app_wait_ready then learns the app's pid; app_stop returns the launcher's
 * exit status. */
void app_spawn_launched(app_t *a, const char *const *extra_env, const char *const *launch_args);
int app_wait_ready(app_t *a, int timeout_ms);
/* How app_start_with runs the app. */
typedef struct app_options {
    const char *const *env;     /* extra "NAME=VALUE" entries, NULL-terminated, or NULL */
    int private_tmpdir;         /* TMPDIR=<a->dir>, so the app's socket lands there */
    const char *const *wrapper; /* argv (NULL-terminated) that execs the dotnet command line
                                 * appended to it, e.g. unshare; a->pid is then the wrapper's */
    uid_t user;                 /* run as this uid (and gid of the same number); 0: as we are */
    const char *stderr_path;    /* the app's (or its launcher's) stderr goes to this new file */
    int launch_json;            /* launch --json: launch's stdout goes to a->launch_json, and
                                 * its stderr (where the app's stdout then goes) to from_app */
} app_options_t;
void app_start_with(app_t *a, const app_options_t *o);
/* app_spawn_launched with the options above (env and stderr_path; not wrapper). */
void app_spawn_launched_with(app_t *a, const app_options_t *o, const char *const *launch_args);
/* Starts the app as a container runs it: in its own PID and mount namespaces (unshare) with a
 * fresh tmpfs on /tmp, into which only the directories already under /tmp are bound back (the
 * build tree and a->dir may live there), so a file or directory made in /tmp afterwards is
 * invisible inside. With user non-zero the app runs as that uid and gid (a->dir is given to
 * it for the profiler's record). Skips the test unless root, with unshare(1) and setpriv(1). */
void app_start_namespaced(app_t *a, unsigned user);
/* The app's pid as seen from here: a->pid, or under a wrapper the wrapper's child (it execs
 * the app), waiting up to 5 s for it. */
pid_t app_host_pid(app_t *a);
/* The app's pid as text, for command lines (static buffer); for a namespaced app, its pid as
 * seen from here. */
const char *app_pid_text(const app_t *a);
/* Sends one command line and returns its one-line reply (static buffer), failing the test
 * if no reply comes within timeout_ms. */
const char *app_command(app_t *a, const char *command, int timeout_ms);
/* Fails the test unless the app answers ping with pong within five seconds. */
void app_assert_responsive(app_t *a);
/* Stops the app with SIGSTOP and waits (at most five seconds) until /proc says it is stopped:
 * kill returns before the stop takes effect, and a command sent at once may still be answered. */
void app_freeze(app_t *a);
/* Asks the app to exit and reaps it (killing it if it does not go). Returns its exit status. */
int app_stop(app_t *a);
/* The same with another last command (e.g. "exit 42"); returns the wait status. */
int app_stop_with(app_t *a, const char *command);

/* Runs the clrattach command with the given arguments (NULL-terminated); captures stdout and
 * stderr together into a static buffer returned through *output. Returns the exit code. */
int run_cli(const char **output, const char *arg0, ...) __attribute__((sentinel));
/* run_cli with stdout and stderr kept apart (two static buffers), for output whose stdout must
 * parse on its own (--json). */
int run_cli_split(const char **out, const char **err, const char *arg0, ...)
    __attribute__((sentinel));
/* Reads one line (without its newline) from fd within timeout_ms: 0, or -1 at the deadline or
 * at the end of the stream. */
int read_line_within(int fd, char *buf, size_t cap, int timeout_ms);
/* run_cli as user uid (gid the same number): the child drops root before exec. */
int run_cli_as(uid_t uid, const char **output, const char *arg0, ...) __attribute__((sentinel));
/* Runs the program at path with argv (argv[0] included, NULL-terminated), output as run_cli;
 * e.g. setpriv in front of the CLI. Returns the exit code. */
int run_program(const char **output, const char *path, const char *const *argv);
/* Asks the official managed client (tests/apps/crosscheck) a question ("info" or "env") about
 * the app; output as run_cli (the same static buffer). Returns the exit code. */
int run_crosscheck(const char **output, const char *question, const app_t *a);
/* Reads a .nettrace file with TraceEvent (tests/apps/tracecheck): sorted lines as run_cli. */
int run_tracecheck(const char **output, const char *nettrace);
/* Reading the CLI's --json output. Both return static buffers (the last four of each stay valid
 * at once) or NULL. json_object_where finds the first {...} whose "key" is the number value,
 * copied whole; json_value gives the first "key"'s value in text: a string unescaped, any
 * other value as written (null as NULL). */
const char *json_object_where(const char *json, const char *key, long long value);
const char *json_value(const char *json, const char *key);
/* The "count" and "bytes" of type in clrattach heap's (or heap diff's) JSON; 0 when absent
 * (both then 0). */
int heap_type_figures(const char *json, const char *type, long long *count, long long *bytes);

/* Waits (at most 30 s) until a tracer has written something to path: the runtime sends the
 * stream's header only once the session is up, so a test can start the work it traces. */
void wait_for_stream(const char *path, const char *who);
/* A whole file as a string (caller frees); fails the test when it is missing or empty. */
char *whole_file(const char *path);
/* Removes a test's scratch directory and all in it; a failure is only noted. */
void remove_dir(const char *dir);
/* Path of a profiler built by this tree, e.g. profiler_path("hello") -> .../libhello_profiler.so */
const char *profiler_path(const char *name);

/* The profiler's record so far (static buffer; "" when there is none yet). */
const char *app_log(app_t *a);
/* Waits until the record contains text, failing the test after timeout_ms. */
const char *app_wait_log(app_t *a, const char *text, int timeout_ms);
/* Number of lines of the record that start with prefix. */
int app_log_count(app_t *a, const char *prefix);
/* Whether /proc/PID/maps of the app (app_host_pid) names a file containing needle. */
int app_maps_contains(app_t *a, const char *needle);
/* Waits until needle is no longer mapped in the app, failing the test after timeout_ms. */
void app_wait_unmapped(app_t *a, const char *needle, int timeout_ms);

#define HELLO_CLSID "5E3E0C65-3E00-442D-B0AD-7F2D7F8946DF"

#endif
