/* Unit tests of process discovery (ps) over fake /proc trees, with fake diagnostics servers
 * standing in for runtimes: what is listed, what is skipped, what is called stale, and that a
 * wedged runtime costs one probe deadline. */
#define _GNU_SOURCE
#include "fakesrv.h"
#include "process_list.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define PID_A 4242 /* the pid the hand-written ProcessInfo3 reply reports */
#define PID_B 4243
#define KTHREAD_FLAGS 0x00208040ll /* PF_KTHREAD among others */
#define MAPS_CLR "7f00-7f01 r-xp 0 0:0 0 /usr/share/dotnet/shared/libcoreclr.so\n"
#define MAPS_PLAIN "5600-5700 r-xp 0 0:0 0 /usr/bin/sleep\n"

#define MAGIC 0x44, 0x4F, 0x54, 0x4E, 0x45, 0x54, 0x5F, 0x49, 0x50, 0x43, 0x5F, 0x56, 0x31, 0x00
/* ProcessInfo3 v1 OK reply for pid 4242 (payload layout: docs/protocol.md 3.4), 142 bytes. */
static const uint8_t info3_reply[] = {
    MAGIC, 0x8E, 0x00, 0xFF, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00,                         /* version 1 */
    0x92, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* pid 4242 */
    0x1C, 0x5F, 0x6F, 0x84, 0xAE, 0xF9, 0x07, 0x4B, 0x96, 0x9E, 0x05, 0xC2, 0x6B, 0xC0, 0x60, 0xD8,
    0x04, 0x00, 0x00, 0x00, 'a', 0x00, ' ', 0x00, 'b', 0x00, 0x00, 0x00,
    0x06, 0x00, 0x00, 0x00, 'L', 0x00, 'i', 0x00, 'n', 0x00, 'u', 0x00, 'x', 0x00, 0x00, 0x00,
    0x04, 0x00, 0x00, 0x00, 'x', 0x00, '6', 0x00, '4', 0x00, 0x00, 0x00,
    0x04, 0x00, 0x00, 0x00, 'a', 0x00, 'p', 0x00, 'p', 0x00, 0x00, 0x00,
    0x07, 0x00, 0x00, 0x00, '1', 0x00, '0', 0x00, '.', 0x00, '0', 0x00, '.', 0x00, '1', 0x00,
    0x00, 0x00,
    0x0A, 0x00, 0x00, 0x00, 'l', 0x00, 'i', 0x00, 'n', 0x00, 'u', 0x00, 'x', 0x00, '-', 0x00,
    'x', 0x00, '6', 0x00, '4', 0x00, 0x00, 0x00};

typedef struct fake_tree {
    char proc[128]; /* the fake /proc */
    char tmp[128];  /* the fake processes' TMPDIR */
} fake_tree_t;

static void put_file(const char *dir, const char *name, const char *text, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    ASSERT_MSG(f != NULL, "cannot create %s", path);
    ASSERT(fwrite(text, 1, len, f) == len);
    fclose(f);
}

static void tree_init(fake_tree_t *t)
{
    snprintf(t->proc, sizeof t->proc, "/tmp/clra-fakeps-XXXXXX");
    ASSERT(mkdtemp(t->proc) != NULL);
    snprintf(t->tmp, sizeof t->tmp, "/tmp/clra-fakepstmp-XXXXXX");
    ASSERT(mkdtemp(t->tmp) != NULL);
}

/* Adds <proc>/<pid>/ with stat (state, flags, start-time key), status (uid 0, NSpid),
 * cmdline, maps and an environ with TMPDIR=<tmp> plus extra_env (one NAME=VALUE or NULL). */
static void tree_add(fake_tree_t *t, int pid, char state, long long flags, long long key,
                     const char *maps, const char *extra_env)
{
    char dir[256], text[512];
    snprintf(dir, sizeof dir, "%s/%d", t->proc, pid);
    ASSERT(mkdir(dir, 0755) == 0);
    int n = snprintf(text, sizeof text, "%d (fake) %c 1 1 1 0 -1 %lld 0 0 0 0 0 0 0 0 0 0 0 0 "
                     "%lld 0 0\n", pid, state, flags, key);
    put_file(dir, "stat", text, (size_t)n);
    n = snprintf(text, sizeof text, "Name:\tfake\nUid:\t0\t0\t0\t0\nNSpid:\t%d\n", pid);
    put_file(dir, "status", text, (size_t)n);
    put_file(dir, "cmdline", "fake\0--arg\0", 11);
    put_file(dir, "maps", maps, strlen(maps));
    n = snprintf(text, sizeof text, "HOME=/root%cTMPDIR=%s%c%s", 0, t->tmp, 0,
                 extra_env ? extra_env : "LANG=C");
    put_file(dir, "environ", text, (size_t)n + 1);
}

static void tree_free(fake_tree_t *t)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", t->proc, t->tmp);
    ASSERT(system(cmd) == 0);
}

/* A fake runtime for pid with start-time key, in the tree's TMPDIR. */
static fakesrv_t *serve(fake_tree_t *t, int pid, long long key, const fakesrv_step_t *steps,
                        size_t n)
{
    char name[96];
    snprintf(name, sizeof name, "dotnet-diagnostic-%d-%lld-socket", pid, key);
    fakesrv_t *s = fakesrv_start_steps(steps, n, t->tmp, name);
    ASSERT(s != NULL);
    return s;
}

/* The entry for pid, or NULL. */
static const clra_process_entry_t *entry(const clra_process_list_t *l, int pid)
{
    for (size_t i = 0; i < l->count; i++)
        if (l->entries[i].pid == pid)
            return &l->entries[i];
    return NULL;
}

static int stale_has(const clra_process_list_t *l, const char *needle)
{
    for (size_t i = 0; i < l->stale_count; i++)
        if (strstr(l->stale[i], needle))
            return 1;
    return 0;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

TEST(ps_socket_names_are_recognised_for_any_pid)
{
    ASSERT(clra__is_diagnostic_socket_name("dotnet-diagnostic-42-8607-socket"));
    ASSERT(clra__is_diagnostic_socket_name("dotnet-diagnostic-1-0-socket"));
    ASSERT(!clra__is_diagnostic_socket_name("dotnet-diagnostic--8607-socket"));
    ASSERT(!clra__is_diagnostic_socket_name("dotnet-diagnostic-42-socket"));
    ASSERT(!clra__is_diagnostic_socket_name("dotnet-diagnostic-42-8607-socket.old"));
    ASSERT(!clra__is_diagnostic_socket_name("dotnet-diagnostic-dsrouter-42-8607-socket"));
    ASSERT(!clra__is_diagnostic_socket_name("clrprof-42-x-socket"));
}

TEST(ps_lists_a_reachable_runtime_with_its_process_info)
{
    fake_tree_t t;
    clra_process_list_t l;
    clra_status_t st;
    tree_init(&t);
    tree_add(&t, PID_A, 'S', 0x400000, 555, MAPS_CLR, NULL);
    fakesrv_step_t step = {FAKESRV_REPLY, info3_reply, sizeof info3_reply, NULL};
    fakesrv_t *s = serve(&t, PID_A, 555, &step, 1);
    ASSERT_EQ(clra__process_list_in(t.proc, 5000, 1000, &l, &st), 0);
    const clra_process_entry_t *e = entry(&l, PID_A);
    ASSERT_MSG(e != NULL, "pid %d not listed (%zu entries)", PID_A, l.count);
    ASSERT_EQ(e->reach, 0);
    ASSERT_EQ(e->ns_pid, PID_A);
    ASSERT_EQ(e->uid, 0);
    ASSERT_STREQ(e->user, "root");
    ASSERT_STREQ(e->command_line, "a b"); /* the runtime's, not /proc's "fake --arg" */
    ASSERT_STREQ(e->info.rid, "linux-x64");
    ASSERT_STREQ(e->info.clr_version, "10.0.1");
    ASSERT_STREQ(e->endpoint, fakesrv_path(s));
    ASSERT_STREQ(e->reason, "");
    ASSERT(!stale_has(&l, t.tmp));
    clra_process_list_free(&l);
    fakesrv_stop(s);
    tree_free(&t);
}

TEST(ps_skips_kernel_threads_zombies_and_processes_without_a_runtime)
{
    fake_tree_t t;
    clra_process_list_t l;
    clra_status_t st;
    tree_init(&t);
    /* The runtime in the first and last maps proves they are skipped for what they are. */
    tree_add(&t, PID_A, 'S', KTHREAD_FLAGS, 10, MAPS_CLR, NULL);
    tree_add(&t, PID_B, 'S', 0x400000, 11, MAPS_PLAIN, NULL);
    tree_add(&t, PID_B + 1, 'Z', 0x400000, 12, MAPS_CLR, NULL);
    ASSERT_EQ(clra__process_list_in(t.proc, 5000, 1000, &l, &st), 0);
    ASSERT_EQ(l.count, 0);
    ASSERT_EQ(l.unreadable, 0);
    clra_process_list_free(&l);
    tree_free(&t);
}

TEST(ps_socket_left_by_a_dead_process_is_stale_not_listed)
{
    fake_tree_t t;
    clra_process_list_t l;
    clra_status_t st;
    tree_init(&t);
    tree_add(&t, PID_B, 'S', 0x400000, 11, MAPS_PLAIN, NULL); /* makes the scan search t.tmp */
    fakesrv_step_t stale = {FAKESRV_NO_LISTENER, NULL, 0, NULL};
    fakesrv_t *s = serve(&t, 31337, 99, &stale, 1); /* no pid 31337 in this /proc */
    ASSERT_EQ(clra__process_list_in(t.proc, 5000, 1000, &l, &st), 0);
    ASSERT_EQ(l.count, 0);
    ASSERT_MSG(stale_has(&l, "dotnet-diagnostic-31337-99-socket"), "stale list lacks the file");
    clra_process_list_free(&l);
    fakesrv_stop(s);
    tree_free(&t);
}

TEST(ps_socket_of_an_earlier_process_with_a_reused_pid_is_stale)
{
    fake_tree_t t;
    clra_process_list_t l;
    clra_status_t st;
    tree_init(&t);
    tree_add(&t, PID_B, 'S', 0x400000, 555, MAPS_PLAIN, NULL); /* today's PID_B: not .NET */
    fakesrv_step_t stale = {FAKESRV_NO_LISTENER, NULL, 0, NULL};
    fakesrv_t *s = serve(&t, PID_B, 111, &stale, 1); /* an earlier PID_B's socket */
    ASSERT_EQ(clra__process_list_in(t.proc, 5000, 1000, &l, &st), 0);
    ASSERT(entry(&l, PID_B) == NULL);
    ASSERT(stale_has(&l, "dotnet-diagnostic-4243-111-socket"));
    clra_process_list_free(&l);
    fakesrv_stop(s);
    tree_free(&t);
}

TEST(ps_runtime_whose_socket_refuses_is_listed_as_refused)
{
    fake_tree_t t;
    clra_process_list_t l;
    clra_status_t st;
    tree_init(&t);
    tree_add(&t, PID_B, 'S', 0x400000, 555, MAPS_CLR, NULL);
    fakesrv_step_t stale = {FAKESRV_NO_LISTENER, NULL, 0, NULL};
    fakesrv_t *s = serve(&t, PID_B, 555, &stale, 1);
    ASSERT_EQ(clra__process_list_in(t.proc, 5000, 1000, &l, &st), 0);
    const clra_process_entry_t *e = entry(&l, PID_B);
    ASSERT(e != NULL);
    ASSERT_EQ(e->reach, CLRA_ECONNREFUSED);
    ASSERT_CONTAINS(e->reason, "refused");
    ASSERT_STREQ(e->command_line, "fake --arg"); /* from /proc, as the runtime did not answer */
    ASSERT(!stale_has(&l, t.tmp)); /* its socket belongs to a listed process */
    clra_process_list_free(&l);
    fakesrv_stop(s);
    tree_free(&t);
}

TEST(ps_runtime_with_diagnostics_disabled_is_listed_without_endpoint)
{
    fake_tree_t t;
    clra_process_list_t l;
    clra_status_t st;
    tree_init(&t);
    tree_add(&t, PID_B, 'S', 0x400000, 555, MAPS_CLR, "DOTNET_EnableDiagnostics=0");
    ASSERT_EQ(clra__process_list_in(t.proc, 5000, 1000, &l, &st), 0);
    const clra_process_entry_t *e = entry(&l, PID_B);
    ASSERT(e != NULL);
    ASSERT_EQ(e->reach, CLRA_ENOENDPOINT);
    ASSERT_CONTAINS(e->reason, "disabled");
    ASSERT(e->endpoint == NULL);
    clra_process_list_free(&l);
    tree_free(&t);
}

TEST(ps_socket_answering_for_another_pid_is_a_protocol_error)
{
    fake_tree_t t;
    clra_process_list_t l;
    clra_status_t st;
    tree_init(&t);
    tree_add(&t, PID_B, 'S', 0x400000, 555, MAPS_CLR, NULL);
    fakesrv_step_t step = {FAKESRV_REPLY, info3_reply, sizeof info3_reply, NULL}; /* says 4242 */
    fakesrv_t *s = serve(&t, PID_B, 555, &step, 1);
    ASSERT_EQ(clra__process_list_in(t.proc, 5000, 1000, &l, &st), 0);
    const clra_process_entry_t *e = entry(&l, PID_B);
    ASSERT(e != NULL);
    ASSERT_EQ(e->reach, CLRA_EPROTO);
    ASSERT_CONTAINS(e->reason, "answered for pid 4242, not 4243");
    ASSERT(e->info.rid == NULL);
    clra_process_list_free(&l);
    fakesrv_stop(s);
    tree_free(&t);
}

TEST(ps_wedged_runtimes_cost_one_probe_deadline_each)
{
    fake_tree_t t;
    clra_process_list_t l;
    clra_status_t st;
    tree_init(&t);
    tree_add(&t, PID_A, 'S', 0x400000, 1, MAPS_CLR, NULL);
    tree_add(&t, PID_B, 'S', 0x400000, 2, MAPS_CLR, NULL);
    fakesrv_step_t silent = {FAKESRV_SILENT, NULL, 0, NULL};
    fakesrv_t *a = serve(&t, PID_A, 1, &silent, 1), *b = serve(&t, PID_B, 2, &silent, 1);
    double t0 = now_ms();
    ASSERT_EQ(clra__process_list_in(t.proc, 30000, 200, &l, &st), 0);
    double took = now_ms() - t0;
    ASSERT_MSG(took >= 390 && took < 2000, "two 200 ms probes took %.0f ms", took);
    ASSERT_EQ(entry(&l, PID_A)->reach, CLRA_ETIMEDOUT);
    ASSERT_EQ(entry(&l, PID_B)->reach, CLRA_ETIMEDOUT);
    ASSERT_CONTAINS(entry(&l, PID_B)->reason, "deadline");
    clra_process_list_free(&l);
    fakesrv_stop(a);
    fakesrv_stop(b);
    tree_free(&t);
}

TEST(ps_overall_deadline_lists_the_rest_unasked)
{
    fake_tree_t t;
    clra_process_list_t l;
    clra_status_t st;
    tree_init(&t);
    tree_add(&t, PID_A, 'S', 0x400000, 1, MAPS_CLR, NULL);
    tree_add(&t, PID_B, 'S', 0x400000, 2, MAPS_CLR, NULL);
    fakesrv_step_t silent = {FAKESRV_SILENT, NULL, 0, NULL};
    fakesrv_t *a = serve(&t, PID_A, 1, &silent, 1), *b = serve(&t, PID_B, 2, &silent, 1);
    double t0 = now_ms();
    ASSERT_EQ(clra__process_list_in(t.proc, 300, 5000, &l, &st), 0);
    double took = now_ms() - t0;
    ASSERT_MSG(took >= 290 && took < 2000, "a 300 ms scan took %.0f ms", took);
    ASSERT_EQ(entry(&l, PID_A)->reach, CLRA_ETIMEDOUT);
    ASSERT_EQ(entry(&l, PID_B)->reach, CLRA_ETIMEDOUT);
    ASSERT_CONTAINS(entry(&l, PID_B)->reason, "not asked");
    ASSERT_EQ(fakesrv_connections(b), 0);
    clra_process_list_free(&l);
    fakesrv_stop(a);
    fakesrv_stop(b);
    tree_free(&t);
}

TEST(ps_unreadable_proc_root_is_an_io_error)
{
    clra_process_list_t l;
    clra_status_t st;
    ASSERT_EQ(clra__process_list_in("/nonexistent-proc", 1000, 100, &l, &st), CLRA_EIO);
    ASSERT_CONTAINS(st.detail, "/nonexistent-proc");
    ASSERT_EQ(l.count, 0);
    ASSERT(l.entries == NULL);
}
