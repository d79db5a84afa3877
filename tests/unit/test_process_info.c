/* Unit tests of ProcessInfo, ProcessInfo2 and ProcessInfo3 (docs/protocol.md 3.4):
 * golden request bytes, replies written out by hand byte by byte, every malformed length
 * rejected with a detail naming the field, and the 3 -> 2 -> 1 fallback against a fake server. */
#define _GNU_SOURCE
#include "fakesrv.h"
#include "proto/process_codec.h"
#include "test.h"

#include <stdlib.h>
#include <time.h>

#define MAGIC 0x44, 0x4F, 0x54, 0x4E, 0x45, 0x54, 0x5F, 0x49, 0x50, 0x43, 0x5F, 0x56, 0x31, 0x00

/* The three requests: a bare 20-byte header, command set 0x04, ids 0x00 / 0x04 / 0x08. */
static const uint8_t req_info1[20] = {MAGIC, 0x14, 0x00, 0x04, 0x00, 0x00, 0x00};
static const uint8_t req_info2[20] = {MAGIC, 0x14, 0x00, 0x04, 0x04, 0x00, 0x00};
static const uint8_t req_info3[20] = {MAGIC, 0x14, 0x00, 0x04, 0x08, 0x00, 0x00};

/* Reply pieces, little-endian, strings as uint32 units (NUL included) + UTF-16LE. */
#define V0 0x00, 0x00, 0x00, 0x00
#define V1 0x01, 0x00, 0x00, 0x00
#define V2 0x02, 0x00, 0x00, 0x00
#define PID_4242 0x92, 0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00
/* {846F5F1C-F9AE-4B07-969E-05C26BC060D8} in memory order (docs/protocol.md 2.3). */
#define COOKIE 0x1C, 0x5F, 0x6F, 0x84, 0xAE, 0xF9, 0x07, 0x4B, \
               0x96, 0x9E, 0x05, 0xC2, 0x6B, 0xC0, 0x60, 0xD8
#define S_CMD 0x04, 0x00, 0x00, 0x00, 'a', 0x00, ' ', 0x00, 'b', 0x00, 0x00, 0x00
#define S_OS 0x06, 0x00, 0x00, 0x00, 'L', 0x00, 'i', 0x00, 'n', 0x00, 'u', 0x00, 'x', 0x00, \
             0x00, 0x00
#define S_ARCH 0x04, 0x00, 0x00, 0x00, 'x', 0x00, '6', 0x00, '4', 0x00, 0x00, 0x00
#define S_ENTRY 0x04, 0x00, 0x00, 0x00, 'a', 0x00, 'p', 0x00, 'p', 0x00, 0x00, 0x00
#define S_CLR 0x07, 0x00, 0x00, 0x00, '1', 0x00, '0', 0x00, '.', 0x00, '0', 0x00, '.', 0x00, \
              '1', 0x00, 0x00, 0x00
#define S_RID 0x0A, 0x00, 0x00, 0x00, 'l', 0x00, 'i', 0x00, 'n', 0x00, 'u', 0x00, 'x', 0x00, \
              '-', 0x00, 'x', 0x00, '6', 0x00, '4', 0x00, 0x00, 0x00
#define S_ABSENT 0x00, 0x00, 0x00, 0x00
#define S_EMPTY 0x01, 0x00, 0x00, 0x00, 0x00, 0x00

static const uint8_t info1[] = {PID_4242, COOKIE, S_CMD, S_OS, S_ARCH};
static const uint8_t info2[] = {PID_4242, COOKIE, S_CMD, S_OS, S_ARCH, S_ENTRY, S_CLR};
static const uint8_t info3_v1[] = {V1,   PID_4242, COOKIE, S_CMD, S_OS,
                                   S_ARCH, S_ENTRY, S_CLR, S_RID};

/* A whole OK message around a payload (header written field by field from docs/protocol.md 2.1). */
static size_t ok_message(uint8_t *out, const uint8_t *payload, size_t len)
{
    static const uint8_t magic[14] = {MAGIC};
    memcpy(out, magic, 14);
    out[14] = (uint8_t)(20 + len);
    out[15] = (uint8_t)((20 + len) >> 8);
    out[16] = 0xFF;
    out[17] = 0x00;
    out[18] = out[19] = 0;
    memcpy(out + 20, payload, len);
    return 20 + len;
}

static const uint8_t err_unknown_command[24] = {MAGIC, 0x18, 0x00, 0xFF, 0xFF, 0x00, 0x00,
                                                0x85, 0x13, 0x13, 0x80};
static const uint8_t err_bad_encoding[24] = {MAGIC, 0x18, 0x00, 0xFF, 0xFF, 0x00, 0x00,
                                             0x84, 0x13, 0x13, 0x80};

/* Parses and expects failure with CLRA_EPROTO and a detail containing needle. */
static void expect_rejected(int command, const uint8_t *p, size_t len, const char *needle)
{
    clra_process_info_t info;
    clra_status_t st = {0};
    ASSERT_EQ(clra__parse_process_info(command, p, len, &info, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, needle);
    ASSERT(info.command_line == NULL && info.os == NULL && info.rid == NULL);
}

TEST(procinfo_requests_are_bare_headers_with_their_command_ids)
{
    static const uint8_t ids[3] = {0x00, 0x04, 0x08};
    const uint8_t *golden[3] = {req_info1, req_info2, req_info3};
    for (int i = 0; i < 3; i++) {
        uint8_t buf[64];
        clra__writer_t w;
        clra__writer_init(&w, buf, sizeof buf);
        ASSERT_EQ(clra__build_empty(&w, 0x04, ids[i]), 0);
        ASSERT_EQ(w.len, 20);
        ASSERT_MEMEQ(buf, golden[i], 20);
    }
}

TEST(procinfo_parses_processinfo1_reply)
{
    clra_process_info_t info;
    clra_status_t st = {0};
    char cookie[37];
    ASSERT_EQ(clra__parse_process_info(1, info1, sizeof info1, &info, &st), 0);
    ASSERT_EQ(info.command, 1);
    ASSERT_EQ(info.pid, 4242);
    clra_guid_format(&info.cookie, cookie);
    ASSERT_STREQ(cookie, "846F5F1C-F9AE-4B07-969E-05C26BC060D8");
    ASSERT_STREQ(info.command_line, "a b");
    ASSERT_STREQ(info.os, "Linux");
    ASSERT_STREQ(info.arch, "x64");
    ASSERT(info.entry_assembly == NULL && info.clr_version == NULL && info.rid == NULL);
    clra_process_info_free(&info);
}

TEST(procinfo_parses_processinfo2_reply)
{
    clra_process_info_t info;
    clra_status_t st = {0};
    ASSERT_EQ(clra__parse_process_info(2, info2, sizeof info2, &info, &st), 0);
    ASSERT_EQ(info.command, 2);
    ASSERT_STREQ(info.entry_assembly, "app");
    ASSERT_STREQ(info.clr_version, "10.0.1");
    ASSERT(info.rid == NULL);
    clra_process_info_free(&info);
}

TEST(procinfo_parses_processinfo3_version1_reply_with_rid)
{
    clra_process_info_t info;
    clra_status_t st = {0};
    ASSERT_EQ(clra__parse_process_info(3, info3_v1, sizeof info3_v1, &info, &st), 0);
    ASSERT_EQ(info.command, 3);
    ASSERT_EQ(info.version, 1);
    ASSERT_EQ(info.pid, 4242);
    ASSERT_STREQ(info.command_line, "a b");
    ASSERT_STREQ(info.clr_version, "10.0.1");
    ASSERT_STREQ(info.rid, "linux-x64");
    clra_process_info_free(&info);
}

TEST(procinfo_processinfo3_version0_has_no_rid)
{
    static const uint8_t v0[] = {V0, PID_4242, COOKIE, S_CMD, S_OS, S_ARCH, S_ENTRY, S_CLR};
    static const uint8_t v0_with_rid[] = {V0, PID_4242, COOKIE, S_CMD, S_OS, S_ARCH, S_ENTRY,
                                          S_CLR, S_RID};
    clra_process_info_t info;
    clra_status_t st = {0};
    ASSERT_EQ(clra__parse_process_info(3, v0, sizeof v0, &info, &st), 0);
    ASSERT_EQ(info.version, 0);
    ASSERT_STREQ(info.entry_assembly, "app");
    ASSERT(info.rid == NULL);
    clra_process_info_free(&info);
    expect_rejected(3, v0_with_rid, sizeof v0_with_rid, "24 bytes after its last field");
}

TEST(procinfo_processinfo3_newer_version_tail_is_ignored)
{
    static const uint8_t v2[] = {V2, PID_4242, COOKIE, S_CMD, S_OS, S_ARCH, S_ENTRY, S_CLR, S_RID,
                                 0x05, 0x00, 0x00, 0x00, 0xAA, 0xBB, 0xCC};
    clra_process_info_t info;
    clra_status_t st = {0};
    ASSERT_EQ(clra__parse_process_info(3, v2, sizeof v2, &info, &st), 0);
    ASSERT_EQ(info.version, 2);
    ASSERT_STREQ(info.rid, "linux-x64");
    clra_process_info_free(&info);
}

TEST(procinfo_accepts_absent_and_empty_strings)
{
    static const uint8_t p[] = {V1, PID_4242, COOKIE, S_ABSENT, S_EMPTY, S_ARCH,
                                S_ABSENT, S_EMPTY, S_ABSENT};
    clra_process_info_t info;
    clra_status_t st = {0};
    ASSERT_EQ(clra__parse_process_info(3, p, sizeof p, &info, &st), 0);
    ASSERT(info.command_line == NULL);
    ASSERT_STREQ(info.os, "");
    ASSERT_STREQ(info.arch, "x64");
    ASSERT(info.entry_assembly == NULL);
    ASSERT_STREQ(info.clr_version, "");
    ASSERT(info.rid == NULL);
    clra_process_info_free(&info);
}

TEST(procinfo_rejects_truncated_fixed_fields)
{
    expect_rejected(3, info3_v1, 0, "ends inside version at offset 0: it needs 4 bytes, 0 remain");
    expect_rejected(3, info3_v1, 9, "ends inside processId at offset 4: it needs 8 bytes, "
                    "5 remain");
    expect_rejected(1, info1, 12, "ends inside runtimeCookie at offset 8: it needs 16 bytes, "
                    "4 remain");
    expect_rejected(1, info1, 24, "ends inside commandLine at offset 24");
}

TEST(procinfo_rejects_replies_cut_between_or_inside_strings)
{
    /* ProcessInfo2 cut right after arch: the entry assembly's count is missing. */
    expect_rejected(2, info2, sizeof info1, "ends inside managedEntrypointAssemblyName");
    /* ProcessInfo3 cut two bytes into the RID's text: its count claims more than is left. */
    expect_rejected(3, info3_v1, sizeof info3_v1 - 18, "string runtimeIdentifier at offset 98 "
                    "claims 10 UTF-16 units (20 bytes), but only 2 bytes follow");
}

TEST(procinfo_rejects_string_count_running_past_the_end)
{
    static const uint8_t big[] = {PID_4242, COOKIE, 0x00, 0x01, 0x00, 0x00, 'a', 0x00, 0x00, 0x00,
                                  S_OS, S_ARCH};
    static const uint8_t huge[] = {PID_4242, COOKIE, 0xFF, 0xFF, 0xFF, 0xFF, 'a', 0x00, 0x00, 0x00};
    expect_rejected(1, big, sizeof big, "string commandLine at offset 24 claims 256 UTF-16 units");
    expect_rejected(1, huge, sizeof huge, "claims 4294967295 UTF-16 units (8589934590 bytes)");
}

TEST(procinfo_rejects_string_without_nul_terminator)
{
    static const uint8_t p[] = {PID_4242, COOKIE, 0x03, 0x00, 0x00, 0x00, 'a', 0x00, ' ', 0x00,
                                'b', 0x00, S_OS, S_ARCH};
    expect_rejected(1, p, sizeof p, "string commandLine at offset 24 (3 units) does not end "
                    "with a NUL unit");
}

TEST(procinfo_rejects_bytes_after_the_last_field)
{
    uint8_t p[sizeof info1 + 2];
    memcpy(p, info1, sizeof info1);
    p[sizeof info1] = p[sizeof info1 + 1] = 0;
    expect_rejected(1, p, sizeof p, "ProcessInfo reply has 2 bytes after its last field");
    uint8_t q[sizeof info3_v1 + 4];
    memcpy(q, info3_v1, sizeof info3_v1);
    memset(q + sizeof info3_v1, 0, 4);
    expect_rejected(3, q, sizeof q, "ProcessInfo3 version 1 defines no more");
}

/* Runs clra_process_info_get against a scripted fake server. */
static int info_via(fakesrv_t *s, int timeout_ms, clra_process_info_t *info, clra_status_t *st)
{
    clra_target_t ep;
    ASSERT(s != NULL);
    ep = clra_target_socket(fakesrv_path(s));
    return clra_process_info_get(&ep, timeout_ms, info, st);
}

TEST(procinfo_falls_back_to_processinfo2_on_unknown_command)
{
    uint8_t reply[256], req[64];
    fakesrv_step_t steps[2] = {{FAKESRV_REPLY, err_unknown_command, 24, NULL},
                               {FAKESRV_REPLY, reply, ok_message(reply, info2, sizeof info2), NULL}};
    fakesrv_t *s = fakesrv_start_steps(steps, 2, NULL, NULL);
    clra_process_info_t info;
    clra_status_t st;
    ASSERT_EQ(info_via(s, 5000, &info, &st), 0);
    ASSERT_EQ(info.command, 2);
    ASSERT_STREQ(info.clr_version, "10.0.1");
    ASSERT_CONTAINS(st.detail, "does not know ProcessInfo3; ProcessInfo2 answered");
    ASSERT_EQ(fakesrv_request_at(s, 0, req, sizeof req), 20);
    ASSERT_MEMEQ(req, req_info3, 20);
    ASSERT_EQ(fakesrv_request_at(s, 1, req, sizeof req), 20);
    ASSERT_MEMEQ(req, req_info2, 20);
    clra_process_info_free(&info);
    fakesrv_stop(s);
}

TEST(procinfo_falls_back_through_all_three_commands)
{
    uint8_t reply[256], req[64];
    fakesrv_step_t steps[3] = {{FAKESRV_REPLY, err_unknown_command, 24, NULL},
                               {FAKESRV_REPLY, err_unknown_command, 24, NULL},
                               {FAKESRV_REPLY, reply, ok_message(reply, info1, sizeof info1), NULL}};
    fakesrv_t *s = fakesrv_start_steps(steps, 3, NULL, NULL);
    clra_process_info_t info;
    clra_status_t st;
    ASSERT_EQ(info_via(s, 5000, &info, &st), 0);
    ASSERT_EQ(info.command, 1);
    ASSERT_STREQ(info.os, "Linux");
    ASSERT_EQ(fakesrv_request_at(s, 2, req, sizeof req), 20);
    ASSERT_MEMEQ(req, req_info1, 20);
    clra_process_info_free(&info);
    fakesrv_stop(s);
}

TEST(procinfo_other_refusal_is_reported_without_fallback)
{
    uint8_t reply[256];
    fakesrv_step_t steps[2] = {{FAKESRV_REPLY, err_bad_encoding, 24, NULL},
                               {FAKESRV_REPLY, reply, ok_message(reply, info2, sizeof info2), NULL}};
    fakesrv_t *s = fakesrv_start_steps(steps, 2, NULL, NULL);
    clra_process_info_t info;
    clra_status_t st;
    ASSERT_EQ(info_via(s, 5000, &info, &st), CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)st.hresult, 0x80131384u);
    ASSERT_EQ(fakesrv_connections(s), 1);
    fakesrv_stop(s);
}

TEST(procinfo_runtime_knowing_no_process_command_is_refusal_with_detail)
{
    fakesrv_step_t steps[3] = {{FAKESRV_REPLY, err_unknown_command, 24, NULL},
                               {FAKESRV_REPLY, err_unknown_command, 24, NULL},
                               {FAKESRV_REPLY, err_unknown_command, 24, NULL}};
    fakesrv_t *s = fakesrv_start_steps(steps, 3, NULL, NULL);
    clra_process_info_t info;
    clra_status_t st;
    ASSERT_EQ(info_via(s, 5000, &info, &st), CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)st.hresult, 0x80131385u);
    ASSERT_CONTAINS(st.detail, "knows none of ProcessInfo3, ProcessInfo2, ProcessInfo");
    fakesrv_stop(s);
}

TEST(procinfo_malformed_ok_reply_is_protocol_error_without_fallback)
{
    uint8_t reply[256];
    fakesrv_step_t steps[2] = {{FAKESRV_REPLY, reply, ok_message(reply, info3_v1, 30), NULL},
                               {FAKESRV_REPLY, err_unknown_command, 24, NULL}};
    fakesrv_t *s = fakesrv_start_steps(steps, 2, NULL, NULL);
    clra_process_info_t info;
    clra_status_t st;
    ASSERT_EQ(info_via(s, 5000, &info, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "ProcessInfo3 reply ends inside commandLine at offset 28");
    ASSERT_EQ(fakesrv_connections(s), 1);
    fakesrv_stop(s);
}

TEST(procinfo_reply_shorter_than_its_header_size_is_connection_lost)
{
    uint8_t reply[256];
    size_t n = ok_message(reply, info3_v1, sizeof info3_v1);
    fakesrv_step_t step = {FAKESRV_REPLY, reply, n - 10, NULL}; /* header announces 10 more bytes */
    fakesrv_t *s = fakesrv_start_steps(&step, 1, NULL, NULL);
    clra_process_info_t info;
    clra_status_t st;
    ASSERT_EQ(info_via(s, 5000, &info, &st), CLRA_ECONNLOST);
    ASSERT_CONTAINS(st.detail, "closed the connection before replying");
    fakesrv_stop(s);
}

TEST(procinfo_silent_server_times_out_at_the_deadline)
{
    struct timespec t0, t1;
    fakesrv_step_t step = {FAKESRV_SILENT, NULL, 0, NULL};
    fakesrv_t *s = fakesrv_start_steps(&step, 1, NULL, NULL);
    clra_process_info_t info;
    clra_status_t st;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ASSERT_EQ(info_via(s, 300, &info, &st), CLRA_ETIMEDOUT);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
    ASSERT_MSG(ms >= 290 && ms < 3000, "returned after %.0f ms for a 300 ms deadline", ms);
    fakesrv_stop(s);
}

TEST(procinfo_rejects_missing_arguments)
{
    clra_process_info_t info;
    clra_status_t st;
    clra_target_t ep = {0};
    ASSERT_EQ(clra_process_info_get(NULL, 100, &info, &st), CLRA_EINVAL);
    ASSERT_EQ(clra_process_info_get(&ep, 100, &info, &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "endpoint");
}
