/* `clrattach dump` against a real .NET 10 process: the files are complete ELF core dumps of that
 * process, failures carry createdump's own text, and the process carries on. Dumps are deleted
 * as soon as they are checked; no full dump is taken (it is as big as the process). */
#define _GNU_SOURCE
#include "elfcore.h"
#include "harness.h"
#include "test.h"

#include <poll.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* One line of the app's stdout within timeout_ms (static buffer). */
static const char *app_line(app_t *a, int timeout_ms)
{
    static char line[1024];
    size_t n = 0;
    while (n + 1 < sizeof line) {
        struct pollfd p = {a->from_app, POLLIN, 0};
        ASSERT_MSG(poll(&p, 1, timeout_ms) == 1, "the app wrote no line within %d ms", timeout_ms);
        ASSERT(read(a->from_app, line + n, 1) == 1);
        if (line[n] == '\n')
            break;
        n++;
    }
    line[n] = '\0';
    return line;
}

/* createdump runs as a child of the target and inherits its stdout: its "[createdump] ..."
 * lines come before the app's own answer, so they are read past here. */
static int ping_past_createdump(app_t *a)
{
    int skipped = 0;
    ASSERT(write(a->to_app, "ping\n", 5) == 5);
    for (;;) {
        const char *line = app_line(a, 5000);
        if (strcmp(line, "pong") == 0)
            return skipped;
        ASSERT_MSG(strncmp(line, "[createdump] ", 13) == 0, "unexpected app output: %s", line);
        skipped++;
    }
}

/* No libasan in the target even in the sanitizer build: dumps load none of our code into it,
 * and createdump --withheap would crawl ASan's terabytes of shadow mappings for many minutes. */
static const char *const plain_env[] = {"LD_PRELOAD=", NULL};

/* A dump that hangs fails well inside ctest's 120 s. */
#define TIMEOUT "--timeout", "60000"

static long long file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}

/* Checks path is a complete core of the app, then deletes it. */
static void check_core_and_delete(app_t *a, const char *path)
{
    elfcore_info_t info;
    int rc = elfcore_check(path, a->pid, &info);
    test_note("%s: %lld bytes, %d PT_LOAD, %d PT_NOTE, %d threads", path, info.file_size,
              info.load_segments, info.note_segments, info.prstatus);
    unlink(path);
    ASSERT_MSG(rc == 0, "%s is not a valid core dump: %s", path, info.error);
    ASSERT_MSG(info.prstatus >= 3, "only %d threads in the dump of a .NET process", info.prstatus);
    ASSERT_MSG(info.pid_thread_seen, "no NT_PRSTATUS for the main thread (tid %d)", (int)a->pid);
}

/* The value of "key": in a one-line JSON object, as text up to the next ',' or '}'. */
static const char *json_field(const char *json, const char *key, char *out, size_t cap)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *p = strstr(json, pattern);
    ASSERT_MSG(p != NULL, "no %s in %s", key, json);
    p += strlen(pattern);
    size_t n = strcspn(p, ",}");
    snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), p);
    return out;
}

TEST(dump_normal_is_a_valid_core_of_the_target_and_it_keeps_running)
{
    app_t a;
    char path[400], expect[600];
    const char *out;
    app_start(&a, plain_env);
    snprintf(path, sizeof path, "%s/normal.core", a.dir);
    int rc = run_cli(&out, "dump", app_pid_text(&a), TIMEOUT, "--type", "normal", "--output",
                     path, NULL);
    ASSERT_MSG(rc == 0, "exit %d: %s", rc, out);
    snprintf(expect, sizeof expect, "wrote a normal dump of process %d to %s (", (int)a.pid, path);
    ASSERT_CONTAINS(out, expect);
    ASSERT_CONTAINS(out, " MiB) in ");
    check_core_and_delete(&a, path);
    ASSERT_MSG(ping_past_createdump(&a) > 0, "createdump said nothing on the app's stdout");
    app_stop(&a);
}

TEST(dump_heap_is_a_valid_core_and_json_reports_its_true_size)
{
    app_t a;
    char path[400], v[64];
    const char *out;
    app_start(&a, plain_env);
    ASSERT_STREQ(app_command(&a, "keep 2000", 5000), "kept 2000 len=7777"); /* ~15 MiB of heap */
    snprintf(path, sizeof path, "%s/heap.core", a.dir);
    int rc = run_cli(&out, "dump", app_pid_text(&a), TIMEOUT, "--type", "heap", "--output", path,
                     "--json", NULL);
    ASSERT_MSG(rc == 0, "exit %d: %s", rc, out);
    ASSERT_STREQ(json_field(out, "ok", v, sizeof v), "true");
    ASSERT_STREQ(json_field(out, "type", v, sizeof v), "\"heap\"");
    ASSERT_STREQ(json_field(out, "command", v, sizeof v), "3");
    ASSERT_STREQ(json_field(out, "verified", v, sizeof v), "true");
    long long size = atoll(json_field(out, "size_bytes", v, sizeof v));
    ASSERT_EQ(size, file_size(path));
    ASSERT_MSG(size > 15 << 20, "a heap dump of %lld bytes cannot hold the 15 MiB kept", size);
    check_core_and_delete(&a, path);
    ping_past_createdump(&a);
    app_stop(&a);
}

TEST(dump_default_path_is_core_time_pid_in_the_current_directory)
{
    app_t a;
    char cwd[512], prefix[400], suffix[32], v[512];
    const char *out;
    app_start(&a, plain_env);
    ASSERT(getcwd(cwd, sizeof cwd) != NULL);
    ASSERT_EQ(chdir(a.dir), 0);
    int rc = run_cli(&out, "dump", app_pid_text(&a), TIMEOUT, "--type", "normal", "--json", NULL);
    ASSERT_EQ(chdir(cwd), 0);
    ASSERT_MSG(rc == 0, "exit %d: %s", rc, out);
    json_field(out, "path", v, sizeof v);
    snprintf(prefix, sizeof prefix, "\"%s/core_", a.dir);
    snprintf(suffix, sizeof suffix, "_%d\"", (int)a.pid);
    ASSERT_MSG(strncmp(v, prefix, strlen(prefix)) == 0, "path %s is not under %s", v, a.dir);
    ASSERT_MSG(strlen(v) == strlen(prefix) + 15 + strlen(suffix), "no yyyymmdd_hhmmss in %s", v);
    ASSERT_STREQ(v + strlen(v) - strlen(suffix), suffix);
    v[strlen(v) - 1] = '\0';
    check_core_and_delete(&a, v + 1);
    ping_past_createdump(&a);
    app_stop(&a);
}

/* Drops the spaces before each ':' in place, so both runtimes' JSON layouts read the same. */
static void squeeze_before_colons(char *text)
{
    char *out = text;
    for (const char *in = text; *in; in++) {
        if (*in == ' ' && (in[1] == ' ' || in[1] == ':')) {
            const char *next = in;
            while (*next == ' ')
                next++;
            if (*next == ':')
                continue;
        }
        *out++ = *in;
    }
    *out = '\0';
}

TEST(dump_crash_report_is_written_next_to_the_dump)
{
    app_t a;
    char path[300], report[350], quoted[400], tid[64], v[512];
    const char *out;
    app_start(&a, plain_env);
    snprintf(path, sizeof path, "%s/cr.core", a.dir);
    snprintf(report, sizeof report, "%s.crashreport.json", path);
    int rc = run_cli(&out, "dump", app_pid_text(&a), TIMEOUT, "--type", "normal", "--crash-report",
                     "--output", path, "--json", NULL);
    ASSERT_MSG(rc == 0, "exit %d: %s", rc, out);
    ASSERT_STREQ(json_field(out, "flags_sent", v, sizeof v), "4");
    snprintf(quoted, sizeof quoted, "\"%s\"", report);
    ASSERT_STREQ(json_field(out, "crash_report", v, sizeof v), quoted);
    FILE *f = fopen(report, "r");
    ASSERT(f != NULL);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    unlink(report);
    squeeze_before_colons(text); /* 8.0 writes "key" : value, 9+ "key": value */
    ASSERT_CONTAINS(text, "\"process_name\": \"sample.dll\"");
    snprintf(tid, sizeof tid, "\"native_thread_id\": \"0x%x\"", (unsigned)a.pid);
    ASSERT_CONTAINS(text, tid);
    check_core_and_delete(&a, path);
    ping_past_createdump(&a);
    app_stop(&a);
}

TEST(dump_to_a_missing_directory_fails_with_createdumps_text_and_exit_10)
{
    app_t a;
    char path[300], quoted[400];
    const char *out;
    app_start(&a, plain_env);
    snprintf(path, sizeof path, "%s/no/such/dir/x.core", a.dir);
    int rc = run_cli(&out, "dump", app_pid_text(&a), TIMEOUT, "--type", "normal", "--output",
                     path, NULL);
    ASSERT_MSG(rc == 10, "exit %d: %s", rc, out);
    snprintf(quoted, sizeof quoted, "Could not create output file '%s': No such file or directory",
             path);
    ASSERT_CONTAINS(out, "could not write the dump");
    ASSERT_CONTAINS(out, "E_FAIL (0x80004005)");
    ASSERT_CONTAINS(out, "createdump said:");
    ASSERT_CONTAINS(out, quoted);
    ASSERT_CONTAINS(out, "/no/such/dir does not exist; create it or pick another --output");
    ASSERT_MSG(!strstr(out, "wrote"), "a dump is claimed: %s", out);
    ASSERT_EQ(file_size(path), -1);
    ping_past_createdump(&a);
    app_stop(&a);
}

TEST(dump_json_failure_carries_hresult_and_createdump_message)
{
    app_t a;
    char v[1024];
    const char *out;
    app_start(&a, plain_env);
    int rc = run_cli(&out, "dump", app_pid_text(&a), TIMEOUT, "--type", "normal", "--output",
                     "/proc/clra-cannot-be-created.core", "--json", NULL);
    ASSERT_MSG(rc == 10, "exit %d: %s", rc, out);
    ASSERT_STREQ(json_field(out, "ok", v, sizeof v), "false");
    ASSERT_STREQ(json_field(out, "exit_code", v, sizeof v), "10");
    ASSERT_STREQ(json_field(out, "hresult", v, sizeof v), "\"0x80004005\"");
    ASSERT_CONTAINS(json_field(out, "createdump_message", v, sizeof v),
                    "[createdump] Could not create output file");
    ASSERT_CONTAINS(json_field(out, "detail", v, sizeof v), "GenerateCoreDump3 failed: Could not");
    ping_past_createdump(&a);
    app_stop(&a);
}

TEST(dump_of_a_process_that_is_not_dotnet_fails_before_any_dump)
{
    const char *out;
    char pid[16];
    snprintf(pid, sizeof pid, "%d", (int)getpid());
    int rc = run_cli(&out, "dump", pid, "--output", "/tmp/clra-never.core", NULL);
    ASSERT_MSG(rc == 4, "exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "not a .NET process");
    ASSERT_EQ(file_size("/tmp/clra-never.core"), -1);
}
