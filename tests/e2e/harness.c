/* harness.c - starts real .NET processes for the end-to-end tests and watches what happens. */
#define _GNU_SOURCE
#include "harness.h"
#include "proc_status.h"
#include "runtime.h"
#include "test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define OUTPUT_MAX (256 * 1024)

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int read_line_within(int fd, char *buf, size_t cap, int timeout_ms)
{
    size_t n = 0;
    double end = now_ms() + timeout_ms;
    while (n + 1 < cap) {
        struct pollfd p = {fd, POLLIN, 0};
        int left = (int)(end - now_ms());
        if (left <= 0 || poll(&p, 1, left) <= 0)
            return -1;
        ssize_t k = read(fd, buf + n, 1);
        if (k <= 0)
            return -1;
        if (buf[n] == '\n')
            break;
        n++;
    }
    buf[n] = '\0';
    return 0;
}

/* Appends the sample app's command line to prefix (NULL-terminated) in argv. */
static void app_argv(const char **argv, size_t cap, const char *const *prefix)
{
    const char *const *tail = e2e_app_argv();
    size_t n = 0;
    while (prefix && *prefix && n + 9 < cap)
        argv[n++] = *prefix++;
    while (*tail)
        argv[n++] = *tail++;
    argv[n] = NULL;
}

/* Becomes user uid (group the same number) for good, or exits 126: for a forked child. The
 * uid change clears the parent-death signal, so it is set again after it (an app started as
 * nobody outlived a failed test); a parent already gone by then means exit now. */
static void become(uid_t uid)
{
    pid_t parent = getppid();
    if (uid && (setgroups(0, NULL) != 0 || setgid(uid) != 0 || setuid(uid) != 0))
        _exit(126);
    if (uid && (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent))
        _exit(126);
}

/* Child side of app_start: wire the pipes, die with the test, exec dotnet (through
 * clrattach launch when launch_args is non-NULL, through o->wrapper when there is one). */
static void exec_app(int in_fd, int out_fd, const app_t *a, const app_options_t *o,
                     const char *const *launch_args)
{
    const char *const *extra_env = o->env;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    dup2(in_fd, 0);
    dup2(out_fd, 1);
    if (o->launch_json) { /* launch's JSON on the pipe a->launch_json reads, the app's on ours */
        dup2(o->launch_json, 1);
        dup2(out_fd, 2);
    } else if (o->stderr_path) {
        int err = open(o->stderr_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (err >= 0)
            dup2(err, 2);
    }
    setenv("CLRPROF_HELLO_LOG", a->log_path, 1);
    setenv("CLRPROF_LOG", a->log_path, 1); /* where every SDK profiler logs */
    setenv("DOTNET_CLI_TELEMETRY_OPTOUT", "1", 1);
#ifdef CLRA_ASAN_PRELOAD
    /* The runtime's own allocations are not ours to judge; errors in our profiler abort it. */
    setenv("LD_PRELOAD", CLRA_ASAN_PRELOAD, 1);
    setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
#endif
    if (o->private_tmpdir)
        setenv("TMPDIR", a->dir, 1);
    for (size_t i = 0; extra_env && extra_env[i]; i++)
        putenv((char *)extra_env[i]);
    become(o->user);
    if (o->wrapper) {
        const char *argv[40];
        app_argv(argv, 40, o->wrapper);
        execvp(argv[0], (char *const *)argv);
    } else if (launch_args) {
        const char *argv[48] = {"clrattach", "launch"};
        int n = 2;
        while (*launch_args && n < 38)
            argv[n++] = *launch_args++;
        argv[n] = "--";
        app_argv(argv + n + 1, 48 - (size_t)n - 1, NULL);
        execv(CLRA_CLI, (char *const *)argv);
    } else {
        execv(e2e_dotnet(), (char *const *)e2e_app_argv());
    }
    _exit(127);
}

/* Starts the app with pipes on its stdin and stdout. */
static void spawn(app_t *a, const app_options_t *o, const char *const *launch_args)
{
    int in[2], out[2], json[2] = {-1, -1};
    app_options_t wired = *o;
    memset(a, 0, sizeof *a);
    snprintf(a->dir, sizeof a->dir, "/tmp/clra-e2e-XXXXXX");
    ASSERT(mkdtemp(a->dir) != NULL);
    chmod(a->dir, 0755);
    if (o->user) /* the app writes its log there */
        ASSERT(lchown(a->dir, o->user, o->user) == 0);
    snprintf(a->log_path, sizeof a->log_path, "%s/profiler.log", a->dir);
    ASSERT(pipe2(in, O_CLOEXEC) == 0 && pipe2(out, O_CLOEXEC) == 0);
    if (o->launch_json)
        ASSERT(pipe2(json, O_CLOEXEC) == 0);
    wired.launch_json = o->launch_json ? json[1] : 0;
    a->pid = fork();
    ASSERT(a->pid >= 0);
    if (a->pid == 0)
        exec_app(in[0], out[1], a, &wired, launch_args);
    a->wrapped = o->wrapper != NULL;
    a->launch_json = o->launch_json ? json[0] : 0;
    if (o->launch_json)
        close(json[1]);
    close(in[0]);
    close(out[1]);
    a->to_app = in[1];
    a->from_app = out[0];
}

void app_spawn(app_t *a, const char *const *extra_env)
{
    app_options_t o = {.env = extra_env};
    spawn(a, &o, NULL);
}

void app_spawn_launched(app_t *a, const char *const *extra_env, const char *const *launch_args)
{
    app_options_t o = {.env = extra_env};
    app_spawn_launched_with(a, &o, launch_args);
}

void app_spawn_launched_with(app_t *a, const app_options_t *o, const char *const *launch_args)
{
    app_options_t plain = *o;
    plain.wrapper = NULL;
    spawn(a, &plain, launch_args);
    a->launcher = a->pid;
}

int app_wait_ready(app_t *a, int timeout_ms)
{
    char line[256];
    if (read_line_within(a->from_app, line, sizeof line, timeout_ms) != 0)
        return -1;
    ASSERT_CONTAINS(line, "ready pid=");
    a->ready_pid = atoi(strchr(line, '=') + 1);
    if (a->launcher && a->pid == a->launcher)
        a->pid = a->ready_pid; /* the launcher's child */
    if (!a->wrapped) /* a wrapped app may print its pid in another PID namespace */
        ASSERT_EQ(a->ready_pid, a->pid);
    return 0;
}

void app_start(app_t *a, const char *const *extra_env)
{
    app_options_t o = {.env = extra_env};
    app_start_with(a, &o);
}

void app_start_with(app_t *a, const app_options_t *o)
{
    spawn(a, o, NULL);
    ASSERT_MSG(app_wait_ready(a, 30000) == 0, "the sample app did not print ready within 30 s");
}

void app_start_namespaced(app_t *a, unsigned user)
{
    /* A directory another test removes between the glob and the bind is simply skipped. The
     * loop runs without LD_PRELOAD: under ASan every mkdir and mount would load the sanitizer
     * runtime, two per directory of /tmp, which on a busy /tmp outlasted the ready wait. */
    static const char script[] =
        "p=${LD_PRELOAD-}; unset LD_PRELOAD; "
        "mount --rbind /tmp /mnt && mount -t tmpfs tmpfs /tmp && "
        "for d in /mnt/*/; do n=${d#/mnt/}; mkdir -p \"/tmp/$n\" && "
        "mount --rbind \"$d\" \"/tmp/$n\" 2>/dev/null; done; "
        "if [ -n \"$p\" ]; then export LD_PRELOAD=\"$p\"; fi; exec \"$@\"";
    char ids[3][32];
    const char *wrapper[16] = {"unshare", "--pid", "--mount", "--fork", "--kill-child", "sh", "-c",
                               script, "sh"};
    if (geteuid() != 0)
        SKIP("needs root to create PID and mount namespaces (unshare --pid --mount)");
    if (access("/usr/bin/unshare", X_OK) != 0 && access("/bin/unshare", X_OK) != 0)
        SKIP("unshare(1) is not installed");
    if (user && access("/usr/bin/setpriv", X_OK) != 0 && access("/bin/setpriv", X_OK) != 0)
        SKIP("setpriv(1) is not installed");
    if (user) {
        snprintf(ids[0], sizeof ids[0], "--reuid=%u", user);
        snprintf(ids[1], sizeof ids[1], "--regid=%u", user);
        snprintf(ids[2], sizeof ids[2], "--clear-groups");
        const char *drop[] = {"setpriv", ids[0], ids[1], ids[2], NULL};
        memcpy(wrapper + 9, drop, sizeof drop);
    }
    app_options_t o = {.wrapper = wrapper};
    spawn(a, &o, NULL);
    if (user)
        ASSERT(chown(a->dir, user, user) == 0);
    ASSERT_MSG(app_wait_ready(a, 30000) == 0, "the namespaced app did not print ready in 30 s");
    app_host_pid(a);
}

/* The first child of parent, waiting up to 5 s for it; 0 when none came. */
static pid_t child_of(pid_t parent)
{
    for (int tries = 0; tries < 500; tries++) {
        DIR *d = opendir("/proc");
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            char path[300], text[1024];
            int pid = atoi(e->d_name), ppid = 0;
            snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
            FILE *f = pid > 0 ? fopen(path, "r") : NULL;
            if (!f)
                continue;
            size_t n = fread(text, 1, sizeof text - 1, f);
            fclose(f);
            text[n] = '\0';
            const char *p = strrchr(text, ')');
            if (p && sscanf(p + 2, "%*c %d", &ppid) == 1 && ppid == parent) {
                closedir(d);
                return pid;
            }
        }
        if (d)
            closedir(d);
        usleep(10000);
    }
    return 0;
}

pid_t app_host_pid(app_t *a)
{
    if (!a->wrapped)
        return a->pid;
    if (!a->host_pid)
        a->host_pid = child_of(a->pid);
    ASSERT_MSG(a->host_pid > 0, "the wrapper (pid %d) started no app", (int)a->pid);
    return a->host_pid;
}

const char *app_command(app_t *a, const char *command, int timeout_ms)
{
    static char reply[512];
    size_t len = strlen(command);
    ASSERT(write(a->to_app, command, len) == (ssize_t)len && write(a->to_app, "\n", 1) == 1);
    ASSERT_MSG(read_line_within(a->from_app, reply, sizeof reply, timeout_ms) == 0,
               "no reply to '%s' within %d ms", command, timeout_ms);
    return reply;
}

void app_assert_responsive(app_t *a)
{
    ASSERT_STREQ(app_command(a, "ping", 5000), "pong");
}

/* A runtime killed by a signal leaves its socket, debug pipes and its profilers' endpoints in
 * /tmp; once the app is reaped they are debris of this test, so they go. */
static void remove_leftovers(pid_t pid)
{
    static const char *const patterns[] = {"/tmp/dotnet-diagnostic-%d-*-socket",
                                           "/tmp/clr-debug-pipe-%d-*", "/tmp/clrprof-%d-*.sock"};
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        char pattern[96];
        glob_t g;
        snprintf(pattern, sizeof pattern, patterns[i], (int)pid);
        if (glob(pattern, 0, NULL, &g) != 0)
            continue;
        for (size_t k = 0; k < g.gl_pathc; k++)
            unlink(g.gl_pathv[k]);
        globfree(&g);
    }
}

int app_stop_with(app_t *a, const char *command)
{
    int status = 0;
    /* Our child is the launcher when there is one; it reaps the app itself. */
    pid_t child = a->launcher ? a->launcher : a->pid;
    if (a->pid <= 0)
        return -1;
    /* A test may have killed (and reaped) it already, or the app may be exiting by itself and
     * not reapable yet: writing to its stdin then fails (EPIPE, SIGPIPE ignored meanwhile)
     * rather than killing the test. */
    pid_t done = waitpid(child, &status, WNOHANG);
    size_t len = strlen(command);
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    if (done == 0 &&
        (write(a->to_app, command, len) != (ssize_t)len || write(a->to_app, "\n", 1) != 1))
        kill(a->pid, SIGKILL);
    signal(SIGPIPE, old);
    for (int i = 0; i < 500 && done == 0; i++) {
        usleep(10000);
        done = waitpid(child, &status, WNOHANG);
    }
    if (done == 0) {
        kill(a->pid, SIGKILL);
        kill(child, SIGKILL);
        waitpid(child, &status, 0);
    }
    close(a->to_app);
    close(a->from_app);
    if (a->launch_json > 0)
        close(a->launch_json);
    remove_leftovers(a->pid);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", a->dir);
    if (system(cmd) != 0)
        test_note("could not remove %s", a->dir);
    a->pid = 0;
    return status;
}

void app_freeze(app_t *a)
{
    ASSERT(kill(a->pid, SIGSTOP) == 0);
    for (int i = 0; i < 500 && proc_state(a->pid) != 'T'; i++)
        usleep(10000);
    char state = proc_state(a->pid);
    ASSERT_MSG(state == 'T', "the app %d did not stop within 5 s of SIGSTOP (state %c)", a->pid,
               state);
}

int app_stop(app_t *a)
{
    return app_stop_with(a, "exit 0");
}

/* Runs path with argv as uid (0: as we are), stdout captured into a static buffer with stderr
 * (err_fd -1) or stderr into err_fd. */
static int run_captured_to(uid_t uid, const char **output, int err_fd, const char *path,
                           const char *const *argv)
{
    static char buf[OUTPUT_MAX];
    int fds[2], status;
    ASSERT(pipe2(fds, O_CLOEXEC) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(err_fd >= 0 ? err_fd : fds[1], 2);
        become(uid);
        execv(path, (char *const *)argv);
        _exit(127);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t k;
    while (n + 1 < sizeof buf && (k = read(fds[0], buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t)k;
    buf[n] = '\0';
    close(fds[0]);
    waitpid(pid, &status, 0);
    *output = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static int run_captured(uid_t uid, const char **output, const char *path, const char *const *argv)
{
    return run_captured_to(uid, output, -1, path, argv);
}

/* The clrattach argv from arg0 and the rest of a NULL-terminated list. */
static void cli_argv(const char *argv[32], const char *arg0, va_list ap)
{
    int argc = 2;
    argv[0] = "clrattach";
    argv[1] = arg0;
    while (argc < 31 && (argv[argc] = va_arg(ap, const char *)) != NULL)
        argc++;
    argv[argc] = NULL;
}

int run_cli(const char **output, const char *arg0, ...)
{
    const char *argv[32];
    va_list ap;
    va_start(ap, arg0);
    cli_argv(argv, arg0, ap);
    va_end(ap);
    return run_captured(0, output, CLRA_CLI, argv);
}

int run_cli_split(const char **out, const char **err, const char *arg0, ...)
{
    static char text[OUTPUT_MAX];
    const char *argv[32];
    va_list ap;
    va_start(ap, arg0);
    cli_argv(argv, arg0, ap);
    va_end(ap);
    FILE *f = tmpfile();
    ASSERT(f != NULL);
    int rc = run_captured_to(0, out, fileno(f), CLRA_CLI, argv);
    rewind(f);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    *err = text;
    return rc;
}

int run_cli_as(uid_t uid, const char **output, const char *arg0, ...)
{
    const char *argv[32];
    va_list ap;
    va_start(ap, arg0);
    cli_argv(argv, arg0, ap);
    va_end(ap);
    return run_captured(uid, output, CLRA_CLI, argv);
}

int run_program(const char **output, const char *path, const char *const *argv)
{
    return run_captured(0, output, path, argv);
}

int run_crosscheck(const char **output, const char *question, const app_t *a)
{
    const char *argv[] = {"dotnet", CLRA_CROSSCHECK_DLL, question, app_pid_text(a), NULL};
    return run_captured(0, output, CLRA_DOTNET, argv);
}

int run_tracecheck(const char **output, const char *nettrace)
{
    const char *argv[] = {"dotnet", CLRA_TRACECHECK_DLL, nettrace, NULL};
    return run_captured(0, output, CLRA_DOTNET, argv);
}

const char *profiler_path(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/lib%s_profiler.so", CLRA_PROFILER_DIR, name);
    return path;
}

const char *app_log(app_t *a)
{
    static char *buf;
    if (!buf)
        buf = malloc(OUTPUT_MAX);
    buf[0] = '\0';
    FILE *f = fopen(a->log_path, "r");
    if (f) {
        size_t n = fread(buf, 1, OUTPUT_MAX - 1, f);
        buf[n] = '\0';
        fclose(f);
    }
    return buf;
}

const char *app_wait_log(app_t *a, const char *text, int timeout_ms)
{
    double end = now_ms() + timeout_ms;
    for (;;) {
        const char *log = app_log(a);
        if (strstr(log, text))
            return log;
        ASSERT_MSG(now_ms() < end, "the profiler's record has no '%s' after %d ms; it says:\n%s",
                   text, timeout_ms, log);
        usleep(20000);
    }
}

int app_log_count(app_t *a, const char *prefix)
{
    int count = 0;
    size_t plen = strlen(prefix);
    for (const char *p = app_log(a); p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        count += strncmp(p, prefix, plen) == 0;
    return count;
}

int app_maps_contains(app_t *a, const char *needle)
{
    char path[64], line[1024];
    int found = 0;
    snprintf(path, sizeof path, "/proc/%d/maps", (int)app_host_pid(a));
    FILE *f = fopen(path, "r");
    ASSERT_MSG(f != NULL, "cannot read %s: %s", path, strerror(errno));
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, needle) != NULL;
    fclose(f);
    return found;
}

void app_wait_unmapped(app_t *a, const char *needle, int timeout_ms)
{
    double end = now_ms() + timeout_ms;
    while (app_maps_contains(a, needle)) {
        ASSERT_MSG(now_ms() < end, "%s is still mapped in process %d after %d ms", needle,
                   (int)app_host_pid(a), timeout_ms);
        usleep(20000);
    }
}

const char *app_pid_text(const app_t *a)
{
    static char text[16];
    snprintf(text, sizeof text, "%d", (int)(a->wrapped && a->host_pid ? a->host_pid : a->pid));
    return text;
}

/* One of a few rotating buffers, so json_value results can be compared with each other;
 * objects have their own, so values read from an object never overwrite it. */
static char *json_buffer(int object)
{
    static char bufs[2][4][OUTPUT_MAX / 4];
    static int next[2];
    next[object] = (next[object] + 1) % 4;
    return bufs[object][next[object]];
}

/* The end (one past the closing brace) of the object starting at p, minding strings. */
static const char *object_end(const char *p)
{
    int depth = 0, in_string = 0;
    for (; *p; p++) {
        if (in_string) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == '"')
                in_string = 0;
        } else if (*p == '"') {
            in_string = 1;
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if ((*p == '}' || *p == ']') && --depth == 0) {
            return p + 1;
        }
    }
    return NULL;
}

const char *json_object_where(const char *json, const char *key, long long value)
{
    char want[96];
    snprintf(want, sizeof want, "\"%s\":%lld", key, value);
    size_t wlen = strlen(want);
    for (const char *p = strstr(json, want); p; p = strstr(p + 1, want)) {
        if (p[wlen] != ',' && p[wlen] != '}')
            continue;
        const char *start = p;
        while (start > json && *start != '{')
            start--;
        const char *end = object_end(start);
        if (!end)
            return NULL;
        char *out = json_buffer(1);
        snprintf(out, OUTPUT_MAX / 4, "%.*s", (int)(end - start), start);
        return out;
    }
    return NULL;
}

const char *json_value(const char *json, const char *key)
{
    char want[96];
    snprintf(want, sizeof want, "\"%s\":", key);
    const char *p = strstr(json, want);
    if (!p)
        return NULL;
    p += strlen(want);
    char *out = json_buffer(0);
    size_t n = 0;
    if (strncmp(p, "null", 4) == 0)
        return NULL;
    if (*p != '"') {
        size_t len = strcspn(p, ",}]");
        snprintf(out, OUTPUT_MAX / 4, "%.*s", (int)len, p);
        return out;
    }
    for (p++; *p && *p != '"' && n + 1 < OUTPUT_MAX / 4; p++) {
        if (*p == '\\' && p[1]) {
            p++;
            out[n++] = *p == 'n' ? '\n' : *p;
        } else {
            out[n++] = *p;
        }
    }
    out[n] = '\0';
    return out;
}

/* The heap tests and the gcdump anchor read the same fixed layout: one reader for both. */
int heap_type_figures(const char *json, const char *type, long long *count, long long *bytes)
{
    char key[200];
    snprintf(key, sizeof key, "{\"type\": \"%s\", ", type);
    const char *p = strstr(json, key);
    *count = *bytes = 0;
    return p && sscanf(p + strlen(key), "\"count\": %lld, \"bytes\": %lld", count, bytes) == 2;
}

/* A fixed sleep before the traced work was a race on a loaded machine: the work could start
 * before the session did, and a fixed --duration could end before the work did. */
void wait_for_stream(const char *path, const char *who)
{
    for (int i = 0; i < 300; i++) {
        struct stat sb;
        if (stat(path, &sb) == 0 && sb.st_size > 0)
            return;
        usleep(100 * 1000);
    }
    ASSERT_MSG(0, "%s wrote nothing to %s in 30 s", who, path);
}

/* Tests read what a command wrote whole, however large, and a missing file is a failure. */
char *whole_file(const char *path)
{
    FILE *f = fopen(path, "r");
    ASSERT_MSG(f != NULL, "no %s", path);
    char *text = NULL;
    size_t len = 0;
    ASSERT_MSG(getdelim(&text, &len, '\0', f) > 0, "%s is empty", path);
    fclose(f);
    return text;
}

/* A scratch directory left behind is untidy, not a failed test. */
void remove_dir(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        test_note("could not remove %s", dir);
}
