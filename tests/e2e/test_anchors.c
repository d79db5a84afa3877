/* The dotnet tools as anchors (ctest -L anchors): dotnet-stack, -counters, -trace and -gcdump
 * run beside clrattach on the same process, and what both show must agree. The tools are
 * installed from NuGet into the build tree on first use (fixture tests tools.dotnet-stack,
 * tools.dotnet-counters, tools.dotnet_trace and tools.dotnet-gcdump); a test is skipped, saying
 * why, where they could not be installed. */
#define _GNU_SOURCE
#include "harness.h"
#include "hot_app.h"
#include "runtime.h"
#include "test.h"

#include "clrattach.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_FRAMES 64
#define MAX_NAMES 128

/* One thread of a stack report: its tid and its method names, innermost first. */
typedef struct stack_thread {
    long tid;
    int n;
    char frame[MAX_FRAMES][160];
} stack_thread_t;

/* Skips the test unless the tool at path was installed. */
static void require_tool(const char *path)
{
    if (access(path, X_OK) != 0) {
        printf("SKIP: %s is not installed (NuGet could not be reached?)\n", path);
        exit(77);
    }
}

/* "System.Private.CoreLib!System.Threading.Thread.Sleep(int32)" -> "System.Threading.Thread.Sleep";
 * ours has no module or signature, only a method's own generic arguments ("Spin[System.Int64]"),
 * which dotnet-stack does not print. */
static void method_of(const char *line, char *out, size_t cap)
{
    const char *bang = strchr(line, '!');
    const char *start = bang ? bang + 1 : line;
    size_t len = strcspn(start, "(\n");
    snprintf(out, cap, "%.*s", (int)len, start);
    len = strlen(out);
    char *dot = strrchr(out, '.'), *open = strrchr(out, '[');
    if (len && out[len - 1] == ']' && open && dot && open > dot)
        *open = '\0';
}

/* A native frame of clrattach's (signal) stacks, which dotnet-stack does not show:
 * "libc.so.6!__poll", "libcoreclr.so+0x6314b0", "dotnet+0x74a0", or a "[truncated]" marker. */
static int native_frame(const char *s)
{
    const char *bang = strchr(s, '!');
    size_t module = bang ? (size_t)(bang - s) : 0;
    return s[0] == '[' || strstr(s, "+0x") || (bang && memmem(s, module, ".so", 3)) ||
           (module == 6 && strncmp(s, "dotnet", 6) == 0);
}

/* The threads of dotnet-stack's report ("Thread (0xD5F):") or clrattach's ("thread 3423 ...");
 * frames as method names, or as whole lines (module!Type.Method(params)) when full. */
static int parse_stacks(const char *text, int ours, int full, stack_thread_t *t, int cap)
{
    int n = 0;
    for (const char *p = text; *p && n <= cap;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char line[400];
        snprintf(line, sizeof line, "%.*s", (int)(len < 399 ? len : 399), p);
        p += len + (end != NULL);
        if (!ours && strncmp(line, "Thread (0x", 10) == 0 && n < cap)
            t[n++] = (stack_thread_t){.tid = strtol(line + 10, NULL, 16)};
        else if (ours && strncmp(line, "thread ", 7) == 0 && n < cap)
            t[n++] = (stack_thread_t){.tid = strtol(line + 7, NULL, 10)};
        else if (n > 0 && line[0] == ' ' && !strstr(line, "[Native Frames]") &&
                 !strstr(line, "CPU_TIME") && !strstr(line, "[native]") &&
                 t[n - 1].n < MAX_FRAMES) {
            const char *s = line + strspn(line, " ");
            if (ours && native_frame(s))
                continue;
            char *frame = t[n - 1].frame[t[n - 1].n++];
            if (full)
                snprintf(frame, sizeof t[0].frame[0], "%s", s);
            else
                method_of(s, frame, sizeof t[0].frame[0]);
        }
    }
    return n;
}

static const stack_thread_t *find_thread(const stack_thread_t *t, int n, long tid)
{
    for (int i = 0; i < n; i++)
        if (t[i].tid == tid)
            return &t[i];
    return NULL;
}

/* The tid of the thread clrattach's report names name ("blocked"), -1 when absent. */
static long tid_named(const char *ours, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\":", name);
    const char *k = strstr(ours, key);
    while (k && k > ours && strncmp(k, "thread ", 7) != 0)
        k--;
    return k ? strtol(k + 7, NULL, 10) : -1;
}

static void assert_same_stack(const stack_thread_t *theirs, int nt, const stack_thread_t *ours,
                              int no, long tid, const char *what)
{
    const stack_thread_t *a = find_thread(theirs, nt, tid), *b = find_thread(ours, no, tid);
    ASSERT_MSG(a && b, "thread %ld (%s) missing: dotnet-stack %s, clrattach %s", tid, what,
               a ? "has it" : "not", b ? "has it" : "not");
    ASSERT_MSG(a->n == b->n && a->n > 0, "%s: dotnet-stack %d frames, clrattach %d (%s / %s)",
               what, a->n, b->n, a->n ? a->frame[0] : "", b->n ? b->frame[0] : "");
    for (int i = 0; i < a->n; i++)
        ASSERT_MSG(strcmp(a->frame[i], b->frame[i]) == 0, "%s frame %d: dotnet-stack %s, "
                   "clrattach %s", what, i, a->frame[i], b->frame[i]);
}

/* Threads that wait stay put between the two snapshots (ours by signal, the default, with the
 * native frames dotnet-stack does not show left out): the main thread (Thread.Sleep), the
 * one blocked in Monitor.Wait, the one waiting on a task. Their frames must be the same. */
TEST(anchor_stack_gives_dotnet_stacks_frames_for_every_waiting_thread)
{
    require_tool(CLRA_TOOLS_DIR "/dotnet-stack");
    app_t a;
    hot_start(&a, NULL);
    const char *out;
    const char *const argv[] = {"dotnet-stack", "report", "-p", app_pid_text(&a), NULL};
    int rc = run_program(&out, CLRA_TOOLS_DIR "/dotnet-stack", argv);
    ASSERT_MSG(rc == 0, "dotnet-stack: exit %d: %s", rc, out);
    char *theirs_text = strdup(out);
    rc = run_cli(&out, "stack", app_pid_text(&a), NULL); /* the default: by signal */
    ASSERT_MSG(rc == 0, "clrattach stack: exit %d: %s", rc, out);
    static stack_thread_t theirs[MAX_NAMES], ours[MAX_NAMES];
    long blocked = tid_named(out, "blocked"), waiting = tid_named(out, "async");
    int nt = parse_stacks(theirs_text, 0, 0, theirs, MAX_NAMES);
    int no = parse_stacks(out, 1, 0, ours, MAX_NAMES);
    assert_same_stack(theirs, nt, ours, no, a.pid, "main");
    assert_same_stack(theirs, nt, ours, no, blocked, "blocked");
    assert_same_stack(theirs, nt, ours, no, waiting, "async");
    /* --signatures: the very lines dotnet-stack prints, module and parameters included */
    rc = run_cli(&out, "stack", "--signatures", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "clrattach stack --signatures: exit %d: %s", rc, out);
    nt = parse_stacks(theirs_text, 0, 1, theirs, MAX_NAMES);
    no = parse_stacks(out, 1, 1, ours, MAX_NAMES);
    assert_same_stack(theirs, nt, ours, no, a.pid, "main --signatures");
    assert_same_stack(theirs, nt, ours, no, blocked, "blocked --signatures");
    assert_same_stack(theirs, nt, ours, no, waiting, "async --signatures");
    printf("dotnet-stack: %d threads; clrattach: %d threads; 3 waiting threads agree, with "
           "--signatures line for line\n", nt, no);
    free(theirs_text);
    app_stop(&a);
}

/* Every counter of a collect file (theirs or ours: the same JSON keys) with its last value. */
typedef struct counter_set {
    int n;
    char name[MAX_NAMES][128];
    double last[MAX_NAMES];
} counter_set_t;

static void read_counters(const char *path, counter_set_t *c)
{
    const char *json = slurp(path);
    memset(c, 0, sizeof *c);
    for (const char *p = json; (p = strstr(p, "\"name\": \"")) != NULL;) {
        p += 9;
        size_t len = strcspn(p, "\"");
        const char *v = strstr(p, "\"value\": ");
        if (!v)
            break;
        int i = 0;
        while (i < c->n && (strlen(c->name[i]) != len || strncmp(c->name[i], p, len) != 0))
            i++;
        if (i == c->n && c->n < MAX_NAMES)
            snprintf(c->name[c->n++], sizeof c->name[0], "%.*s", (int)len, p);
        if (i < c->n)
            c->last[i] = strtod(v + 9, NULL);
        p += len;
    }
}

static int counter_index(const counter_set_t *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->name[i], name) == 0)
            return i;
    return -1;
}

/* Runs dotnet-counters collect (theirs) and clrattach counters (ours), one after the other
 * (the runtime serves one Meter session at a time), 4 s each, as JSON files in a->dir. */
static void collect_both(app_t *a, counter_set_t *theirs, counter_set_t *ours)
{
    const char *out, *their_path = out_path(a, "theirs.json");
    char path_copy[512];
    snprintf(path_copy, sizeof path_copy, "%s", their_path);
    const char *const argv[] = {"dotnet-counters", "collect", "-p", app_pid_text(a),
                                "--duration", "00:00:00:04", "--format", "json", "-o",
                                path_copy, NULL};
    int rc = run_program(&out, CLRA_TOOLS_DIR "/dotnet-counters", argv);
    ASSERT_MSG(rc == 0, "dotnet-counters: exit %d: %s", rc, out);
    read_counters(path_copy, theirs);
    const char *our_path = out_path(a, "ours.json");
    snprintf(path_copy, sizeof path_copy, "%s", our_path);
    rc = run_cli(&out, "counters", "-p", app_pid_text(a), "--duration", "4", "--format", "json",
                 "-o", path_copy, NULL);
    ASSERT_MSG(rc == 0, "clrattach counters: exit %d: %s", rc, out);
    read_counters(path_copy, ours);
}

static void assert_value(const counter_set_t *t, const counter_set_t *o, const char *name,
                         double tolerance)
{
    int i = counter_index(t, name), j = counter_index(o, name);
    ASSERT_MSG(i >= 0 && j >= 0, "%s: dotnet-counters %s, clrattach %s", name,
               i >= 0 ? "shows it" : "not", j >= 0 ? "shows it" : "not");
    double a = t->last[i], b = o->last[j];
    ASSERT_MSG(a == b || (a > 0 && b >= a * (1 - tolerance) && b <= a * (1 + tolerance)),
               "%s: dotnet-counters %g, clrattach %g (tolerance %g%%)", name, a, b,
               tolerance * 100);
    printf("  %-50s dotnet-counters %-12g clrattach %g\n", name, a, b);
}

/* The default session of both: the same counters by name (every one dotnet-counters shows is
 * shown, no value that is not a rate is extra), and the same values where both read one fact. */
TEST(anchor_counters_show_dotnet_counters_names_and_values_by_default)
{
    require_tool(CLRA_TOOLS_DIR "/dotnet-counters");
    app_t a;
    hot_start(&a, NULL);
    static counter_set_t theirs, ours;
    collect_both(&a, &theirs, &ours);
    ASSERT_MSG(theirs.n >= 5, "dotnet-counters showed %d counters", theirs.n);
    for (int i = 0; i < theirs.n; i++)
        ASSERT_MSG(counter_index(&ours, theirs.name[i]) >= 0, "dotnet-counters shows '%s', "
                   "clrattach does not", theirs.name[i]);
    for (int i = 0; i < ours.n; i++)
        ASSERT_MSG(strstr(ours.name[i], "/ 1 sec") || counter_index(&theirs, ours.name[i]) >= 0,
                   "clrattach shows '%s', dotnet-counters does not", ours.name[i]);
    printf("%d counters in both\n", theirs.n);
    if (e2e_runtime_at_least(9, 0)) {
        assert_value(&theirs, &ours, "dotnet.process.cpu.count ({cpu})", 0);
        assert_value(&theirs, &ours, "dotnet.assembly.count ({assembly})", 0);
        assert_value(&theirs, &ours, "dotnet.process.memory.working_set (By)", 0.25);
    } else {
        assert_value(&theirs, &ours, "Number of Assemblies Loaded", 0);
        assert_value(&theirs, &ours, "Working Set (MB)", 0.25);
    }
    app_stop(&a);
}

/* dotnet-gcdump report's line for type ("    32   100,000  Ns.Type  [module.dll]"): the size
 * of one object and the count. 0 when the report has no such line. */
static int gcdump_figures(const char *report, const char *type, long long *size,
                          long long *count)
{
    char key[200];
    snprintf(key, sizeof key, "  %s  [", type);
    const char *p = strstr(report, key);
    if (!p)
        return 0;
    const char *line = p;
    while (line > report && line[-1] != '\n')
        line--;
    char digits[64];
    size_t n = 0;
    *size = strtoll(line, (char **)&line, 10);
    for (line += strspn(line, " "); line < p && n + 1 < sizeof digits; line++)
        if (*line >= '0' && *line <= '9')
            digits[n++] = *line;
    digits[n] = '\0';
    *count = strtoll(digits, NULL, 10);
    return n > 0;
}

/* Both snapshots of the sample app holding 100,000 HeapItem and 25,000 HeapPair: for the app's
 * own types, the same counts (within 1%) and the same size of one object. */
TEST(anchor_heap_counts_what_dotnet_gcdump_reports_for_the_apps_own_types)
{
    static const char *const types[] = {"ClrAttach.Sample.HeapItem", "ClrAttach.Sample.HeapPair"};
    require_tool(CLRA_TOOLS_DIR "/dotnet-gcdump");
    app_t a;
    app_start(&a, NULL);
    ASSERT_STREQ(app_command(&a, "heap 100000", 20000), "heaped items=100000 pairs=25000");
    const char *out;
    const char *const argv[] = {"dotnet-gcdump", "report", "-p", app_pid_text(&a), NULL};
    int rc = run_program(&out, CLRA_TOOLS_DIR "/dotnet-gcdump", argv);
    ASSERT_MSG(rc == 0, "dotnet-gcdump report: exit %d: %s", rc, out);
    char *theirs = strdup(out);
    rc = run_cli(&out, "heap", "--json", "-p", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "clrattach heap: exit %d: %s", rc, out);
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        long long size, count, ours, bytes;
        ASSERT_MSG(gcdump_figures(theirs, types[i], &size, &count), "dotnet-gcdump has no %s",
                   types[i]);
        ASSERT_MSG(heap_type_figures(out, types[i], &ours, &bytes) && ours > 0, "clrattach has no %s",
                   types[i]);
        printf("  %-28s dotnet-gcdump %lld x %lld bytes, clrattach %lld x %lld bytes\n",
               types[i], count, size, ours, bytes / ours);
        ASSERT_MSG(llabs(ours - count) * 100 <= count, "%s: dotnet-gcdump %lld, clrattach %lld",
                   types[i], count, ours);
        ASSERT_EQ(bytes / ours, size);
    }
    free(theirs);
    app_stop(&a);
}

/* The events of one provider in a trace file: "id name" with how often each came. */
typedef struct event_tally {
    const char *provider;
    int n;
    char key[MAX_NAMES][160];
    int count[MAX_NAMES];
} event_tally_t;

static int tally_event(void *ctx, const clra_nettrace_event_t *ev)
{
    event_tally_t *t = ctx;
    if (!ev->meta || strcmp(ev->meta->provider, t->provider) != 0)
        return 0;
    char key[160];
    snprintf(key, sizeof key, "%u %s", ev->meta->event_id, ev->meta->event_name);
    int i = 0;
    while (i < t->n && strcmp(t->key[i], key) != 0)
        i++;
    if (i == t->n && t->n < MAX_NAMES)
        snprintf(t->key[t->n++], sizeof t->key[0], "%s", key);
    if (i < t->n)
        t->count[i]++;
    return 0;
}

static void tally_file(const char *path, const char *who, event_tally_t *t)
{
    clra_nettrace_callbacks_t cb = {0};
    clra_nettrace_info_t info;
    clra_status_t st;
    cb.event = tally_event;
    int rc = clra_nettrace_decode_file(path, &cb, t, &info, &st);
    ASSERT_MSG(rc == 0, "%s's trace %s does not decode: %s", who, path, st.detail);
}

/* Starts a program on a new terminal (dotnet-trace says that it records only on a terminal);
 * its pid, and the terminal's master side in *master. */
static pid_t spawn_on_terminal(const char *path, const char *const *argv, int *master)
{
    *master = posix_openpt(O_RDWR | O_NOCTTY);
    ASSERT(*master >= 0 && grantpt(*master) == 0 && unlockpt(*master) == 0);
    const char *slave = ptsname(*master);
    ASSERT(slave != NULL);
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        setsid();
        int fd = open(slave, O_RDWR);
        if (fd < 0 || dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(126);
        execv(path, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

/* Reads the terminal until text appears (1) or timeout_ms pass or it closes (0); with text
 * NULL, until it closes. What it read goes to log (cut to its size). */
static int read_terminal(int master, const char *text, int timeout_ms, char *log, size_t cap)
{
    size_t used = strlen(log);
    for (int waited = 0; waited < timeout_ms; waited += 50) {
        struct pollfd p = {.fd = master, .events = POLLIN};
        if (poll(&p, 1, 50) <= 0)
            continue;
        char buf[512];
        ssize_t n = read(master, buf, sizeof buf);
        if (n <= 0)
            return 0; /* EIO: the program and its terminal are gone */
        if (used + (size_t)n < cap) {
            memcpy(log + used, buf, (size_t)n);
            used += (size_t)n;
            log[used] = '\0';
        }
        if (text && strstr(log, text))
            return 1;
    }
    return 0;
}

static pid_t spawn_quiet(const char *path, const char *const *argv)
{
    pid_t pid = fork();
    ASSERT(pid >= 0);
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            _exit(126);
        execv(path, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

/* dotnet-trace and clrattach trace, both on the sample app at once with its EventSource: once
 * both sessions stream (dotnet-trace says "Recording trace"; ours has begun its file), the app
 * writes 300 Ticks, and each file must hold the same events by id and name, each as often.
 * dotnet-trace records for 4 s and ours, started once it records, for 2 s: the 300 are inside
 * both windows, so the tolerance is 0 (the windows themselves differ, which the provider's
 * silence outside the 300 makes moot). */
TEST(anchor_trace_keeps_the_events_dotnet_trace_keeps_from_the_same_provider)
{
    require_tool(CLRA_DOTNET_TRACE);
    app_t a;
    app_start(&a, NULL);
    char theirs[512], ours[512];
    snprintf(theirs, sizeof theirs, "%s/theirs.nettrace", a.dir);
    snprintf(ours, sizeof ours, "%s/ours.nettrace", a.dir);
    const char *const targv[] = {"dotnet-trace", "collect", "-p", app_pid_text(&a),
                                 "--providers", "ClrAttach-Sample", "--duration", "00:00:00:04",
                                 "-o", theirs, NULL};
    const char *const oargv[] = {"clrattach", "trace", "--providers", "ClrAttach-Sample",
                                 "--duration", "2", "--output", ours, app_pid_text(&a), NULL};
    int master;
    static char log[65536];
    log[0] = '\0';
    pid_t tp = spawn_on_terminal(CLRA_DOTNET_TRACE, targv, &master);
    ASSERT_MSG(read_terminal(master, "Recording trace", 30000, log, sizeof log),
               "dotnet-trace did not start recording in 30 s: %s", log);
    pid_t op = spawn_quiet(CLRA_CLI, oargv); /* ours starts in well under a second */
    wait_for_stream(ours, "clrattach trace");
    ASSERT_STREQ(app_command(&a, "events 300", 10000), "events-done 300");
    read_terminal(master, NULL, 60000, log, sizeof log); /* drained, so it never blocks */
    close(master);
    int ts, os;
    ASSERT_EQ(waitpid(tp, &ts, 0), tp);
    ASSERT_EQ(waitpid(op, &os, 0), op);
    ASSERT_MSG(WIFEXITED(ts) && WEXITSTATUS(ts) == 0, "dotnet-trace failed (%d): %s", ts, log);
    ASSERT_MSG(WIFEXITED(os) && WEXITSTATUS(os) == 0, "clrattach trace failed (%d)", os);
    static event_tally_t t = {.provider = "ClrAttach-Sample"};
    static event_tally_t o = {.provider = "ClrAttach-Sample"};
    tally_file(theirs, "dotnet-trace", &t);
    tally_file(ours, "clrattach", &o);
    ASSERT_MSG(t.n > 0, "dotnet-trace kept no ClrAttach-Sample event");
    ASSERT_MSG(t.n == o.n, "dotnet-trace kept %d kinds of event, clrattach %d", t.n, o.n);
    for (int i = 0; i < t.n; i++) {
        int j = 0;
        while (j < o.n && strcmp(o.key[j], t.key[i]) != 0)
            j++;
        ASSERT_MSG(j < o.n, "dotnet-trace kept event '%s', clrattach none", t.key[i]);
        ASSERT_MSG(t.count[i] == o.count[j], "event '%s': dotnet-trace %d, clrattach %d",
                   t.key[i], t.count[i], o.count[j]);
        ASSERT_MSG(strcmp(t.key[i], "1 Tick") != 0 || t.count[i] == 300, "dotnet-trace kept "
                   "%d of the 300 Ticks", t.count[i]);
        printf("  ClrAttach-Sample event %-12s dotnet-trace %d, clrattach %d\n", t.key[i],
               t.count[i], o.count[j]);
    }
    app_stop(&a);
}
