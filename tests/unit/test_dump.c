/* Unit tests of the dump and startup-hook requests (golden bytes written out by hand from
 * docs/protocol.md 2.1, 2.3, 3.1, 3.4) and of the dump reply, whose GenerateCoreDump3 error form
 * carries createdump's text. */
#include "proto/dump_codec.h"
#include "proto/process_codec.h"
#include "test.h"

#define MAGIC 0x44, 0x4F, 0x54, 0x4E, 0x45, 0x54, 0x5F, 0x49, 0x50, 0x43, 0x5F, 0x56, 0x31, 0x00

/* GenerateCoreDump3, path "/d", type 2 (heap), flags 0x5 (logging | crash report): 38 bytes. */
static const uint8_t golden_dump3[38] = {
    MAGIC, 0x26, 0x00, 0x01, 0x03, 0x00, 0x00,
    0x03, 0x00, 0x00, 0x00, 0x2F, 0x00, 0x64, 0x00, 0x00, 0x00, /* n = 3 units, "/d\0" */
    0x02, 0x00, 0x00, 0x00,                                     /* type */
    0x05, 0x00, 0x00, 0x00};                                    /* flags */

/* GenerateCoreDump (1), same path and type, diagnostics = 1. */
static const uint8_t golden_dump1[38] = {
    MAGIC, 0x26, 0x00, 0x01, 0x01, 0x00, 0x00,
    0x03, 0x00, 0x00, 0x00, 0x2F, 0x00, 0x64, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00};

/* ApplyStartupHook, path "/h.dll": 7 units with the NUL, 38 bytes. */
static const uint8_t golden_hook[38] = {
    MAGIC, 0x26, 0x00, 0x04, 0x07, 0x00, 0x00,
    0x07, 0x00, 0x00, 0x00,
    0x2F, 0x00, 0x68, 0x00, 0x2E, 0x00, 0x64, 0x00, 0x6C, 0x00, 0x6C, 0x00, 0x00, 0x00};

static const uint8_t reply_ok[24] = {MAGIC, 0x18, 0x00, 0xFF, 0x00, 0x00, 0x00,
                                     0x00, 0x00, 0x00, 0x00};
/* Error(E_FAIL) without text, as Dump1/2 (and Dump3 for protocol errors) send it. */
static const uint8_t reply_fail[24] = {MAGIC, 0x18, 0x00, 0xFF, 0xFF, 0x00, 0x00,
                                       0x05, 0x40, 0x00, 0x80};
/* Dump3's Error(E_FAIL) with the text "no dir": 4 + 4 + 2 * 7 payload bytes, 42 in all. */
static const uint8_t reply_fail_text[42] = {
    MAGIC, 0x2A, 0x00, 0xFF, 0xFF, 0x00, 0x00,
    0x05, 0x40, 0x00, 0x80,
    0x07, 0x00, 0x00, 0x00,
    0x6E, 0x00, 0x6F, 0x00, 0x20, 0x00, 0x64, 0x00, 0x69, 0x00, 0x72, 0x00, 0x00, 0x00};
/* The same with the absent string (n = 0), which the spec allows. */
static const uint8_t reply_fail_absent_text[28] = {MAGIC, 0x1C, 0x00, 0xFF, 0xFF, 0x00, 0x00,
                                                   0x05, 0x40, 0x00, 0x80,
                                                   0x00, 0x00, 0x00, 0x00};

/* Parses a whole reply message with the dump parser; len may cut or extend the payload. */
static int parse(const uint8_t *msg, size_t payload_len, int with_text, int32_t *hr, char *text,
                 size_t cap, clra_status_t *st)
{
    clra__header_t h;
    memset(st, 0, sizeof *st);
    ASSERT_EQ(clra__parse_header(msg, &h), 0);
    return clra__parse_dump_reply(&h, msg + 20, payload_len, with_text, hr, text, cap, st);
}

TEST(dump3_request_matches_hand_written_bytes)
{
    uint8_t buf[128];
    clra__writer_t w;
    clra__writer_init(&w, buf, sizeof buf);
    ASSERT_EQ(clra__build_dump(&w, 3, "/d", 2, 0x5), 0);
    ASSERT_EQ(w.len, sizeof golden_dump3);
    ASSERT_MEMEQ(buf, golden_dump3, sizeof golden_dump3);
}

TEST(dump2_request_differs_from_dump3_only_in_its_command_id)
{
    uint8_t buf[128], expect[38];
    clra__writer_t w;
    memcpy(expect, golden_dump3, sizeof expect);
    expect[17] = 0x02;
    clra__writer_init(&w, buf, sizeof buf);
    ASSERT_EQ(clra__build_dump(&w, 2, "/d", 2, 0x5), 0);
    ASSERT_EQ(w.len, sizeof expect);
    ASSERT_MEMEQ(buf, expect, sizeof expect);
}

TEST(dump1_request_carries_the_diagnostics_field)
{
    uint8_t buf[128];
    clra__writer_t w;
    clra__writer_init(&w, buf, sizeof buf);
    ASSERT_EQ(clra__build_dump(&w, 1, "/d", 2, 1), 0);
    ASSERT_EQ(w.len, sizeof golden_dump1);
    ASSERT_MEMEQ(buf, golden_dump1, sizeof golden_dump1);
}

TEST(startup_hook_request_matches_hand_written_bytes)
{
    uint8_t buf[128];
    clra__writer_t w;
    clra__writer_init(&w, buf, sizeof buf);
    ASSERT_EQ(clra__build_startup_hook(&w, "/h.dll"), 0);
    ASSERT_EQ(w.len, sizeof golden_hook);
    ASSERT_MEMEQ(buf, golden_hook, sizeof golden_hook);
}

TEST(dump_request_with_invalid_utf8_path_is_an_encoding_error)
{
    uint8_t buf[128];
    clra__writer_t w;
    clra__writer_init(&w, buf, sizeof buf);
    ASSERT_EQ(clra__build_dump(&w, 3, "/\xC3(", 1, 0), CLRA_EENCODING);
}

TEST(dump_reply_ok_is_success)
{
    clra_status_t st;
    int32_t hr = -1;
    char text[64];
    ASSERT_EQ(parse(reply_ok, 4, 1, &hr, text, sizeof text, &st), 0);
    ASSERT_EQ(hr, 0);
    ASSERT_STREQ(text, "");
}

TEST(dump_reply_plain_error_is_a_refusal_without_text)
{
    clra_status_t st;
    int32_t hr;
    char text[64];
    for (int with_text = 0; with_text <= 1; with_text++) {
        ASSERT_EQ(parse(reply_fail, 4, with_text, &hr, text, sizeof text, &st), CLRA_ERUNTIME);
        ASSERT_EQ((uint32_t)hr, 0x80004005u);
        ASSERT_STREQ(text, "");
    }
}

TEST(dump3_error_with_text_gives_the_hresult_and_the_text)
{
    clra_status_t st;
    int32_t hr;
    char text[64];
    ASSERT_EQ(parse(reply_fail_text, 22, 1, &hr, text, sizeof text, &st), CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)hr, 0x80004005u);
    ASSERT_STREQ(text, "no dir");
}

TEST(dump3_error_text_is_cut_to_the_buffer_and_stays_terminated)
{
    clra_status_t st;
    int32_t hr;
    char text[4];
    ASSERT_EQ(parse(reply_fail_text, 22, 1, &hr, text, sizeof text, &st), CLRA_ERUNTIME);
    ASSERT_STREQ(text, "no ");
}

TEST(dump3_error_with_absent_text_is_a_refusal_with_empty_text)
{
    clra_status_t st;
    int32_t hr;
    char text[64] = "stale";
    ASSERT_EQ(parse(reply_fail_absent_text, 8, 1, &hr, text, sizeof text, &st), CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)hr, 0x80004005u);
    ASSERT_STREQ(text, "");
}

TEST(dump_reply_shorter_than_its_hresult_is_rejected)
{
    clra_status_t st;
    int32_t hr;
    char text[64];
    ASSERT_EQ(parse(reply_ok, 3, 1, &hr, text, sizeof text, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "3 payload bytes, fewer than its 4-byte HRESULT");
    ASSERT_EQ(parse(reply_fail, 0, 1, &hr, text, sizeof text, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "0 payload bytes");
}

TEST(dump3_error_with_a_cut_text_length_is_rejected)
{
    clra_status_t st;
    int32_t hr;
    char text[64];
    ASSERT_EQ(parse(reply_fail_text, 6, 1, &hr, text, sizeof text, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "text length is cut short: 2 of 4 bytes");
}

TEST(dump_reply_longer_than_its_form_is_rejected)
{
    clra_status_t st;
    int32_t hr;
    char text[64];
    uint8_t ok_long[28];
    memcpy(ok_long, reply_ok, 24);
    memset(ok_long + 24, 0, 4);
    ok_long[14] = 28;
    ASSERT_EQ(parse(ok_long, 8, 1, &hr, text, sizeof text, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "OK reply has 8 payload bytes instead of 4");
    /* Dump1/2 errors never carry text, so bytes after the HRESULT are wrong there. */
    ASSERT_EQ(parse(reply_fail_text, 22, 0, &hr, text, sizeof text, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "18 bytes after its HRESULT");
}

TEST(dump3_error_with_bytes_after_its_text_is_rejected)
{
    clra_status_t st;
    int32_t hr;
    char text[64];
    uint8_t msg[46];
    memcpy(msg, reply_fail_text, 42);
    memcpy(msg + 42, "\x41\x00\x42\x00", 4);
    msg[14] = 46;
    ASSERT_EQ(parse(msg, 26, 1, &hr, text, sizeof text, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "4 bytes after its text of 7 UTF-16 units");
    /* and after an absent (n = 0) text */
    uint8_t absent[30];
    memcpy(absent, reply_fail_absent_text, 28);
    absent[28] = absent[29] = 0;
    absent[14] = 30;
    ASSERT_EQ(parse(absent, 10, 1, &hr, text, sizeof text, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "2 bytes after its text of 0 UTF-16 units");
}

TEST(dump3_error_whose_text_length_lies_is_rejected)
{
    clra_status_t st;
    int32_t hr;
    char text[64];
    uint8_t msg[42];
    memcpy(msg, reply_fail_text, sizeof msg);
    msg[24] = 100; /* announces 100 units, 14 bytes follow */
    ASSERT_EQ(parse(msg, 22, 1, &hr, text, sizeof text, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "announces 100 UTF-16 units (200 bytes) but only 14 bytes follow");
    msg[24] = 0xFF, msg[25] = 0xFF, msg[26] = 0xFF, msg[27] = 0xFF; /* a huge count */
    ASSERT_EQ(parse(msg, 22, 1, &hr, text, sizeof text, &st), CLRA_EPROTO);
}

TEST(dump3_error_text_without_its_nul_is_rejected)
{
    clra_status_t st;
    int32_t hr;
    char text[64];
    uint8_t msg[42];
    memcpy(msg, reply_fail_text, sizeof msg);
    msg[40] = 0x21; /* last unit '!' instead of NUL */
    ASSERT_EQ(parse(msg, 22, 1, &hr, text, sizeof text, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "does not end in a NUL");
}

TEST(dump_error_reply_carrying_success_is_rejected)
{
    clra_status_t st;
    int32_t hr;
    char text[64];
    uint8_t msg[24];
    memcpy(msg, reply_fail, sizeof msg);
    memset(msg + 20, 0, 4);
    ASSERT_EQ(parse(msg, 4, 1, &hr, text, sizeof text, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "Error carrying a success code");
}

TEST(dump_reply_from_another_command_set_is_rejected)
{
    clra_status_t st;
    int32_t hr;
    char text[64];
    uint8_t msg[24];
    memcpy(msg, reply_ok, sizeof msg);
    msg[16] = 0x01;
    ASSERT_EQ(parse(msg, 4, 1, &hr, text, sizeof text, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "command set 0x01 id 0x00");
}
