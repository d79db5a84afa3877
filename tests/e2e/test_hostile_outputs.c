/* test_hostile_outputs.c - every file root's clrattach writes, against links and files another
 * user (NOBODY) planted where it writes (issue 29, finding 2): the --format files of trace and
 * launch, convert's and counters' --output, a directory on the way replaced by a link, and a
 * link swapped in and out while trace opens its output. */
#define _GNU_SOURCE
#include "harness.h"
#include "hostile.h"
#include "test.h"
#include "trace_counts.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SAMPLES_PROVIDER "Microsoft-DotNETCore-SampleProfiler"
#define RACE_TRIES 400

/* Removes what a test made in a directory of NOBODY's (names, then the directory). */
static void clean_dir(const char *dir, const char *const *names)
{
    char path[256];
    for (; *names; names++) {
        snprintf(path, sizeof path, "%s/%s", dir, *names);
        unlink(path);
    }
    rmdir(dir);
}

TEST(trace_format_files_never_follow_a_link_planted_by_another_user)
{
    app_t a;
    const char *out;
    char secret[64], link[400], trace[400];
    need_root();
    app_options_t o = {.private_tmpdir = 1, .user = NOBODY};
    app_start_with(&a, &o);
    make_secret(secret, "root only\n");
    snprintf(trace, sizeof trace, "%s/cpu.nettrace", a.dir); /* a.dir: nobody's */
    snprintf(link, sizeof link, "%s/cpu.folded", a.dir);
    as_nobody(plant_link, secret, link);
    ASSERT_STREQ(app_command(&a, "spin 500", 10000), "spun 500");
    int rc = run_cli(&out, "trace", "--providers", SAMPLES_PROVIDER, "--duration", "1",
                     "--format", "folded", "--output", trace, app_pid_text(&a), NULL);
    app_stop(&a);
    ASSERT_STREQ(file_text(secret), "root only\n");
    unlink(secret);
    ASSERT_MSG(rc != 0, "exit 0: %s", out);
    ASSERT_CONTAINS(out, "is a symbolic link owned by uid 65534");
}

TEST(launch_format_files_never_follow_a_link_planted_by_another_user)
{
    const char *out;
    char secret[64], dir[64], trace[96], link[96];
    need_root();
    make_nobodys_dir(dir);
    make_secret(secret, "root only\n");
    snprintf(trace, sizeof trace, "%s/launch.nettrace", dir);
    snprintf(link, sizeof link, "%s/launch.folded", dir);
    as_nobody(plant_link, secret, link);
    int rc = run_cli(&out, "launch", "--trace", SAMPLES_PROVIDER, "--trace-output", trace,
                     "--format", "folded", "--", CLRA_DOTNET, CLRA_SAMPLE_DLL, "--seconds", "1",
                     NULL);
    ASSERT_STREQ(file_text(secret), "root only\n");
    unlink(secret);
    clean_dir(dir, (const char *const[]){"launch.nettrace", "launch.folded", NULL});
    ASSERT_MSG(rc != 0, "exit 0: %s", out);
    ASSERT_CONTAINS(out, "is a symbolic link owned by uid 65534");
    ASSERT_CONTAINS(out, "pick another path with --trace-output");
}

TEST(convert_output_never_follows_a_link_planted_by_another_user)
{
    const char *out;
    char secret[64], dir[64], link[96];
    need_root();
    make_nobodys_dir(dir);
    make_secret(secret, "root only\n");
    snprintf(link, sizeof link, "%s/trace.jsonl", dir);
    as_nobody(plant_link, secret, link);
    /* Any readable input: the output is opened before the input is decoded. */
    int rc = run_cli(&out, "convert", "--output", link, CLRA_SAMPLE_DLL, NULL);
    ASSERT_STREQ(file_text(secret), "root only\n");
    unlink(secret);
    clean_dir(dir, (const char *const[]){"trace.jsonl", NULL});
    ASSERT_MSG(rc == 1, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "is a symbolic link owned by uid 65534");
}

TEST(counters_output_never_follows_a_link_planted_by_the_targets_user)
{
    app_t a;
    const char *out;
    char secret[64], link[400];
    need_root();
    app_options_t o = {.private_tmpdir = 1, .user = NOBODY};
    app_start_with(&a, &o);
    make_secret(secret, "root only\n");
    snprintf(link, sizeof link, "%s/counters.csv", a.dir);
    as_nobody(plant_link, secret, link);
    int rc = run_cli(&out, "counters", "--format", "csv", "--duration", "1", "--output", link,
                     app_pid_text(&a), NULL);
    app_stop(&a);
    ASSERT_STREQ(file_text(secret), "root only\n");
    unlink(secret);
    ASSERT_MSG(rc == 1, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "is a symbolic link owned by uid 65534");
}

TEST(counters_output_of_a_missing_pid_is_neither_made_nor_emptied)
{
    const char *out;
    char kept[64], fresh[96];
    make_secret(kept, "an earlier run's counters\n");
    snprintf(fresh, sizeof fresh, "%s-new.csv", kept);
    int rc = run_cli(&out, "counters", "--output", kept, "--duration", "1", "2147483646", NULL);
    ASSERT_MSG(rc == 3, "exit %d: %s", rc, out);
    ASSERT_STREQ(file_text(kept), "an earlier run's counters\n");
    rc = run_cli(&out, "counters", "--output", fresh, "--duration", "1", "2147483646", NULL);
    ASSERT_MSG(rc == 3, "exit %d: %s", rc, out);
    ASSERT_MSG(access(fresh, F_OK) != 0, "%s was made for a process that does not exist", fresh);
    unlink(kept);
}

/* nobody's directory holds a link "sub" to a directory of root's whose file would be replaced. */
TEST(trace_output_never_follows_a_directory_link_planted_by_another_user)
{
    app_t a;
    const char *out;
    char root_dir[] = "/tmp/clra-e2e-rootdir-XXXXXX", victim[96], link[400], path[420];
    need_root();
    ASSERT(mkdtemp(root_dir) != NULL);
    snprintf(victim, sizeof victim, "%s/x.nettrace", root_dir);
    ASSERT_EQ(plant_file(victim, "root's own trace\n"), 0);
    app_options_t o = {.private_tmpdir = 1, .user = NOBODY};
    app_start_with(&a, &o);
    snprintf(link, sizeof link, "%s/sub", a.dir);
    as_nobody(plant_link, root_dir, link);
    snprintf(path, sizeof path, "%s/x.nettrace", link);
    int rc = run_cli(&out, "trace", "--providers", SAMPLE_PROVIDER, "--duration", "1",
                     "--output", path, app_pid_text(&a), NULL);
    app_stop(&a);
    char left[64];
    snprintf(left, sizeof left, "%s", file_text(victim));
    unlink(victim);
    rmdir(root_dir);
    ASSERT_STREQ(left, "root's own trace\n");
    ASSERT_MSG(rc == 2, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "'sub' is a symbolic link owned by uid 65534");
}

/* As nobody, forever (until killed): the name swaps between nobody's own file and a link to
 * the victim, each by one rename, so whoever checks the name and then opens it may be fooled. */
static int swap_forever(const char *dir, const char *victim)
{
    char name[128], file[128], link[128];
    snprintf(name, sizeof name, "%s/x.nettrace", dir);
    snprintf(file, sizeof file, "%s/file", dir);
    snprintf(link, sizeof link, "%s/link", dir);
    for (;;) {
        int fd = open(file, O_WRONLY | O_CREAT, 0644);
        if (fd >= 0)
            close(fd);
        rename(file, name);
        if (symlink(victim, link) == 0)
            rename(link, name);
    }
    return 0;
}

/* The race the probe won 2 times in 400 against the checked open of trace's output. Each try
 * asks for CollectTracing6 (--buffering-mode block), which .NET 10 refuses at once, after the
 * output was opened: a try costs milliseconds, not a recording. */
TEST(trace_output_race_with_a_swapped_link_never_empties_a_root_file)
{
    app_t a;
    const char *out;
    char secret[64], dir[64], name[96];
    need_root();
    app_start(&a, NULL);
    make_nobodys_dir(dir);
    make_secret(secret, "root only\n");
    snprintf(name, sizeof name, "%s/x.nettrace", dir);
    pid_t swapper = fork();
    ASSERT(swapper >= 0);
    if (swapper == 0) {
        if (setgid(NOBODY) != 0 || setuid(NOBODY) != 0)
            _exit(90);
        _exit(swap_forever(dir, secret));
    }
    int emptied = 0, started = 0;
    for (int tries = 0; tries < RACE_TRIES && !started; tries++) {
        int rc = run_cli(&out, "trace", "--buffering-mode", "block", "--providers",
                         SAMPLE_PROVIDER, "--duration", "1", "--output", name, app_pid_text(&a),
                         NULL);
        started = rc == 0;
        if (strcmp(file_text(secret), "root only\n") == 0)
            continue;
        emptied++;
        unlink(secret); /* restored for the next try */
        ASSERT_EQ(plant_file(secret, "root only\n"), 0);
    }
    kill(swapper, SIGKILL);
    waitpid(swapper, NULL, 0);
    app_stop(&a);
    unlink(secret);
    clean_dir(dir, (const char *const[]){"x.nettrace", "file", "link", NULL});
    if (started && !emptied)
        SKIP("this runtime knows CollectTracing6: the tries would record for real");
    ASSERT_MSG(!emptied, "root's file was emptied in %d of %d tries", emptied, RACE_TRIES);
}
