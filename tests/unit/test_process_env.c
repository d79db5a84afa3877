/* Unit tests of the environment and process-control commands: golden request bytes written out
 * by hand from docs/protocol.md 3.4, the environment reply and continuation parsers,
 * and a fake server for continuations a runtime would not send. */
#include "fakesrv.h"
#include "proto/process_codec.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define MAGIC 0x44, 0x4F, 0x54, 0x4E, 0x45, 0x54, 0x5F, 0x49, 0x50, 0x43, 0x5F, 0x56, 0x31, 0x00

/* Builds with the command's builder into buf; returns the length. */
static size_t build(int (*fn)(clra__writer_t *, const void *), const void *arg, uint8_t *buf,
                    size_t cap)
{
    clra__writer_t w;
    clra__writer_init(&w, buf, cap);
    ASSERT_EQ(fn(&w, arg), 0);
    return w.len;
}

static int build_setenv_ab(clra__writer_t *w, const void *arg)
{
    return clra__build_set_env(w, "AB", arg);
}

TEST(process_set_env_request_matches_hand_written_bytes)
{
    static const uint8_t expected[] = {MAGIC, 0x2A, 0x00, 0x04, 0x03, 0x00, 0x00,
                                       0x03, 0x00, 0x00, 0x00, 'A', 0, 'B', 0, 0, 0,
                                       0x04, 0x00, 0x00, 0x00, 'x', 0, '=', 0, ';', 0, 0, 0};
    uint8_t buf[128];
    size_t n = build(build_setenv_ab, "x=;", buf, sizeof buf);
    ASSERT_EQ(n, sizeof expected);
    ASSERT_MEMEQ(buf, expected, sizeof expected);
}

TEST(process_set_env_without_value_sends_the_absent_string)
{
    static const uint8_t expected[] = {MAGIC, 0x22, 0x00, 0x04, 0x03, 0x00, 0x00,
                                       0x03, 0x00, 0x00, 0x00, 'A', 0, 'B', 0, 0, 0,
                                       0x00, 0x00, 0x00, 0x00};
    uint8_t buf[128];
    size_t n = build(build_setenv_ab, NULL, buf, sizeof buf);
    ASSERT_EQ(n, sizeof expected);
    ASSERT_MEMEQ(buf, expected, sizeof expected);
}

static int build_perfmap(clra__writer_t *w, const void *arg)
{
    return clra__build_enable_perfmap(w, *(const uint32_t *)arg);
}

TEST(process_enable_perfmap_request_matches_hand_written_bytes)
{
    static const uint8_t expected[] = {MAGIC, 0x18, 0x00, 0x04, 0x05, 0x00, 0x00,
                                       0x03, 0x00, 0x00, 0x00};
    uint8_t buf[64];
    uint32_t type = 3;
    size_t n = build(build_perfmap, &type, buf, sizeof buf);
    ASSERT_EQ(n, sizeof expected);
    ASSERT_MEMEQ(buf, expected, sizeof expected);
}

TEST(process_header_only_commands_are_twenty_bytes)
{
    static const uint8_t ids[] = {0x01, 0x02, 0x06}; /* Resume, Environment, DisablePerfMap */
    for (size_t i = 0; i < sizeof ids; i++) {
        const uint8_t expected[] = {MAGIC, 0x14, 0x00, 0x04, ids[i], 0x00, 0x00};
        uint8_t buf[64];
        clra__writer_t w;
        clra__writer_init(&w, buf, sizeof buf);
        ASSERT_EQ(clra__build_empty(&w, CLRA__SET_PROCESS, ids[i]), 0);
        ASSERT_EQ(w.len, sizeof expected);
        ASSERT_MEMEQ(buf, expected, sizeof expected);
    }
}

/* A reply with the given command id and payload. */
static clra__reply_t reply_of(uint8_t id, const void *payload, size_t len)
{
    clra__reply_t r = {{(uint16_t)(20 + len), 0xFF, id}, (uint8_t *)payload, len};
    return r;
}

TEST(process_env_reply_announces_the_continuation_length)
{
    clra_status_t st = {0};
    uint32_t n = 0;
    clra__reply_t r = reply_of(0x00, "\x10\x00\x00\x00\x00\x00", 6);
    ASSERT_EQ(clra__parse_env_reply(&r, &n, &st), 0);
    ASSERT_EQ(n, 16u);
}

TEST(process_env_reply_rejects_short_long_and_huge_lengths)
{
    clra_status_t st = {0};
    uint32_t n;
    clra__reply_t r = reply_of(0x00, "\x10\x00\x00\x00\x00", 5);
    ASSERT_EQ(clra__parse_env_reply(&r, &n, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "5 payload bytes, expected 6");
    r = reply_of(0x00, "\x10\x00\x00\x00\x00\x00\x00", 7);
    ASSERT_EQ(clra__parse_env_reply(&r, &n, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "7 payload bytes");
    r = reply_of(0x00, "\xFF\xFF\xFF\xFF\x00\x00", 6);
    ASSERT_EQ(clra__parse_env_reply(&r, &n, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "4294967295 bytes");
    r = reply_of(0x00, "\x03\x00\x00\x00\x00\x00", 6);
    ASSERT_EQ(clra__parse_env_reply(&r, &n, &st), CLRA_EPROTO);
}

TEST(process_env_reply_error_is_a_runtime_refusal)
{
    clra_status_t st = {0};
    uint32_t n;
    clra__reply_t r = reply_of(0xFF, "\x85\x13\x13\x80", 4);
    ASSERT_EQ(clra__parse_env_reply(&r, &n, &st), CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)st.hresult, 0x80131385u);
}

/* "A=1" and "=C:=C:\" as the wire carries them: count 2 then two strings. */
static const uint8_t two_entries[] = {
    0x02, 0x00, 0x00, 0x00,
    0x04, 0x00, 0x00, 0x00, 'A', 0, '=', 0, '1', 0, 0, 0,
    0x08, 0x00, 0x00, 0x00, '=', 0, 'C', 0, ':', 0, '=', 0, 'C', 0, ':', 0, '\\', 0, 0, 0};

TEST(process_env_block_splits_at_the_first_equals_not_in_front)
{
    clra_status_t st = {0};
    clra_environment_t env;
    ASSERT_EQ(clra__parse_env_block(two_entries, sizeof two_entries, &env, &st), 0);
    ASSERT_EQ(env.count, 2u);
    ASSERT_STREQ(env.vars[0].name, "A");
    ASSERT_STREQ(env.vars[0].value, "1");
    ASSERT_STREQ(env.vars[1].name, "=C:");
    ASSERT_STREQ(env.vars[1].value, "C:\\");
    clra_environment_free(&env);
}

TEST(process_env_split_keeps_later_equals_and_semicolons_in_the_value)
{
    clra_env_var_t v;
    ASSERT_EQ(clra__env_split("K=__VAL=;--3", &v), 0);
    ASSERT_STREQ(v.name, "K");
    ASSERT_STREQ(v.value, "__VAL=;--3");
    free(v.name);
    ASSERT_EQ(clra__env_split("LONELY", &v), 0);
    ASSERT_STREQ(v.name, "LONELY");
    ASSERT_STREQ(v.value, "");
    free(v.name);
    ASSERT_EQ(clra__env_split("E=", &v), 0);
    ASSERT_STREQ(v.name, "E");
    ASSERT_STREQ(v.value, "");
    free(v.name);
}

TEST(process_env_block_empty_environment_is_four_zero_bytes)
{
    clra_status_t st = {0};
    clra_environment_t env;
    ASSERT_EQ(clra__parse_env_block((const uint8_t *)"\0\0\0\0", 4, &env, &st), 0);
    ASSERT_EQ(env.count, 0u);
    clra_environment_free(&env);
}

TEST(process_env_block_rejects_lying_counts_truncation_and_trailing_bytes)
{
    clra_status_t st = {0};
    clra_environment_t env;
    uint8_t bad[sizeof two_entries + 2];
    /* A count far larger than the block could hold. */
    memcpy(bad, two_entries, sizeof two_entries);
    bad[0] = 0xFF, bad[1] = 0xFF, bad[2] = 0xFF, bad[3] = 0x7F;
    ASSERT_EQ(clra__parse_env_block(bad, sizeof two_entries, &env, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "cannot hold");
    /* One entry more than the block carries. */
    bad[0] = 3, bad[1] = bad[2] = bad[3] = 0;
    ASSERT_EQ(clra__parse_env_block(bad, sizeof two_entries, &env, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "entry 3 of 3");
    /* The last string cut short. */
    ASSERT_EQ(clra__parse_env_block(two_entries, sizeof two_entries - 1, &env, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "entry 2 of 2");
    /* A string whose last unit is not NUL. */
    memcpy(bad, two_entries, sizeof two_entries);
    bad[14] = 'x';
    ASSERT_EQ(clra__parse_env_block(bad, sizeof two_entries, &env, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "entry 1 of 2");
    /* Bytes left over after the announced entries. */
    memcpy(bad, two_entries, sizeof two_entries);
    bad[sizeof two_entries] = bad[sizeof two_entries + 1] = 0;
    ASSERT_EQ(clra__parse_env_block(bad, sizeof bad, &env, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "2 bytes after its 2 entries");
}

/* The 26-byte OK announcing n continuation bytes, followed by `sent` bytes of two_entries. */
static size_t env_reply_bytes(uint8_t *out, uint32_t n, size_t sent)
{
    const uint8_t head[] = {MAGIC, 0x1A, 0x00, 0xFF, 0x00, 0x00, 0x00,
                            (uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24),
                            0x00, 0x00};
    memcpy(out, head, sizeof head);
    memcpy(out + sizeof head, two_entries, sent);
    return sizeof head + sent;
}

static int environment_via(fakesrv_t *s, int timeout_ms, clra_environment_t *env,
                           clra_status_t *st)
{
    clra_target_t ep;
    ep = clra_target_socket(fakesrv_path(s));
    return clra_environment_get(&ep, timeout_ms, env, st);
}

TEST(process_environment_reads_exactly_the_announced_continuation)
{
    uint8_t bytes[128];
    clra_status_t st;
    clra_environment_t env;
    size_t n = env_reply_bytes(bytes, sizeof two_entries, sizeof two_entries);
    fakesrv_t *s = fakesrv_start(FAKESRV_REPLY_STALL, bytes, n, 0);
    /* The server stays open after the block: reading must stop at the announced length. */
    ASSERT_EQ(environment_via(s, 5000, &env, &st), 0);
    ASSERT_EQ(env.count, 2u);
    ASSERT_STREQ(env.vars[0].value, "1");
    clra_environment_free(&env);
    fakesrv_stop(s);
}

TEST(process_environment_short_continuation_is_reported_not_parsed)
{
    uint8_t bytes[128];
    clra_status_t st;
    clra_environment_t env;
    size_t n = env_reply_bytes(bytes, sizeof two_entries, 10);
    fakesrv_t *s = fakesrv_start(FAKESRV_REPLY, bytes, n, 0);
    ASSERT_EQ(environment_via(s, 5000, &env, &st), CLRA_ECONNLOST);
    ASSERT_CONTAINS(st.detail, "announced 36 environment bytes");
    ASSERT_EQ(env.count, 0u);
    fakesrv_stop(s);
    s = fakesrv_start(FAKESRV_REPLY_STALL, bytes, n, 0);
    ASSERT_EQ(environment_via(s, 300, &env, &st), CLRA_ETIMEDOUT);
    ASSERT_CONTAINS(st.detail, "before the deadline");
    fakesrv_stop(s);
}

TEST(process_set_environment_refuses_names_the_runtime_would_misread)
{
    clra_target_t ep;
    clra_status_t st;
    ep = clra_target_socket("/nonexistent/socket");
    ASSERT_EQ(clra_environment_set(&ep, "", "v", 100, &st), CLRA_EINVAL);
    ASSERT_EQ(clra_environment_set(&ep, "A=B", "v", 100, &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "no '='");
    ASSERT_EQ(clra_perfmap_enable(&ep, (clra_perfmap_type_t)4, 100, &st), CLRA_EINVAL);
}
