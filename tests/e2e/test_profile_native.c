/* End-to-end: the signal sampler's native frames (issue 25) against tests/apps/hot --memset and
 * --gc (Native.cs). A thread in libc's memset through P/Invoke must show memset as the leaf
 * with its managed caller right below it: a frame-pointer walk loses that caller (memset keeps
 * no frame, so rbp still holds the caller's frame and the walk resumes at the caller's
 * caller). A thread forcing collections must show the collector as libcoreclr frames on top of
 * the managed caller, and the server GC's own threads, which never run managed code, must
 * appear by name with native stacks. */
#define _GNU_SOURCE
#include "harness.h"
#include "hot_app.h"
#include "json_check.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FRAMES 256
#define FILL "ClrAttach.Hot.NativeWork.Fill"
#define COLLECT "ClrAttach.Hot.NativeWork.Collect"
#define CORECLR "libcoreclr.so"

/* One folded line split: the thread root, the frames root first, the count. */
typedef struct stack {
    char *frames[MAX_FRAMES];
    int n;
    long long count;
} folded_stack_t;

/* Splits line (modified) into s; 0 when it is not a sample line. */
static int split(char *line, folded_stack_t *s)
{
    char *space = strrchr(line, ' ');
    if (!space || line[0] != '[')
        return 0;
    *space = '\0';
    s->count = atoll(space + 1);
    s->n = 0;
    for (char *save = NULL, *f = strtok_r(line, ";", &save); f && s->n < MAX_FRAMES;
         f = strtok_r(NULL, ";", &save))
        s->frames[s->n++] = f;
    return s->n > 0;
}

/* Calls fn on every stack of the threads whose name starts with prefix; the sum of counts. */
static long long each_stack(const char *folded, const char *prefix,
                            void (*fn)(const folded_stack_t *, void *), void *arg)
{
    char root[64];
    long long total = 0;
    char *copy = strdup(folded), *save = NULL;
    snprintf(root, sizeof root, "[thread %s", prefix);
    for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        folded_stack_t s;
        if (strncmp(l, root, strlen(root)) == 0 && split(l, &s)) {
            total += s.count;
            fn(&s, arg);
        }
    }
    free(copy);
    return total;
}

/* Runs profile --method signal --threads for 2 s into a->dir/native.folded. */
static const char *profile_native(const app_t *a)
{
    const char *out;
    int rc = run_cli(&out, "profile", "--method", "signal", "--duration", "2", "--threads",
                     "--json", "--format", "folded", "--output", out_path(a, "native.folded"),
                     app_pid_text(a), NULL);
    ASSERT_MSG(rc == 0, "profile --method signal failed (%d):\n%s", rc, out);
    ASSERT_STREQ(json_value(out, "method"), "signal");
    return slurp(out_path(a, "native.folded"));
}

static void count_memset_leaf(const folded_stack_t *s, void *arg)
{
    const char *leaf = s->frames[s->n - 1];
    if (s->n >= 3 && strncmp(leaf, "libc.so.6!", 10) == 0 && strstr(leaf, "memset") &&
        strcmp(s->frames[s->n - 2], FILL) == 0)
        *(long long *)arg += s->count;
}

/* 8 MB per memset is about a millisecond; the managed loop and the P/Invoke transition around
 * it a few hundred nanoseconds: nearly every CPU sample is in memset. The thread's first
 * sample has no walk (its stack is learned from it) and a sample may land in the transition:
 * 90% leaves room for those and fails if the caller is lost or memset goes unnamed. */
TEST(signal_profile_puts_libc_memset_as_the_leaf_with_its_managed_caller_below)
{
    app_t a;
    long long hit = 0;
    hot_start(&a, "--memset");
    const char *folded = profile_native(&a);
    long long total = each_stack(folded, "memset ", count_memset_leaf, &hit);
    test_note("memset leaf under " FILL ": %lld of %lld samples", hit, total);
    ASSERT_MSG(total >= 30 && hit >= total * 9 / 10, "memset under Fill in %lld of %lld "
               "samples, want >= 90%%:\n%s", hit, total, folded);
    app_stop(&a);
}

/* The distinct libcoreclr functions among frames [from, n) (a recursion counts once). */
static int coreclr_frames(const folded_stack_t *s, int from)
{
    int n = 0;
    for (int i = from; i < s->n; i++) {
        int seen = 0;
        for (int j = from; j < i && !seen; j++)
            seen = strcmp(s->frames[j], s->frames[i]) == 0;
        n += !seen && strncmp(s->frames[i], CORECLR, strlen(CORECLR)) == 0;
    }
    return n;
}

static void count_gc_under_collect(const folded_stack_t *s, void *arg)
{
    for (int i = 1; i < s->n; i++)
        if (strcmp(s->frames[i], COLLECT) == 0 && coreclr_frames(s, i + 1) >= 2) {
            *(long long *)arg += s->count;
            return;
        }
}

/* The thread allocates 1,024 small arrays and collects, blocking and background by turns: the
 * collection (on this thread for a blocking one; the runtime's wait for a background one) is
 * most of its time (88-93% of samples on .NET 10.0.12), the allocations in managed code the rest.
 * 60% leaves room for a slower runtime's allocator and fails if the native frames are lost. */
TEST(signal_profile_shows_forced_collections_as_libcoreclr_frames_above_the_caller)
{
    app_t a;
    long long hit = 0;
    hot_start(&a, "--gc");
    const char *folded = profile_native(&a);
    long long total = each_stack(folded, "gc ", count_gc_under_collect, &hit);
    test_note(">= 2 distinct libcoreclr functions above " COLLECT ": %lld of %lld samples", hit,
              total);
    ASSERT_MSG(total >= 30 && hit >= total * 6 / 10, "libcoreclr above Collect in %lld of %lld "
               "samples, want >= 60%%:\n%s", hit, total, folded);
    app_stop(&a);
}

/* Counts in arg[0] the samples rooted in libc with >= 2 libcoreclr frames, in arg[1] those
 * holding a managed frame (a dotted name outside any library). */
static void count_native_only(const folded_stack_t *s, void *arg)
{
    long long *c = arg;
    int managed = 0;
    for (int i = 1; i < s->n; i++)
        managed |= strchr(s->frames[i], '.') && !strstr(s->frames[i], ".so");
    if (s->n >= 3 && strncmp(s->frames[1], "libc.so.6", 9) == 0 && coreclr_frames(s, 1) >= 2)
        c[0] += s->count;
    c[1] += managed ? s->count : 0;
}

/* Server GC collects on its own threads (".NET Server GC"), which the runtime starts and which
 * never run managed code: they must be sampled, named, and walked from thread start. */
TEST(signal_profile_samples_server_gc_threads_that_never_run_managed_code)
{
    app_t a;
    long long c[2] = {0, 0};
    setenv("DOTNET_gcServer", "1", 1);
    hot_start(&a, "--gc");
    unsetenv("DOTNET_gcServer");
    const char *folded = profile_native(&a);
    long long total = each_stack(folded, ".NET Server GC ", count_native_only, c);
    test_note(".NET Server GC threads: %lld samples, %lld rooted in libc with >= 2 libcoreclr "
              "frames, %lld with a managed frame", total, c[0], c[1]);
    ASSERT_MSG(total >= 10, "the server GC threads have %lld samples:\n%s", total, folded);
    ASSERT_MSG(c[0] >= total * 8 / 10 && c[1] == 0, "native stacks in %lld of %lld samples, "
               "%lld with a managed frame:\n%s", c[0], total, c[1], folded);
    app_stop(&a);
}
