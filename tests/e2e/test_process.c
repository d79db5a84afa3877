/* End-to-end: env, setenv, resume and perfmap against a real .NET process, each result checked
 * against what the process itself reports or writes. */
#define _GNU_SOURCE
#include "clrattach.h"
#include "harness.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

TEST(env_reads_a_startup_variable_and_one_the_app_set_itself)
{
    app_t a;
    const char *out;
    static const char *const env[] = {"CLRA_E2E_AT_START=a=b;c", NULL};
    app_start(&a, env);
    ASSERT_STREQ(app_command(&a, "setenv CLRA_E2E_BY_APP v1 = v2", 5000),
                 "setenv-done CLRA_E2E_BY_APP");
    ASSERT_EQ(run_cli(&out, "env", app_pid_text(&a), NULL), 0);
    ASSERT_CONTAINS(out, "\nCLRA_E2E_AT_START=a=b;c\n");
    ASSERT_CONTAINS(out, "\nCLRA_E2E_BY_APP=v1 = v2\n");
    ASSERT_EQ(run_cli(&out, "env", "--json", app_pid_text(&a), NULL), 0);
    ASSERT_CONTAINS(out, "\"CLRA_E2E_AT_START\":\"a=b;c\"");
    ASSERT_CONTAINS(out, "\"ok\":true");
    app_stop(&a);
}

TEST(setenv_value_with_equals_and_semicolon_is_seen_by_the_app_and_read_back)
{
    app_t a;
    const char *out;
    app_start(&a, NULL);
    ASSERT_EQ(run_cli(&out, "setenv", app_pid_text(&a), "CLRA_E2E_SET", "x=y;z=;", NULL), 0);
    ASSERT_CONTAINS(out, "set CLRA_E2E_SET");
    ASSERT_STREQ(app_command(&a, "env CLRA_E2E_SET", 5000), "env CLRA_E2E_SET=x=y;z=;");
    ASSERT_EQ(run_cli(&out, "env", app_pid_text(&a), NULL), 0);
    ASSERT_CONTAINS(out, "\nCLRA_E2E_SET=x=y;z=;\n");
    /* Without a value the variable goes away, for the app and for env. */
    ASSERT_EQ(run_cli(&out, "setenv", "--json", app_pid_text(&a), "CLRA_E2E_SET", NULL), 0);
    ASSERT_CONTAINS(out, "\"value\":null");
    ASSERT_STREQ(app_command(&a, "env CLRA_E2E_SET", 5000), "env CLRA_E2E_SET=");
    ASSERT_EQ(run_cli(&out, "env", app_pid_text(&a), NULL), 0);
    ASSERT(strstr(out, "CLRA_E2E_SET") == NULL);
    app_stop(&a);
}

TEST(setenv_refuses_a_name_with_equals_before_contacting_the_process)
{
    app_t a;
    const char *out;
    app_start(&a, NULL);
    ASSERT_EQ(run_cli(&out, "setenv", app_pid_text(&a), "A=B", "v", NULL), 2);
    ASSERT_CONTAINS(out, "contain no '='");
    ASSERT_STREQ(app_command(&a, "env A", 5000), "env A=");
    app_stop(&a);
}

/* Waits until the paused runtime has created its socket (it does so before pausing). */
static void wait_for_endpoint(app_t *a)
{
    clra_endpoint_t ep;
    clra_status_t st;
    for (int i = 0; i < 300; i++) {
        if (clra_endpoint_find(a->pid, &ep, &st) == 0)
            return;
        usleep(100000);
    }
    test_fail(__FILE__, __LINE__, "no diagnostics socket for the paused app after 30 s: %s",
              st.detail);
}

TEST(resume_lets_a_runtime_paused_at_startup_run_and_attach_says_why_it_must_wait)
{
    app_t a;
    const char *out;
    static const char *const env[] = {"DOTNET_DefaultDiagnosticPortSuspend=1", NULL};
    app_spawn(&a, env);
    wait_for_endpoint(&a);
    ASSERT_MSG(app_wait_ready(&a, 1500) != 0, "the app ran although its runtime should be paused");
    ASSERT_EQ(run_cli(&out, "attach", app_pid_text(&a), profiler_path("hello"), NULL), 10);
    ASSERT_CONTAINS(out, "DS_IPC_E_NOT_YET_AVAILABLE");
    ASSERT_CONTAINS(out, "'clrattach resume PID'");
    ASSERT_CONTAINS(out, "'clrattach launch --profiler PATH -- COMMAND'");
    ASSERT_EQ(run_cli(&out, "resume", app_pid_text(&a), NULL), 0);
    ASSERT_CONTAINS(out, "resumed process");
    ASSERT_MSG(app_wait_ready(&a, 30000) == 0, "the app did not start within 30 s of resume");
    app_assert_responsive(&a);
    /* Once running, resume is a harmless no-op. */
    ASSERT_EQ(run_cli(&out, "resume", "--json", app_pid_text(&a), NULL), 0);
    ASSERT_CONTAINS(out, "\"ok\":true");
    app_stop(&a);
}

static long long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}

/* Whether the file contains text. */
static int file_contains(const char *path, const char *text)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    int found = 0;
    while (f && !found && fgets(line, sizeof line, f))
        found = strstr(line, text) != NULL;
    if (f)
        fclose(f);
    return found;
}

TEST(perfmap_files_appear_grow_with_new_methods_and_stop_when_disabled)
{
    app_t a;
    const char *out;
    char map[64];
    app_start(&a, NULL);
    snprintf(map, sizeof map, "/tmp/perf-%d.map", a.pid);
    ASSERT_EQ(file_size(map), -1);
    ASSERT_EQ(run_cli(&out, "perfmap", app_pid_text(&a), "enable", "--type", "perfmap", NULL), 0);
    ASSERT_CONTAINS(out, map);
    long long before = file_size(map);
    ASSERT_MSG(before >= 0, "%s was not created", map);
    ASSERT(!file_contains(map, "ClrAttach.Sample.Fresh::M2"));
    ASSERT_STREQ(app_command(&a, "jit 4", 30000), "jit-done 6");
    long long grown = file_size(map);
    ASSERT_MSG(grown > before, "perf map did not grow: %lld -> %lld bytes", before, grown);
    ASSERT_MSG(file_contains(map, "ClrAttach.Sample.Fresh::M2"), "M2 missing from %s", map);
    ASSERT_EQ(run_cli(&out, "perfmap", app_pid_text(&a), "disable", NULL), 0);
    ASSERT_CONTAINS(app_command(&a, "jit 8", 30000), "jit-done");
    ASSERT(!file_contains(map, "ClrAttach.Sample.Fresh::M6"));
    app_stop(&a);
    unlink(map);
}

TEST(perfmap_jitdump_writes_a_jitdump_file_with_its_magic)
{
    app_t a;
    const char *out;
    char dump[64], map[64];
    unsigned char magic[4] = {0};
    app_start(&a, NULL);
    snprintf(dump, sizeof dump, "/tmp/jit-%d.dump", a.pid);
    snprintf(map, sizeof map, "/tmp/perf-%d.map", a.pid);
    ASSERT_EQ(run_cli(&out, "perfmap", "--json", app_pid_text(&a), "enable", "--type", "jitdump",
                      NULL), 0);
    ASSERT_CONTAINS(out, "\"enabled\":true");
    ASSERT_CONTAINS(out, dump);
    FILE *f = fopen(dump, "rb");
    ASSERT_MSG(f != NULL, "%s was not created", dump);
    ASSERT_EQ(fread(magic, 1, 4, f), 4u);
    fclose(f);
    ASSERT_MEMEQ(magic, "DTiJ", 4); /* 0x4A695444 little-endian: the jitdump header magic */
    ASSERT_EQ(file_size(map), -1);  /* jitdump only: no perf map */
    ASSERT_EQ(run_cli(&out, "perfmap", app_pid_text(&a), "enable", "--type", "bogus", NULL), 2);
    ASSERT_CONTAINS(out, "--type is all, jitdump or perfmap");
    app_stop(&a);
    unlink(dump);
}

/* Splits text into sorted lines (modifies text). Returns the count. */
static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static size_t sorted_lines(char *text, char **lines, size_t max)
{
    size_t n = 0;
    for (char *save, *line = strtok_r(text, "\n", &save); line && n < max;
         line = strtok_r(NULL, "\n", &save))
        lines[n++] = line;
    qsort(lines, n, sizeof *lines, cmp_str);
    return n;
}

TEST(env_matches_the_official_managed_client_entry_for_entry)
{
    app_t a;
    const char *out;
    static const char *const env[] = {"CLRA_E2E_CROSS=__VAL=;--3", NULL};
    static char *ours_lines[512], *theirs_lines[512];
    app_start(&a, env);
    ASSERT_EQ(run_cli(&out, "setenv", app_pid_text(&a), "CLRA_E2E_LATER", "p;q=r", NULL), 0);
    ASSERT_EQ(run_cli(&out, "env", app_pid_text(&a), NULL), 0);
    char *ours = strdup(out);
    int rc = run_crosscheck(&out, "env", &a);
    ASSERT_MSG(rc == 0, "the managed client failed (%d):\n%s", rc, out);
    char *theirs = strdup(out);
    size_t n_ours = sorted_lines(ours, ours_lines, 512);
    size_t n_theirs = sorted_lines(theirs, theirs_lines, 512);
    test_note("clrattach: %zu variables, managed client: %zu", n_ours, n_theirs);
    ASSERT(n_ours > 5);
    ASSERT_EQ(n_ours, n_theirs);
    for (size_t i = 0; i < n_ours; i++)
        ASSERT_STREQ(ours_lines[i], theirs_lines[i]);
    ASSERT(bsearch(&(const char *){"CLRA_E2E_CROSS=__VAL=;--3"}, ours_lines, n_ours,
                   sizeof *ours_lines, cmp_str) != NULL);
    ASSERT(bsearch(&(const char *){"CLRA_E2E_LATER=p;q=r"}, ours_lines, n_ours,
                   sizeof *ours_lines, cmp_str) != NULL);
    free(ours);
    free(theirs);
    app_stop(&a);
}
