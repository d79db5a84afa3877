/* End-to-end: the counter profiler (tests/profilers/counter.c) attached to the sample app sees
 * exactly the events the app was asked to cause, each in its own callback with its arguments
 * decoded. A callback wired to the wrong slot would count in the wrong place (or crash the app),
 * so every phase also checks that the unrelated counters did not move.
 *
 * Each phase compares what the profiler logged between two points (the log is cut at a byte
 * offset taken after a command's reply: callbacks of that command ran on the app's thread
 * before it replied) with what the app did, or with the app's own figures where the runtime
 * adds events of its own. */
#define _GNU_SOURCE
#include "harness.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COUNTER_CLSID "C0C0A7E5-7A11-4B5E-9D1E-3C0F2B8A6D41"
#define COUNTER_SO "libcounter_profiler.so"

/* Where the log ends now; log_since(a, mark) is what was written after it. */
static size_t log_mark(app_t *a)
{
    return strlen(app_log(a));
}

static char *log_since(app_t *a, size_t mark)
{
    const char *log = app_log(a);
    ASSERT_MSG(strlen(log) >= mark, "the profiler's log shrank");
    char *copy = strdup(log + mark);
    ASSERT(copy != NULL);
    return copy;
}

/* Waits until the log written since mark contains text (an earlier attach's lines do not
 * count), failing the test after timeout_ms. */
static void wait_log_since(app_t *a, size_t mark, const char *text, int timeout_ms)
{
    for (int waited = 0;; waited += 20) {
        char *log = log_since(a, mark);
        int found = strstr(log, text) != NULL;
        if (!found && waited >= timeout_ms)
            test_fail(__FILE__, __LINE__, "no '%s' in the log after %d ms; since attach:\n%s",
                      text, timeout_ms, log);
        free(log);
        if (found)
            return;
        usleep(20000);
    }
}

/* Attaches the counter with a detach file in the test's directory and waits until it runs.
 * Returns where its log starts. */
static size_t attach_counter(app_t *a)
{
    char data[400];
    const char *out;
    size_t start = log_mark(a);
    snprintf(data, sizeof data, "detach_file=%s/detach", a->dir);
    int rc = run_cli(&out, "attach", "--clsid", COUNTER_CLSID, "--data", data, app_pid_text(a),
                     profiler_path("counter"), NULL);
    ASSERT_MSG(rc == 0, "attach failed with exit code %d:\n%s", rc, out);
    wait_log_since(a, start, "counter attached watcher_err=0", 10000);
    return start;
}

/* Lines of text that start with prefix and contain needle (NULL: any). */
static int count_lines(const char *text, const char *prefix, const char *needle)
{
    int count = 0;
    size_t plen = strlen(prefix);
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len >= plen && strncmp(line, prefix, plen) == 0) {
            char *copy = strndup(line, len);
            count += !needle || strstr(copy, needle) != NULL;
            free(copy);
        }
        line += len + (end ? 1 : 0);
    }
    return count;
}

/* What the profiler logged in one stretch of the log, per callback. */
typedef struct seen {
    int gc, gc_induced, exceptions, modules, assemblies, threads_created, thread_names;
    int jit_started, jit_finished;
} seen_t;

static seen_t seen_in(const char *text)
{
    return (seen_t){
        .gc = count_lines(text, "GarbageCollectionStarted ", NULL),
        .gc_induced = count_lines(text, "GarbageCollectionStarted ", " reason=induced "),
        .exceptions = count_lines(text, "ExceptionThrown ", NULL),
        .modules = count_lines(text, "ModuleLoadFinished ", NULL),
        .assemblies = count_lines(text, "AssemblyLoadFinished ", NULL),
        .threads_created = count_lines(text, "ThreadCreated ", NULL),
        .thread_names = count_lines(text, "ThreadNameChanged ", NULL),
        .jit_started = count_lines(text, "JITCompilationStarted ", NULL),
        .jit_finished = count_lines(text, "JITCompilationFinished ", NULL),
    };
}

/* The app's own figures ("counts" command). */
typedef struct app_counts {
    int gc0, gc2, assemblies;
} app_counts_t;

static app_counts_t app_counts(app_t *a)
{
    app_counts_t c;
    const char *reply = app_command(a, "counts", 5000);
    ASSERT_MSG(sscanf(reply, "counts gc0=%d gc2=%d assemblies=%d", &c.gc0, &c.gc2,
                      &c.assemblies) == 3,
               "unexpected reply to counts: %s", reply);
    return c;
}

/* Reads "name=N" from the totals line written when the profiler detached. */
static int total_of(const char *log, const char *name)
{
    const char *end = strstr(log, " when=detached\n"), *line = end;
    char key[64];
    ASSERT_MSG(end != NULL, "no totals line written on detach:\n%s", log);
    while (line > log && line[-1] != '\n')
        line--;
    ASSERT_MSG(strncmp(line, "totals ", 7) == 0, "malformed totals line");
    snprintf(key, sizeof key, " %s=", name);
    const char *at = strstr(line, key);
    ASSERT_MSG(at != NULL && at < end, "no %s in the totals line", name);
    return atoi(at + strlen(key));
}

/* Detaches through the profiler's own thread (it polls for the detach file), then checks the
 * library is gone, the app still answers, and the profiler's totals agree with its log since
 * start (from attach_counter). */
static void detach_counter(app_t *a, size_t start)
{
    char file[320];
    snprintf(file, sizeof file, "%s/detach", a->dir);
    FILE *f = fopen(file, "w");
    ASSERT(f != NULL);
    fclose(f);
    wait_log_since(a, start, " when=detached\n", 20000);
    app_wait_unmapped(a, COUNTER_SO, 10000);
    char *log = log_since(a, start);
    ASSERT_CONTAINS(log, "detach_file_request hr=0x00000000");
    seen_t all = seen_in(log);
    ASSERT_EQ(total_of(log, "gc"), all.gc);
    ASSERT_EQ(total_of(log, "gc_induced"), all.gc_induced);
    ASSERT_EQ(total_of(log, "exceptions"), all.exceptions);
    ASSERT_EQ(total_of(log, "modules"), all.modules);
    ASSERT_EQ(total_of(log, "assemblies"), all.assemblies);
    ASSERT_EQ(total_of(log, "threads_created"), all.threads_created);
    ASSERT_EQ(total_of(log, "thread_names"), all.thread_names);
    ASSERT_EQ(total_of(log, "jit_started"), all.jit_started);
    ASSERT_EQ(total_of(log, "jit_finished"), all.jit_finished);
    free(log);
    app_assert_responsive(a);
}

/* GC.Collect(2) is an induced GC, which the runtime reports with reason COR_PRF_GC_INDUCED:
 * those are exact. The runtime may add GCs of its own (the app allocates in the background), so
 * all GCs are compared with the app's GC.CollectionCount(0) delta instead (every GC collects
 * gen 0). A GC cannot be in progress while the app's main thread reads its count, and the
 * profiler logs inside GarbageCollectionStarted, so both figures cover the same GCs unless one
 * starts in the microseconds between the reply and reading the log. */
TEST(callback_gc_counts_match_app)
{
    app_t a;
    app_start(&a, NULL);
    size_t start = attach_counter(&a);
    app_counts_t before = app_counts(&a);
    size_t mark = log_mark(&a);
    ASSERT_STREQ(app_command(&a, "gc 5", 10000), "gc-done 5");
    app_counts_t after = app_counts(&a);
    char *text = log_since(&a, mark);
    seen_t s = seen_in(text);
    ASSERT_EQ(after.gc2 - before.gc2, 5);
    ASSERT_EQ(s.gc_induced, 5);
    ASSERT_EQ(count_lines(text, "GarbageCollectionStarted ", " reason=induced gens=111"), 5);
    ASSERT_EQ(s.gc, after.gc0 - before.gc0);
    ASSERT_EQ(s.exceptions, 0);
    ASSERT_EQ(s.modules, 0);
    ASSERT_EQ(s.assemblies, 0);
    ASSERT_EQ(s.thread_names, 0);
    test_note("gc 5: %d GarbageCollectionStarted (%d induced), app saw %d", s.gc, s.gc_induced,
              after.gc0 - before.gc0);
    free(text);
    detach_counter(&a, start);
    app_stop(&a);
}

/* The app throws and catches exactly N InvalidOperationExceptions and nothing else throws on
 * that thread meanwhile; the class name proves ExceptionThrown got a real ObjectID. */
TEST(callback_exceptions_match_app)
{
    app_t a;
    app_start(&a, NULL);
    size_t start = attach_counter(&a);
    size_t mark = log_mark(&a);
    ASSERT_STREQ(app_command(&a, "throw 7", 10000), "thrown 7");
    char *text = log_since(&a, mark);
    seen_t s = seen_in(text);
    ASSERT_EQ(s.exceptions, 7);
    ASSERT_EQ(count_lines(text, "ExceptionThrown ", " class=System.InvalidOperationException "), 7);
    ASSERT_EQ(s.gc_induced, 0);
    ASSERT_EQ(s.modules, 0);
    ASSERT_EQ(s.assemblies, 0);
    ASSERT_EQ(s.thread_names, 0);
    test_note("throw 7: %d ExceptionThrown", s.exceptions);
    free(text);
    detach_counter(&a, start);
    app_stop(&a);
}

/* Each assembly of .NET (Core) has one module, so module and assembly loads both equal the
 * growth of the app's AppDomain.GetAssemblies(); "load" needs System.Private.Xml.Linq. */
TEST(callback_module_loads_match_app)
{
    app_t a;
    app_start(&a, NULL);
    size_t start = attach_counter(&a);
    app_counts_t before = app_counts(&a);
    size_t mark = log_mark(&a);
    ASSERT_CONTAINS(app_command(&a, "load", 10000), "loaded");
    app_counts_t after = app_counts(&a);
    char *text = log_since(&a, mark);
    seen_t s = seen_in(text);
    int grew = after.assemblies - before.assemblies;
    ASSERT_MSG(grew >= 1, "the app loaded no assembly (%d -> %d)", before.assemblies,
               after.assemblies);
    ASSERT_EQ(s.modules, grew);
    ASSERT_EQ(s.assemblies, grew);
    ASSERT_EQ(count_lines(text, "ModuleLoadFinished ",
                          "name=System.Private.Xml.Linq.dll hr=0x00000000 "), 1);
    ASSERT_EQ(count_lines(text, "AssemblyLoadFinished ",
                          "name=System.Private.Xml.Linq hr=0x00000000 "), 1);
    ASSERT_EQ(count_lines(text, "ModuleLoadFinished ", "hr=0x00000000 "), grew);
    ASSERT_EQ(s.gc_induced, 0);
    ASSERT_EQ(s.exceptions, 0);
    ASSERT_EQ(s.thread_names, 0);
    test_note("load: %d ModuleLoadFinished, %d AssemblyLoadFinished, app saw %d new assemblies",
              s.modules, s.assemblies, grew);
    free(text);
    detach_counter(&a, start);
    app_stop(&a);
}

/* The app names its threads sample-0..N-1, so each appears exactly once in ThreadNameChanged,
 * and the ThreadID given there must have been announced by exactly one ThreadCreated. The
 * total of ThreadCreated may exceed N: the runtime creates managed threads of its own when it
 * needs them (the tiered-compilation worker, thread-pool workers), which the app cannot count. */
TEST(callback_threads_match_app)
{
    app_t a;
    app_start(&a, NULL);
    size_t start = attach_counter(&a);
    size_t mark = log_mark(&a);
    ASSERT_STREQ(app_command(&a, "threads 4", 10000), "threads-done 4");
    char *text = log_since(&a, mark);
    seen_t s = seen_in(text);
    for (int i = 0; i < 4; i++) {
        char name[64], id[80];
        snprintf(name, sizeof name, " name=sample-%d id=", i);
        ASSERT_MSG(count_lines(text, "ThreadNameChanged ", name) == 1,
                   "thread sample-%d was not named exactly once:\n%s", i, text);
        const char *line = strstr(text, name);
        ASSERT(sscanf(line + strlen(name), "%60s", id + 3) == 1);
        memcpy(id, "id=", 3);
        strcat(id, " ");
        ASSERT_MSG(count_lines(text, "ThreadCreated ", id) == 1,
                   "thread sample-%d (%s) was not created exactly once:\n%s", i, id, text);
    }
    ASSERT_MSG(s.threads_created >= 4, "only %d ThreadCreated for 4 threads", s.threads_created);
    ASSERT_EQ(s.gc_induced, 0);
    ASSERT_EQ(s.exceptions, 0);
    ASSERT_EQ(s.modules, 0);
    ASSERT_EQ(s.assemblies, 0);
    test_note("threads 4: %d ThreadCreated, %d ThreadNameChanged", s.threads_created,
              s.thread_names);
    free(text);
    detach_counter(&a, start);
    app_stop(&a);
}

/* Methods the app never called before are JIT-compiled exactly once each (called once, so
 * tiering never recompiles them), and clrprof_function_name names them from real metadata,
 * nested types included. Other JIT events (the runtime's own tier-1 recompilations of hot
 * methods) may interleave; they are not counted against the app. */
TEST(callback_jit_names_match_app)
{
    static const char *const names[] = {
        "ClrAttach.Sample.Fresh.CallFirstTime", "ClrAttach.Sample.Fresh.M0",
        "ClrAttach.Sample.Fresh.M1", "ClrAttach.Sample.Fresh.M2", "ClrAttach.Sample.Fresh.M3",
        "ClrAttach.Sample.Fresh.M4", "ClrAttach.Sample.Fresh.M5", "ClrAttach.Sample.Fresh.M6",
        "ClrAttach.Sample.Fresh.M7", "ClrAttach.Sample.Outer+Inner.M",
        "ClrAttach.Sample.Outer+Inner+Deep.M"};
    app_t a;
    app_start(&a, NULL);
    size_t start = attach_counter(&a);
    size_t mark = log_mark(&a);
    ASSERT_STREQ(app_command(&a, "jit 8", 10000), "jit-done 10");
    char *text = log_since(&a, mark);
    seen_t s = seen_in(text);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char started[200], finished[200];
        snprintf(started, sizeof started, " name=%s safe=", names[i]);
        snprintf(finished, sizeof finished, " name=%s hr=0x00000000 ", names[i]);
        ASSERT_MSG(count_lines(text, "JITCompilationStarted", started) == 1 &&
                       count_lines(text, "JITCompilationFinished", finished) == 1,
                   "%s was not JIT-compiled exactly once:\n%s", names[i], text);
    }
    ASSERT_MSG(s.jit_started >= 11 && s.jit_finished >= 11, "%d started, %d finished",
               s.jit_started, s.jit_finished);
    ASSERT_EQ(s.gc_induced, 0);
    ASSERT_EQ(s.exceptions, 0);
    ASSERT_EQ(s.thread_names, 0);
    test_note("jit 8: %d JITCompilationStarted, %d JITCompilationFinished, %d unnamed",
              s.jit_started, s.jit_finished, count_lines(text, "JITCompilation", " name=? "));
    free(text);
    detach_counter(&a, start);
    app_stop(&a);
}

/* After the detach the library is unmapped, its destructor ran, and events the app causes are
 * no longer recorded; a second attach of the same library works from a clean state. */
TEST(callback_detach_stops_events_and_reattach_starts_from_zero)
{
    app_t a;
    app_start(&a, NULL);
    size_t start = attach_counter(&a);
    ASSERT_STREQ(app_command(&a, "gc 2", 10000), "gc-done 2");
    detach_counter(&a, start);
    app_wait_log(&a, "clrprof: library unloaded", 5000);
    size_t mark = log_mark(&a);
    ASSERT_STREQ(app_command(&a, "gc 3", 10000), "gc-done 3");
    ASSERT_STREQ(app_command(&a, "throw 2", 10000), "thrown 2");
    char *text = log_since(&a, mark);
    ASSERT_MSG(text[0] == '\0', "the profiler logged after its detach:\n%s", text);
    free(text);
    /* Re-attach: a fresh object, its counters from zero. */
    char file[320];
    snprintf(file, sizeof file, "%s/detach", a.dir);
    ASSERT(remove(file) == 0);
    start = attach_counter(&a);
    ASSERT_STREQ(app_command(&a, "gc 1", 10000), "gc-done 1");
    text = log_since(&a, start);
    ASSERT_EQ(count_lines(text, "GarbageCollectionStarted ", " reason=induced "), 1);
    ASSERT_EQ(count_lines(text, "GarbageCollectionStarted n=1 ", NULL), 1);
    free(text);
    detach_counter(&a, start);
    app_stop(&a);
}
