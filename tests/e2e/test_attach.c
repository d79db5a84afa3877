/* End-to-end: attach real profilers built here to a real .NET process started by the test, and
 * check what the profiler recorded inside the process, not only the command's exit code. */
#define _GNU_SOURCE
#include "clrattach.h"
#include "harness.h"
#include "test.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define REFUSED 10 /* clrattach's exit code for a runtime refusal */

/* Attaches hello with text client data and fails the test unless the command succeeds. */
static void attach_hello(app_t *a, const char *data)
{
    const char *out;
    int rc = run_cli(&out, "attach", "--data", data, app_pid_text(a), profiler_path("hello"), NULL);
    ASSERT_MSG(rc == 0, "attach failed with exit code %d:\n%s", rc, out);
    ASSERT_CONTAINS(out, "attached");
}

/* Attaches the refuse test profiler with client data; returns the exit code, output in *out. */
static int attach_refuse(app_t *a, const char *json, const char *data, const char **out)
{
    if (json)
        return run_cli(out, "attach", json, "--clsid", "DE0204DD-4001-43A4-80E1-78A9D2F3B99F",
                       "--data", data, app_pid_text(a), profiler_path("refuse"), NULL);
    return run_cli(out, "attach", "--clsid", "DE0204DD-4001-43A4-80E1-78A9D2F3B99F", "--data",
                   data, app_pid_text(a), profiler_path("refuse"), NULL);
}

/* Hex of bytes, to compare with the client_data line the profiler writes. */
static char *hex_of(const unsigned char *p, size_t n)
{
    char *hex = malloc(2 * n + 1);
    for (size_t i = 0; i < n; i++)
        snprintf(hex + 2 * i, 3, "%02x", p[i]);
    hex[2 * n] = '\0';
    return hex;
}

/* Attaches hello with client data from a file and checks every byte arrived as sent. */
static void check_client_data_arrives_exactly(const unsigned char *data, size_t len)
{
    app_t a;
    const char *out;
    char file[300], want[64];
    app_start(&a, NULL);
    snprintf(file, sizeof file, "%s/client.bin", a.dir);
    FILE *f = fopen(file, "wb");
    ASSERT(f && fwrite(data, 1, len, f) == len);
    fclose(f);
    int rc = run_cli(&out, "attach", "--data-file", file, app_pid_text(&a), profiler_path("hello"), NULL);
    ASSERT_MSG(rc == 0, "attach failed (%d): %s", rc, out);
    const char *log = app_wait_log(&a, "ProfilerAttachComplete", 10000);
    snprintf(want, sizeof want, "client_data bytes=%zu hex=", len);
    const char *line = strstr(log, want);
    ASSERT_MSG(line != NULL, "no '%s' in the record:\n%.2000s", want, log);
    char *hex = hex_of(data, len);
    ASSERT_MSG(strncmp(line + strlen(want), hex, 2 * len) == 0 && strchr(" \n", line[strlen(want) + 2 * len]),
               "the profiler received different bytes than were sent (%zu bytes)", len);
    free(hex);
    app_assert_responsive(&a);
    app_stop(&a);
}

TEST(attach_hello_records_runtime_and_catches_up_on_loaded_modules)
{
    app_t a;
    char version[64];
    app_start(&a, NULL);
    snprintf(version, sizeof version, "string=%s", app_command(&a, "version", 5000) + 8);
    attach_hello(&a, "greeting=hi");
    const char *log = app_wait_log(&a, "ProfilerAttachComplete", 10000);
    ASSERT_CONTAINS(log, "InitializeForAttach");
    ASSERT_CONTAINS(log, "runtime type=CoreCLR");
    ASSERT_CONTAINS(log, version);
    ASSERT_CONTAINS(log, "event_mask 0x00000244 hr=0x00000000");
    int modules = atoi(strstr(log, "modules_already_loaded=") + 23);
    ASSERT_MSG(modules >= 3, "only %d modules counted as already loaded", modules);
    ASSERT(app_maps_contains(&a, "libhello_profiler.so"));
    app_assert_responsive(&a);
    app_stop(&a);
}

TEST(attach_hello_sees_module_loads_after_attach)
{
    app_t a;
    app_start(&a, NULL);
    attach_hello(&a, "");
    app_wait_log(&a, "ProfilerAttachComplete", 10000);
    ASSERT_EQ(app_log_count(&a, "ModuleLoadFinished"), 0);
    ASSERT_CONTAINS(app_command(&a, "load", 10000), "loaded");
    app_wait_log(&a, "ModuleLoadFinished n=1 ", 5000);
    app_wait_log(&a, "name=System.Private.Xml.Linq.dll hr=0x00000000", 5000);
    app_assert_responsive(&a);
    app_stop(&a);
}

TEST(attach_then_self_detach_unloads_library_and_reattach_works)
{
    app_t a;
    app_start(&a, NULL);
    attach_hello(&a, "detach_after_ms=100");
    const char *log = app_wait_log(&a, "ProfilerDetachSucceeded", 20000);
    ASSERT_CONTAINS(log, "detach requested (detach_after_ms elapsed): hr=0x00000000 expected_ms=300");
    app_wait_unmapped(&a, "libhello_profiler.so", 10000);
    app_wait_log(&a, "clrprof: library unloaded", 2000);
    ASSERT_EQ(app_log_count(&a, "InitializeForAttach"), 1);
    /* A second attach once the first has fully detached is accepted. */
    attach_hello(&a, "detach_after_ms=100");
    app_wait_log(&a, "ProfilerAttachComplete", 10000);
    ASSERT_EQ(app_log_count(&a, "InitializeForAttach"), 2);
    ASSERT(app_maps_contains(&a, "libhello_profiler.so"));
    app_assert_responsive(&a);
    app_stop(&a);
}

TEST(client_data_empty_arrives_exactly)
{
    check_client_data_arrives_exactly((const unsigned char *)"", 0);
}

TEST(client_data_text_arrives_exactly)
{
    const char *text = "key=value;caf\xC3\xA9 \xE2\x82\xAC;spaces and = signs";
    check_client_data_arrives_exactly((const unsigned char *)text, strlen(text));
}

TEST(client_data_binary_with_nul_bytes_arrives_exactly)
{
    unsigned char data[256];
    for (int i = 0; i < 256; i++)
        data[i] = (unsigned char)(255 - i); /* every byte value, NUL included */
    check_client_data_arrives_exactly(data, sizeof data);
}

TEST(client_data_32_kib_arrives_exactly)
{
    size_t len = 32 * 1024;
    unsigned char *data = malloc(len);
    unsigned state = 12345;
    for (size_t i = 0; i < len; i++)
        data[i] = (unsigned char)((state = state * 1103515245u + 12345u) >> 16);
    check_client_data_arrives_exactly(data, len);
    free(data);
}

TEST(second_attach_while_active_is_refused_as_already_active)
{
    app_t a;
    const char *out;
    app_start(&a, NULL);
    attach_hello(&a, "");
    int rc = run_cli(&out, "attach", app_pid_text(&a), profiler_path("hello"), NULL);
    ASSERT_EQ(rc, REFUSED);
    ASSERT_CONTAINS(out, "CORPROF_E_PROFILER_ALREADY_ACTIVE (0x8013136A)");
    ASSERT_CONTAINS(out, "what to do:");
    rc = run_cli(&out, "attach", "--json", app_pid_text(&a), profiler_path("hello"), NULL);
    ASSERT_EQ(rc, REFUSED);
    ASSERT_CONTAINS(out, "\"hresult\":\"0x8013136A\"");
    ASSERT_CONTAINS(out, "\"ok\":false");
    /* The library call reports the same refusal as a runtime answer, not a local failure. */
    clra_guid_t clsid;
    clra_status_t st;
    clra_target_t target = clra_target_pid(a.pid);
    clra_guid_parse(HELLO_CLSID, &clsid);
    ASSERT_EQ(clra_profiler_attach(&target, &clsid, profiler_path("hello"), NULL, 0, 1000, 0,
                                   10000, &st),
              CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)st.hresult, 0x8013136Au);
    ASSERT_EQ(app_log_count(&a, "InitializeForAttach"), 1);
    app_assert_responsive(&a);
    app_stop(&a);
}

TEST(profiler_without_callback3_is_not_attachable)
{
    app_t a;
    const char *out;
    app_start(&a, NULL);
    int rc = run_cli(&out, "attach", "--clsid", "1F9B3DD9-810F-4B96-851E-34FCE44ABDC6",
                     app_pid_text(&a), profiler_path("noattach"), NULL);
    ASSERT_EQ(rc, REFUSED);
    ASSERT_CONTAINS(out, "CORPROF_E_PROFILER_NOT_ATTACHABLE (0x80131368)");
    /* The runtime unloads only libraries that have ICorProfilerCallback3, so this one stays
     * mapped; what matters is that the profiler slot is free again. */
    attach_hello(&a, "");
    app_wait_log(&a, "ProfilerAttachComplete", 10000);
    app_assert_responsive(&a);
    app_stop(&a);
}

TEST(initialize_for_attach_returning_e_notimpl_is_not_attachable)
{
    app_t a;
    const char *out;
    app_start(&a, NULL);
    int rc = attach_refuse(&a, NULL, "hr=0x80004001", &out);
    ASSERT_EQ(rc, REFUSED);
    ASSERT_CONTAINS(out, "(0x80131368)");
    app_assert_responsive(&a);
    app_stop(&a);
}

TEST(initialize_for_attach_failure_reaches_the_command_unchanged)
{
    app_t a;
    const char *out;
    app_start(&a, NULL);
    int rc = attach_refuse(&a, NULL, "hr=0x80070005", &out);
    ASSERT_EQ(rc, REFUSED);
    ASSERT_CONTAINS(out, "(0x80070005)");
    rc = attach_refuse(&a, "--json", "hr=0x80131375", &out);
    ASSERT_EQ(rc, REFUSED);
    ASSERT_CONTAINS(out, "\"hresult\":\"0x80131375\"");
    ASSERT_CONTAINS(out, "CORPROF_E_PROFILER_CANCEL_ACTIVATION");
    /* A refused profiler leaves nothing behind: the real one attaches afterwards. */
    app_wait_unmapped(&a, "librefuse_profiler.so", 5000);
    attach_hello(&a, "");
    app_assert_responsive(&a);
    app_stop(&a);
}

TEST(missing_profiler_library_is_mod_not_found_with_namespace_hint)
{
    app_t a;
    const char *out;
    app_start(&a, NULL);
    int rc = run_cli(&out, "attach", app_pid_text(&a), "/nonexistent/dir/libnothing.so", NULL);
    ASSERT_EQ(rc, REFUSED);
    ASSERT_CONTAINS(out, "0x8007007E");
    ASSERT_CONTAINS(out, "mount namespace");
    ASSERT_CONTAINS(out, "does not exist here either");
    app_assert_responsive(&a);
    app_stop(&a);
}

TEST(wrong_clsid_is_class_not_available)
{
    app_t a;
    const char *out;
    app_start(&a, NULL);
    int rc = run_cli(&out, "attach", "--clsid", "00000000-0000-0000-0000-000000000001",
                     app_pid_text(&a), profiler_path("hello"), NULL);
    ASSERT_EQ(rc, REFUSED);
    ASSERT_CONTAINS(out, "CLASS_E_CLASSNOTAVAILABLE (0x80040111)");
    app_assert_responsive(&a);
    app_stop(&a);
}

TEST(pid_that_does_not_exist_is_no_such_process)
{
    const char *out;
    pid_t gone = fork();
    if (gone == 0)
        _exit(0);
    waitpid(gone, NULL, 0); /* a pid that existed a moment ago and is now free */
    char pid[16];
    snprintf(pid, sizeof pid, "%d", (int)gone);
    ASSERT_EQ(run_cli(&out, "attach", pid, profiler_path("hello"), NULL), 3);
    ASSERT_CONTAINS(out, "no such process");
}

TEST(pid_that_is_not_dotnet_is_reported_as_such)
{
    const char *out;
    pid_t child = fork();
    if (child == 0) {
        execlp("sleep", "sleep", "30", (char *)NULL);
        _exit(127);
    }
    usleep(100000);
    char pid[16];
    snprintf(pid, sizeof pid, "%d", (int)child);
    int rc = run_cli(&out, "attach", pid, profiler_path("hello"), NULL);
    kill(child, SIGKILL);
    waitpid(child, NULL, 0);
    ASSERT_EQ(rc, 4);
    ASSERT_CONTAINS(out, "not a .NET process");
}

TEST(target_with_a_different_tmpdir_is_found_and_attached)
{
    app_t a;
    char tmpdir[300], env[320], sock_glob[400];
    snprintf(tmpdir, sizeof tmpdir, "/tmp/clra-other-tmp-XXXXXX");
    ASSERT(mkdtemp(tmpdir) != NULL);
    snprintf(env, sizeof env, "TMPDIR=%s", tmpdir);
    const char *const extra[] = {env, NULL};
    app_start(&a, extra);
    snprintf(sock_glob, sizeof sock_glob, "ls %s/dotnet-diagnostic-%d-*-socket >/dev/null", tmpdir, (int)a.pid);
    ASSERT_MSG(system(sock_glob) == 0, "the runtime did not put its socket in %s", tmpdir);
    unsetenv("TMPDIR"); /* the trigger's own TMPDIR is the default, not the target's */
    attach_hello(&a, "");
    app_wait_log(&a, "ProfilerAttachComplete", 10000);
    app_assert_responsive(&a);
    app_stop(&a);
    snprintf(sock_glob, sizeof sock_glob, "rm -rf '%s'", tmpdir);
    ASSERT(system(sock_glob) == 0);
}
