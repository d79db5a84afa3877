/* clra_dump_create and clra_startup_hook_apply against scripted fake servers: the GenerateCoreDump
 * 3 -> 2 -> 1 fallback, what each version carries, the proof on disk, and failures a runtime
 * would rarely produce. */
#define _GNU_SOURCE
#include "fakesrv.h"
#include "test.h"
#include "test_apps.h"
#include "ipc/transport.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC 'D', 'O', 'T', 'N', 'E', 'T', '_', 'I', 'P', 'C', '_', 'V', '1', 0

static const uint8_t ok[24] = {MAGIC, 24, 0, 0xFF, 0x00, 0, 0, 0, 0, 0, 0};
static const uint8_t unknown[24] = {MAGIC, 24, 0, 0xFF, 0xFF, 0, 0, 0x85, 0x13, 0x13, 0x80};
static const uint8_t bad_encoding[24] = {MAGIC, 24, 0, 0xFF, 0xFF, 0, 0, 0x84, 0x13, 0x13, 0x80};

/* A fresh directory for dump files; the path of NAME inside it goes to out. */
static void scratch(char *dir, size_t cap, const char *name, char *out, size_t out_cap)
{
    snprintf(dir, cap, "/tmp/clra-dumptest-XXXXXX");
    ASSERT(mkdtemp(dir) != NULL);
    snprintf(out, out_cap, "%s/%s", dir, name);
}

static void scratch_remove(const char *dir, const char *file)
{
    unlink(file);
    rmdir(dir);
}

/* Runs clra_dump_create against the scripted server. */
/* Connections the server accepted, waiting up to two seconds for at least want of them. */
static size_t connections_within(fakesrv_t *s, size_t want)
{
    for (int i = 0; i < 200 && fakesrv_connections(s) < want; i++)
        usleep(10000);
    return fakesrv_connections(s);
}

static int dump_via(fakesrv_t *s, const char *path, uint32_t flags, clra_dump_result_t *res,
                    clra_status_t *st)
{
    clra_target_t ep;
    ASSERT(s != NULL);
    ep = clra_target_socket(fakesrv_path(s));
    return clra_dump_create(&ep, path, CLRA_DUMP_HEAP, flags, 5000, res, st);
}

/* The command id and the last uint32 (flags or diagnostics) of request i. */
static void request_fields(fakesrv_t *s, int i, int *id, uint32_t *x)
{
    uint8_t req[512];
    size_t n = fakesrv_request_at(s, i, req, sizeof req);
    ASSERT_MSG(n >= 28 && n <= sizeof req, "request %d is %zu bytes", i, n);
    ASSERT_EQ(n, req[14] | (req[15] << 8));
    ASSERT_EQ(req[16], 0x01);
    *id = req[17];
    *x = (uint32_t)(req[n - 4] | req[n - 3] << 8 | req[n - 2] << 16 | (uint32_t)req[n - 1] << 24);
    ASSERT_EQ(req[n - 8], 2); /* the type before it: heap */
}

TEST(dump_falls_back_from_3_to_2_to_1_on_unknown_command)
{
    char dir[64], path[128];
    clra_dump_result_t res;
    clra_status_t st;
    int id;
    uint32_t x;
    scratch(dir, sizeof dir, "core", path, sizeof path);
    fakesrv_step_t steps[] = {{FAKESRV_REPLY, unknown, 24, NULL},
                              {FAKESRV_REPLY, unknown, 24, NULL},
                              {FAKESRV_REPLY, ok, 24, path}};
    fakesrv_t *s = fakesrv_start_steps(steps, 3, NULL, NULL);
    uint32_t flags = CLRA_DUMP_LOGGING | CLRA_DUMP_CRASH_REPORT;
    ASSERT_EQ(dump_via(s, path, flags, &res, &st), 0);
    ASSERT_EQ(connections_within(s, 3), 3);
    request_fields(s, 0, &id, &x);
    ASSERT_EQ(id, 3);
    ASSERT_EQ(x, flags);
    request_fields(s, 1, &id, &x);
    ASSERT_EQ(id, 2);
    ASSERT_EQ(x, flags);
    request_fields(s, 2, &id, &x);
    ASSERT_EQ(id, 1);
    ASSERT_EQ(x, 1); /* diagnostics on: only logging survives */
    ASSERT_EQ(res.command, 1);
    ASSERT_EQ(res.flags_sent, CLRA_DUMP_LOGGING);
    ASSERT_EQ(res.verified, 1);
    ASSERT_EQ(res.size, 23); /* what the fake createdump wrote */
    ASSERT_STREQ(res.local_path, path);
    fakesrv_stop(s);
    scratch_remove(dir, path);
}

TEST(dump1_without_logging_sends_diagnostics_zero)
{
    char dir[64], path[128];
    clra_dump_result_t res;
    clra_status_t st;
    int id;
    uint32_t x;
    scratch(dir, sizeof dir, "core", path, sizeof path);
    fakesrv_step_t steps[] = {{FAKESRV_REPLY, unknown, 24, NULL},
                              {FAKESRV_REPLY, unknown, 24, NULL},
                              {FAKESRV_REPLY, ok, 24, path}};
    fakesrv_t *s = fakesrv_start_steps(steps, 3, NULL, NULL);
    ASSERT_EQ(dump_via(s, path, CLRA_DUMP_CRASH_REPORT, &res, &st), 0);
    request_fields(s, 2, &id, &x);
    ASSERT_EQ(x, 0);
    ASSERT_EQ(res.flags_sent, 0);
    fakesrv_stop(s);
    scratch_remove(dir, path);
}

TEST(dump2_answering_ends_the_fallback_with_every_flag_sent)
{
    char dir[64], path[128];
    clra_dump_result_t res;
    clra_status_t st;
    scratch(dir, sizeof dir, "core", path, sizeof path);
    fakesrv_step_t steps[] = {{FAKESRV_REPLY, unknown, 24, NULL},
                              {FAKESRV_REPLY, ok, 24, path},
                              {FAKESRV_REPLY, ok, 24, NULL}};
    fakesrv_t *s = fakesrv_start_steps(steps, 3, NULL, NULL);
    uint32_t flags = CLRA_DUMP_VERBOSE | CLRA_DUMP_CRASH_REPORT;
    ASSERT_EQ(dump_via(s, path, flags, &res, &st), 0);
    ASSERT_EQ(res.command, 2);
    ASSERT_EQ(res.flags_sent, flags);
    ASSERT_EQ(connections_within(s, 3), 2); /* no third request */
    fakesrv_stop(s);
    scratch_remove(dir, path);
}

TEST(dump_bad_encoding_is_a_refusal_not_a_fallback)
{
    clra_dump_result_t res;
    clra_status_t st;
    fakesrv_step_t steps[] = {{FAKESRV_REPLY, bad_encoding, 24, NULL},
                              {FAKESRV_REPLY, ok, 24, NULL}};
    fakesrv_t *s = fakesrv_start_steps(steps, 2, NULL, NULL);
    ASSERT_EQ(dump_via(s, "/tmp/clra-never-written", 0, &res, &st), CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)st.hresult, 0x80131384u);
    ASSERT_EQ(res.command, 3);
    ASSERT_EQ(connections_within(s, 2), 1);
    fakesrv_stop(s);
}

TEST(dump_runtime_knowing_no_dump_command_says_so)
{
    clra_dump_result_t res;
    clra_status_t st;
    fakesrv_step_t steps[] = {{FAKESRV_REPLY, unknown, 24, NULL},
                              {FAKESRV_REPLY, unknown, 24, NULL},
                              {FAKESRV_REPLY, unknown, 24, NULL}};
    fakesrv_t *s = fakesrv_start_steps(steps, 3, NULL, NULL);
    ASSERT_EQ(dump_via(s, "/tmp/clra-never-written", 0, &res, &st), CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)st.hresult, 0x80131385u);
    ASSERT_CONTAINS(st.detail, "knows none of GenerateCoreDump 3, 2 and 1");
    fakesrv_stop(s);
}

TEST(dump3_error_text_reaches_the_result_and_one_line_detail)
{
    /* E_FAIL + "[createdump] no\n[createdump] took 1ms\n": 39 units with the NUL. */
    static const char text[] = "[createdump] no\n[createdump] took 1ms\n";
    uint8_t reply[20 + 8 + 2 * sizeof text];
    size_t units = sizeof text;
    memcpy(reply, ok, 20);
    reply[14] = (uint8_t)sizeof reply;
    reply[17] = 0xFF;
    memcpy(reply + 20, "\x05\x40\x00\x80", 4);
    memcpy(reply + 24, (uint8_t[]){(uint8_t)units, 0, 0, 0}, 4);
    for (size_t i = 0; i < units; i++)
        reply[28 + 2 * i] = (uint8_t)text[i], reply[29 + 2 * i] = 0;
    clra_dump_result_t res;
    clra_status_t st;
    fakesrv_step_t steps[] = {{FAKESRV_REPLY, reply, sizeof reply, NULL}};
    fakesrv_t *s = fakesrv_start_steps(steps, 1, NULL, NULL);
    ASSERT_EQ(dump_via(s, "/tmp/clra-never-written", 0, &res, &st), CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)st.hresult, 0x80004005u);
    ASSERT_STREQ(res.message, "[createdump] no\n[createdump] took 1ms");
    ASSERT_STREQ(st.detail, "GenerateCoreDump3 failed: no; took 1ms");
    ASSERT_EQ(res.verified, 0);
    fakesrv_stop(s);
}

TEST(dump_ok_without_a_file_is_not_trusted)
{
    char dir[64], path[128];
    clra_dump_result_t res;
    clra_status_t st;
    scratch(dir, sizeof dir, "core", path, sizeof path);
    fakesrv_step_t steps[] = {{FAKESRV_REPLY, ok, 24, NULL}};
    fakesrv_t *s = fakesrv_start_steps(steps, 1, NULL, NULL);
    ASSERT_EQ(dump_via(s, path, 0, &res, &st), CLRA_EIO);
    ASSERT_CONTAINS(st.detail, "answered OK but");
    ASSERT_CONTAINS(st.detail, "does not exist");
    ASSERT_EQ(res.verified, 0);
    ASSERT_EQ(res.size, -1);
    fakesrv_stop(s);
    scratch_remove(dir, path);
}

TEST(dump_ok_leaving_an_old_file_untouched_is_not_trusted)
{
    char dir[64], path[128];
    clra_dump_result_t res;
    clra_status_t st;
    scratch(dir, sizeof dir, "core", path, sizeof path);
    FILE *f = fopen(path, "w");
    ASSERT(f != NULL);
    fputs("an older dump\n", f);
    fclose(f);
    fakesrv_step_t steps[] = {{FAKESRV_REPLY, ok, 24, NULL}};
    fakesrv_t *s = fakesrv_start_steps(steps, 1, NULL, NULL);
    ASSERT_EQ(dump_via(s, path, 0, &res, &st), CLRA_EIO);
    ASSERT_CONTAINS(st.detail, "unchanged since before the request");
    fakesrv_stop(s);
    scratch_remove(dir, path);
}

TEST(dump_rejects_bad_arguments_without_connecting)
{
    clra_target_t ep;
    clra_dump_result_t res;
    clra_status_t st;
    ep = clra_target_socket("/nonexistent/dotnet-diagnostic-1-1-socket");
    ASSERT_EQ(clra_dump_create(&ep, "relative/core", CLRA_DUMP_HEAP, 0, 1000, &res, &st),
              CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "absolute");
    ASSERT_EQ(clra_dump_create(&ep, "/tmp/core", (clra_dump_type_t)5, 0, 1000, &res, &st),
              CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "dump type 5");
    ASSERT_EQ(clra_dump_create(&ep, "/tmp/core", CLRA_DUMP_FULL, 0x8, 1000, &res, &st),
              CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "flags 0x8");
}

TEST(dump_reply_announcing_more_than_sent_is_connection_lost)
{
    clra_target_t ep;
    clra_dump_result_t res;
    clra_status_t st;
    uint8_t reply[24];
    memcpy(reply, ok, 24);
    reply[14] = 60;
    fakesrv_t *s = fakesrv_start(FAKESRV_REPLY, reply, sizeof reply, 0);
    ASSERT(s != NULL);
    ep = clra_target_socket(fakesrv_path(s));
    ASSERT_EQ(clra_dump_create(&ep, "/tmp/clra-never", CLRA_DUMP_NORMAL, 0, 5000, &res, &st),
              CLRA_ECONNLOST);
    fakesrv_stop(s);
}

TEST(dump_silent_runtime_times_out_at_the_deadline)
{
    clra_target_t ep;
    clra_dump_result_t res;
    clra_status_t st;
    fakesrv_t *s = fakesrv_start(FAKESRV_SILENT, NULL, 0, 0);
    ASSERT(s != NULL);
    ep = clra_target_socket(fakesrv_path(s));
    ASSERT_EQ(clra_dump_create(&ep, "/tmp/clra-never", CLRA_DUMP_NORMAL, 0, 300, &res, &st),
              CLRA_ETIMEDOUT);
    ASSERT_CONTAINS(st.detail, "may still finish");
    fakesrv_stop(s);
}

/* Hook requests through a path-built endpoint: no pid, so no file check, exact bytes out. */
static int hook_via(fakesrv_t *s, const char *path, clra_status_t *st)
{
    clra_target_t ep;
    ASSERT(s != NULL);
    ep = clra_target_socket(fakesrv_path(s));
    return clra_startup_hook_apply(&ep, path, 5000, st);
}

TEST(startup_hook_sends_exactly_the_request_and_ok_is_success)
{
    static const uint8_t expect[38] = {
        MAGIC, 0x26, 0x00, 0x04, 0x07, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00,
        0x2F, 0x00, 0x68, 0x00, 0x2E, 0x00, 0x64, 0x00, 0x6C, 0x00, 0x6C, 0x00, 0x00, 0x00};
    clra_status_t st;
    uint8_t req[128];
    fakesrv_t *s = fakesrv_start(FAKESRV_REPLY, ok, sizeof ok, 0);
    ASSERT_EQ(hook_via(s, "/h.dll", &st), 0);
    ASSERT_EQ(fakesrv_request(s, req, sizeof req), sizeof expect);
    ASSERT_MEMEQ(req, expect, sizeof expect);
    fakesrv_stop(s);
}

TEST(startup_hook_error_reply_is_a_refusal_and_unknown_names_net8)
{
    clra_status_t st;
    fakesrv_t *s = fakesrv_start(FAKESRV_REPLY, unknown, sizeof unknown, 0);
    ASSERT_EQ(hook_via(s, "/h.dll", &st), CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)st.hresult, 0x80131385u);
    ASSERT_CONTAINS(st.detail, ".NET 8");
    fakesrv_stop(s);
}

TEST(startup_hook_closed_without_reply_suggests_the_hook_threw)
{
    clra_status_t st;
    fakesrv_t *s = fakesrv_start(FAKESRV_CLOSE, NULL, 0, 0);
    ASSERT_EQ(hook_via(s, "/h.dll", &st), CLRA_ECONNLOST);
    ASSERT_CONTAINS(st.detail, "hook probably threw");
    fakesrv_stop(s);
}

TEST(startup_hook_relative_path_is_refused_before_sending)
{
    clra_status_t st;
    fakesrv_t *s = fakesrv_start(FAKESRV_REPLY, ok, sizeof ok, 0);
    ASSERT_EQ(hook_via(s, "hook.dll", &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "absolute");
    uint8_t req[64];
    ASSERT_EQ(fakesrv_request(s, req, sizeof req), 0); /* nothing arrived */
    fakesrv_stop(s);
}

TEST(startup_hook_for_a_pid_checks_the_file_before_looking_for_the_runtime)
{
    clra_status_t st;
    /* This test process is not .NET: reaching the endpoint search would say so instead. */
    clra_target_t self = clra_target_pid(getpid());
    ASSERT_EQ(clra_startup_hook_apply(&self, "/nonexistent/hook.dll", 2000, &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "/nonexistent/hook.dll: No such file or directory");
    ASSERT_CONTAINS(st.detail, "not sent");
    NEED_TEST_APPS(); /* the checks above ran; this one needs a real hook assembly */
    /* A generous deadline: the answer is under test here, not the speed of a loaded machine. */
    int rc = clra_startup_hook_apply(&self, CLRA_HOOK_DLL, 30000, &st);
    ASSERT_MSG(rc == CLRA_ENOTDOTNET, "rc %d: %s", rc, st.detail);
}
