/* Unit tests of socket discovery against fake /proc trees built in a temporary directory. */
#define _GNU_SOURCE
#include "command_target.h"
#include "target/endpoint.h"
#include "test.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define FAKE_PID 4242421

typedef struct fake_proc {
    char root[256]; /* the fake /proc */
    char tmp[256];  /* the target's TMPDIR */
} fake_proc_t;

static void write_file(const char *dir, const char *name, const char *text, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    ASSERT_MSG(f != NULL, "cannot create %s", path);
    fwrite(text, 1, len, f);
    fclose(f);
}

/* Builds <root>/<pid>/{status,stat,environ,maps} and <root>/self; text fields may be NULL. */
static void fake_process(fake_proc_t *fp, const char *status, const char *stat_text,
                         const char *environ, size_t environ_len, const char *maps)
{
    char dir[512];
    snprintf(fp->root, sizeof fp->root, "/tmp/clra-fakeproc-XXXXXX");
    ASSERT(mkdtemp(fp->root) != NULL);
    snprintf(fp->tmp, sizeof fp->tmp, "/tmp/clra-faketmp-XXXXXX");
    ASSERT(mkdtemp(fp->tmp) != NULL);
    snprintf(dir, sizeof dir, "%s/%d", fp->root, FAKE_PID);
    ASSERT(mkdir(dir, 0755) == 0);
    if (status)
        write_file(dir, "status", status, strlen(status));
    if (stat_text)
        write_file(dir, "stat", stat_text, strlen(stat_text));
    if (environ)
        write_file(dir, "environ", environ, environ_len);
    if (maps)
        write_file(dir, "maps", maps, strlen(maps));
}

/* Leaves a real socket file (nobody listening) with the given age in seconds. */
static void fake_socket(const char *dir, const char *name, int age_s)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s/%s", dir, name);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT(bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0);
    close(fd);
    struct timespec t[2];
    clock_gettime(CLOCK_REALTIME, &t[0]);
    t[0].tv_sec -= age_s;
    t[1] = t[0];
    ASSERT(utimensat(AT_FDCWD, sa.sun_path, t, 0) == 0);
}

static void rm_tree(const char *path)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    ASSERT(system(cmd) == 0);
}

static void fake_cleanup(fake_proc_t *fp)
{
    rm_tree(fp->root);
    rm_tree(fp->tmp);
}

/* Like fake_process, with an environment whose TMPDIR is the fake tmp directory. */
static void fake_process_in_tmp(fake_proc_t *fp, const char *status, const char *stat_text,
                                const char *maps)
{
    char env[512], dir[512];
    fake_process(fp, status, stat_text, NULL, 0, maps);
    int n = snprintf(env, sizeof env, "HOME=/root%cTMPDIR=%s%cLANG=C", 0, fp->tmp, 0);
    snprintf(dir, sizeof dir, "%s/%d", fp->root, FAKE_PID);
    write_file(dir, "environ", env, (size_t)n + 1);
}

#define STAT_KEY_555 "4242421 (dotnet) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 555 19 20\n"

TEST(endpoint_parses_innermost_nspid)
{
    ASSERT_EQ(clra__parse_nspid("Name:\tx\nNSpid:\t4242\t17\t3\nVmPeak:\t1\n"), 3);
    ASSERT_EQ(clra__parse_nspid("NSpid:\t99\n"), 99);
    ASSERT_EQ(clra__parse_nspid("Name:\tx\nPid:\t5\n"), -1);
    ASSERT_EQ(clra__parse_nspid("Name:\tx\nNSpid:\t12x\n"), -1);
    ASSERT_EQ(clra__parse_nspid("Name:\tx\nNSpid:\t\n"), -1);
}

/* A rootless container's map as host root reads it: our uid 0 has no line, the owner is 0. */
TEST(procfs_translates_a_uid_through_a_user_namespace_map)
{
    const char *map = "         0       1000          1\n         1     100000      65536\n";
    uint32_t in = 7;
    ASSERT_EQ(clra__parse_id_map(map, 1000, &in), 1);
    ASSERT_EQ(in, 0);
    ASSERT_EQ(clra__parse_id_map(map, 100004, &in), 1);
    ASSERT_EQ(in, 5);
    ASSERT_EQ(clra__parse_id_map(map, 0, &in), 0);
    ASSERT_EQ(clra__parse_id_map(map, 165536, &in), 0); /* one past the last range */
    ASSERT_EQ(clra__parse_id_map("0 4294967295 1\n", 4294967295u, &in), 1);
    ASSERT_EQ(clra__parse_id_map("", 0, &in), 0);
}

TEST(endpoint_parses_starttime_after_last_paren)
{
    /* A comm with spaces and a ')' must not shift the fields. */
    const char *stat_text = "77 (evil) name) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 987654 1 2";
    ASSERT_EQ(clra__parse_starttime(stat_text), 987654);
    ASSERT_EQ(clra__parse_starttime("77 (x) S 1 2"), -1);
    ASSERT_EQ(clra__parse_starttime("no parens at all"), -1);
    ASSERT_EQ(clra__parse_starttime("77 (x)"), -1); /* ends right after ')': no overread */
    ASSERT_EQ(clra__parse_starttime("77 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 -5 1"), -1);
}

TEST(endpoint_reads_one_variable_from_environ_block)
{
    char block[128], out[64];
    size_t len = (size_t)snprintf(block, sizeof block, "HOME=/root%cTMPDIR=/var/tmp/x%cLANG=C", 0, 0) + 1;
    ASSERT_EQ(clra__environ_get(block, len, "TMPDIR", out, sizeof out), 1);
    ASSERT_STREQ(out, "/var/tmp/x");
    ASSERT_EQ(clra__environ_get(block, len, "TMP", out, sizeof out), 0);
    ASSERT_EQ(clra__environ_get(block, len, "LANG", out, sizeof out), 1);
    ASSERT_STREQ(out, "C");
    ASSERT_EQ(clra__environ_get(block, len, "TMPDIR", out, 4), -1);
}

TEST(endpoint_socket_names_match_only_their_pid)
{
    ASSERT(clra__socket_name_matches("dotnet-diagnostic-42-8607-socket", 42));
    ASSERT(!clra__socket_name_matches("dotnet-diagnostic-421-8607-socket", 42));
    ASSERT(!clra__socket_name_matches("dotnet-diagnostic-42--socket", 42));
    ASSERT(!clra__socket_name_matches("dotnet-diagnostic-42-86x7-socket", 42));
    ASSERT(!clra__socket_name_matches("dotnet-diagnostic-42-8607-socket.bak", 42));
}

TEST(endpoint_prefers_exact_start_time_over_newer_stale_socket)
{
    fake_proc_t fp;
    clra_endpoint_t ep;
    clra_status_t st = {0};
    fake_process_in_tmp(&fp, "NSpid:\t4242421\n", STAT_KEY_555, NULL);
    fake_socket(fp.tmp, "dotnet-diagnostic-4242421-555-socket", 100);
    fake_socket(fp.tmp, "dotnet-diagnostic-4242421-999-socket", 1);
    int rc = clra__endpoint_find_in(fp.root, FAKE_PID, &ep, &st);
    ASSERT_MSG(rc == 0, "rc %d: %s", rc, st.detail);
    ASSERT_CONTAINS(ep.path, "dotnet-diagnostic-4242421-555-socket");
    ASSERT_CONTAINS(ep.path, fp.tmp);
    fake_cleanup(&fp);
}

TEST(endpoint_takes_the_exact_key_in_a_later_directory_over_another_in_the_first)
{
    /* Its TMPDIR has a socket of its pid with another key; /tmp has the one with its key. */
    fake_proc_t fp;
    clra_endpoint_t ep;
    clra_status_t st = {0};
    fake_process_in_tmp(&fp, "NSpid:\t4242421\n", STAT_KEY_555, NULL);
    fake_socket(fp.tmp, "dotnet-diagnostic-4242421-999-socket", 1);
    unlink("/tmp/dotnet-diagnostic-4242421-555-socket");
    fake_socket("/tmp", "dotnet-diagnostic-4242421-555-socket", 100);
    int rc = clra__endpoint_find_in(fp.root, FAKE_PID, &ep, &st);
    unlink("/tmp/dotnet-diagnostic-4242421-555-socket");
    ASSERT_MSG(rc == 0, "rc %d: %s", rc, st.detail);
    ASSERT_STREQ(ep.path, "/tmp/dotnet-diagnostic-4242421-555-socket");
    fake_cleanup(&fp);
}

TEST(endpoint_takes_newest_socket_when_start_time_is_unknown)
{
    fake_proc_t fp;
    clra_endpoint_t ep;
    clra_status_t st = {0};
    fake_process_in_tmp(&fp, NULL, NULL, NULL);
    fake_socket(fp.tmp, "dotnet-diagnostic-4242421-100-socket", 300);
    fake_socket(fp.tmp, "dotnet-diagnostic-4242421-200-socket", 5);
    fake_socket(fp.tmp, "dotnet-diagnostic-4242421-300-socket", 60);
    ASSERT_EQ(clra__endpoint_find_in(fp.root, FAKE_PID, &ep, &st), 0);
    ASSERT_CONTAINS(ep.path, "-200-socket");
    fake_cleanup(&fp);
}

/* A fake process that started 10 s ago: <root>/stat's btime 1000 s ago, starttime 990 s. */
static void fake_process_started_10s_ago(fake_proc_t *fp)
{
    char stat_text[256], boot[64];
    long hz = sysconf(_SC_CLK_TCK);
    snprintf(stat_text, sizeof stat_text, "4242421 (dotnet) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 "
             "15 16 17 18 %lld 19 20\n", (long long)990 * hz);
    fake_process_in_tmp(fp, "NSpid:\t4242421\n", stat_text, NULL);
    int n = snprintf(boot, sizeof boot, "cpu 1 2 3\nbtime %lld\nprocesses 9\n",
                     (long long)time(NULL) - 1000);
    write_file(fp->root, "stat", boot, (size_t)n);
}

TEST(endpoint_ignores_a_socket_made_before_the_process_started)
{
    /* pid reuse: a SIGKILLed runtime's socket outlives it, and a new process gets its pid. */
    fake_proc_t fp;
    clra_endpoint_t ep;
    clra_status_t st = {0};
    fake_process_started_10s_ago(&fp);
    fake_socket(fp.tmp, "dotnet-diagnostic-4242421-777-socket", 100);
    int rc = clra__endpoint_find_in(fp.root, FAKE_PID, &ep, &st);
    ASSERT_MSG(rc == CLRA_ENOENDPOINT, "rc %d: %s", rc, st.detail);
    ASSERT_CONTAINS(st.detail, "earlier process with the same pid");
    fake_cleanup(&fp);
}

TEST(endpoint_takes_an_unkeyed_socket_made_after_the_process_started)
{
    fake_proc_t fp;
    clra_endpoint_t ep;
    clra_status_t st = {0};
    fake_process_started_10s_ago(&fp);
    fake_socket(fp.tmp, "dotnet-diagnostic-4242421-777-socket", 100);
    fake_socket(fp.tmp, "dotnet-diagnostic-4242421-778-socket", 3);
    int rc = clra__endpoint_find_in(fp.root, FAKE_PID, &ep, &st);
    ASSERT_MSG(rc == 0, "rc %d: %s", rc, st.detail);
    ASSERT_CONTAINS(ep.path, "-778-socket");
    fake_cleanup(&fp);
}

TEST(endpoint_ignores_regular_files_named_like_sockets)
{
    fake_proc_t fp;
    clra_endpoint_t ep;
    clra_status_t st = {0};
    fake_process_in_tmp(&fp, NULL, STAT_KEY_555, "7f00-7f01 r-xp 0 0:0 0 /usr/lib/libcoreclr.so\n");
    write_file(fp.tmp, "dotnet-diagnostic-4242421-555-socket", "x", 1);
    ASSERT_EQ(clra__endpoint_find_in(fp.root, FAKE_PID, &ep, &st), CLRA_ENOENDPOINT);
    ASSERT_CONTAINS(st.detail, fp.tmp);
    fake_cleanup(&fp);
}

TEST(endpoint_uses_pid_inside_the_targets_namespace)
{
    fake_proc_t fp;
    clra_endpoint_t ep;
    clra_status_t st = {0};
    fake_process_in_tmp(&fp, "Name:\tdotnet\nNSpid:\t4242421\t7\n", NULL, NULL);
    fake_socket(fp.tmp, "dotnet-diagnostic-4242421-1-socket", 1); /* host pid: wrong */
    fake_socket(fp.tmp, "dotnet-diagnostic-7-1-socket", 30);
    ASSERT_EQ(clra__endpoint_find_in(fp.root, FAKE_PID, &ep, &st), 0);
    ASSERT_EQ(ep.ns_pid, 7);
    ASSERT_EQ(ep.pid, FAKE_PID);
    ASSERT_CONTAINS(ep.path, "dotnet-diagnostic-7-1-socket");
    fake_cleanup(&fp);
}

TEST(endpoint_looks_through_proc_root_when_mount_namespace_differs)
{
    fake_proc_t fp;
    char path[512], link[1024];
    clra_endpoint_t ep;
    clra_status_t st = {0};
    fake_process(&fp, "NSpid:\t4242421\t9\n", NULL, "TMPDIR=/ctmp", 12, NULL);
    snprintf(link, sizeof link, "mkdir -p '%s/self/ns' '%s/%d/ns' '%s/%d/root/ctmp'", fp.root,
             fp.root, FAKE_PID, fp.root, FAKE_PID);
    ASSERT(system(link) == 0);
    snprintf(path, sizeof path, "%s/self/ns/mnt", fp.root);
    ASSERT(symlink("mnt:[4026531841]", path) == 0);
    snprintf(path, sizeof path, "%s/%d/ns/mnt", fp.root, FAKE_PID);
    ASSERT(symlink("mnt:[4026532999]", path) == 0);
    snprintf(path, sizeof path, "%s/%d/root/ctmp", fp.root, FAKE_PID);
    fake_socket(path, "dotnet-diagnostic-9-12-socket", 1);
    ASSERT_EQ(clra__endpoint_find_in(fp.root, FAKE_PID, &ep, &st), 0);
    snprintf(link, sizeof link, "%s/%d/root/ctmp/dotnet-diagnostic-9-12-socket", fp.root, FAKE_PID);
    ASSERT_STREQ(ep.path, link);
    fake_cleanup(&fp);
}

TEST(endpoint_missing_process_is_enoproc)
{
    fake_proc_t fp;
    clra_endpoint_t ep;
    clra_status_t st = {0};
    fake_process(&fp, NULL, NULL, NULL, 0, NULL);
    ASSERT_EQ(clra__endpoint_find_in(fp.root, FAKE_PID + 1, &ep, &st), CLRA_ENOPROC);
    ASSERT_EQ(clra__endpoint_find_in(fp.root, 0, &ep, &st), CLRA_EINVAL);
    fake_cleanup(&fp);
}

TEST(endpoint_process_without_coreclr_is_not_dotnet)
{
    fake_proc_t fp;
    clra_endpoint_t ep;
    clra_status_t st = {0};
    fake_process(&fp, NULL, NULL, "TMPDIR=/nonexistent", 20,
                 "5600-5700 r-xp 0 0:0 0 /usr/bin/sleep\n7f00-7f01 r-xp 0 0:0 0 /usr/lib/libc.so.6\n");
    ASSERT_EQ(clra__endpoint_find_in(fp.root, FAKE_PID, &ep, &st), CLRA_ENOTDOTNET);
    ASSERT_CONTAINS(st.detail, "not a .NET process");
    fake_cleanup(&fp);
}

TEST(endpoint_runtime_late_in_a_huge_maps_file_is_still_dotnet)
{
    fake_proc_t fp;
    clra_endpoint_t ep;
    clra_status_t st = {0};
    size_t cap = 40000 * 80 + 128, used = 0; /* about 2.8 MiB, past any fixed buffer */
    char *maps = malloc(cap);
    for (size_t i = 0; i < 40000; i++)
        used += (size_t)snprintf(maps + used, cap - used,
                                 "%012zx-%012zx r--p 0 0:0 0 /usr/lib/libfiller%08zu.so\n", i, i + 1, i);
    snprintf(maps + used, cap - used, "7f00-7f01 r-xp 0 0:0 0 /usr/share/dotnet/libcoreclr.so\n");
    fake_process(&fp, NULL, NULL, "TMPDIR=/nonexistent", 20, maps);
    free(maps);
    ASSERT_EQ(clra__endpoint_find_in(fp.root, FAKE_PID, &ep, &st), CLRA_ENOENDPOINT);
    fake_cleanup(&fp);
}

TEST(endpoint_disabled_diagnostics_is_named_as_the_cause)
{
    fake_proc_t fp;
    clra_endpoint_t ep;
    clra_status_t st = {0};
    static const char env[] = "TMPDIR=/nonexistent\0DOTNET_EnableDiagnostics=0";
    fake_process(&fp, NULL, NULL, env, sizeof env, "7f00-7f01 r-xp 0 0:0 0 /x/libcoreclr.so\n");
    ASSERT_EQ(clra__endpoint_find_in(fp.root, FAKE_PID, &ep, &st), CLRA_ENOENDPOINT);
    ASSERT_CONTAINS(st.detail, "DOTNET_EnableDiagnostics=0");
    fake_cleanup(&fp);
}

TEST(socket_target_rejects_overlong_paths)
{
    clra__endpoint_t ep;
    clra__deadline_t d = clra__deadline_in(1000);
    char *longp = malloc(CLRA_PATH_MAX + 8);
    memset(longp, 'a', CLRA_PATH_MAX + 7);
    longp[CLRA_PATH_MAX + 7] = '\0';
    clra_target_t t = clra_target_socket(longp);
    ASSERT_EQ(clra__target_resolve(&t, &d, &ep, NULL), CLRA_EINVAL);
    t = clra_target_socket("/tmp/x");
    ASSERT_EQ(clra__target_resolve(&t, &d, &ep, NULL), 0);
    ASSERT_STREQ(ep.at.path, "/tmp/x");
    free(longp);
}
