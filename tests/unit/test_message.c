/* Unit tests of IPC framing: golden request bytes from the spec and reply parsing. */
#include "proto/message.h"
#include "proto/profiler_codec.h"
#include "test.h"

#include <stdlib.h>

/* The AttachProfiler example of docs/protocol.md 3.3, byte for byte. */
static const uint8_t spec_attach_example[63] = {
    0x44, 0x4F, 0x54, 0x4E, 0x45, 0x54, 0x5F, 0x49, 0x50, 0x43, 0x5F, 0x56, 0x31, 0x00,
    0x3F, 0x00, 0x03, 0x01, 0x00, 0x00,
    0x88, 0x13, 0x00, 0x00,
    0x1C, 0x5F, 0x6F, 0x84, 0xAE, 0xF9, 0x07, 0x4B, 0x96, 0x9E, 0x05, 0xC2, 0x6B, 0xC0, 0x60, 0xD8,
    0x06, 0x00, 0x00, 0x00, 0x2F, 0x00, 0x70, 0x00, 0x2E, 0x00, 0x73, 0x00, 0x6F, 0x00, 0x00, 0x00,
    0x03, 0x00, 0x00, 0x00, 0x61, 0x62, 0x63};

/* OK(S_OK) and Error(BAD_ENCODING) as the runtime sends them: 24 bytes (docs/protocol.md 2.2). */
static const uint8_t reply_ok[24] = {0x44, 0x4F, 0x54, 0x4E, 0x45, 0x54, 0x5F, 0x49,
                                     0x50, 0x43, 0x5F, 0x56, 0x31, 0x00, 0x18, 0x00,
                                     0xFF, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
static const uint8_t reply_bad_encoding[24] = {0x44, 0x4F, 0x54, 0x4E, 0x45, 0x54, 0x5F, 0x49,
                                               0x50, 0x43, 0x5F, 0x56, 0x31, 0x00, 0x18, 0x00,
                                               0xFF, 0xFF, 0x00, 0x00, 0x84, 0x13, 0x13, 0x80};

TEST(message_attach_request_matches_spec_example)
{
    uint8_t buf[128];
    clra__writer_t w;
    clra_guid_t clsid;
    ASSERT_EQ(clra_guid_parse("846F5F1C-F9AE-4B07-969E-05C26BC060D8", &clsid), 0);
    clra__writer_init(&w, buf, sizeof buf);
    ASSERT_EQ(clra__build_attach_profiler(&w, 5000, &clsid, "/p.so", "abc", 3), 0);
    ASSERT_EQ(w.len, sizeof spec_attach_example);
    ASSERT_MEMEQ(buf, spec_attach_example, sizeof spec_attach_example);
}

TEST(message_attach_with_no_client_data_sends_length_zero)
{
    uint8_t buf[128];
    clra__writer_t w;
    clra_guid_t clsid = {0};
    clra__writer_init(&w, buf, sizeof buf);
    ASSERT_EQ(clra__build_attach_profiler(&w, 0xFFFFFFFFu, &clsid, "/p.so", NULL, 0), 0);
    ASSERT_EQ(w.len, 60);
    ASSERT_EQ(buf[14], 60);
    ASSERT_MEMEQ(buf + 20, "\xFF\xFF\xFF\xFF", 4);
    ASSERT_MEMEQ(buf + 56, "\0\0\0\0", 4);
}

TEST(message_attach_largest_client_data_fits_exactly)
{
    uint8_t *buf = malloc(CLRA__MAX_MESSAGE + 16);
    uint8_t *data = calloc(1, CLRA_MAX_CLIENT_DATA + 1);
    clra__writer_t w;
    clra_guid_t clsid = {0};
    clra__writer_init(&w, buf, CLRA__MAX_MESSAGE);
    ASSERT_EQ(clra__build_attach_profiler(&w, 1, &clsid, "/", data, CLRA_MAX_CLIENT_DATA), 0);
    ASSERT_EQ(w.len, CLRA__MAX_MESSAGE);
    ASSERT_EQ(buf[14] | (buf[15] << 8), 65535);
    clra__writer_init(&w, buf, CLRA__MAX_MESSAGE);
    ASSERT_EQ(clra__build_attach_profiler(&w, 1, &clsid, "/", data, CLRA_MAX_CLIENT_DATA + 1),
              CLRA_ETOOBIG);
    free(buf);
    free(data);
}

TEST(message_ok_reply_parses_to_s_ok)
{
    clra__header_t h;
    int32_t hr = -1;
    ASSERT_EQ(clra__parse_header(reply_ok, &h), 0);
    ASSERT_EQ(h.size, 24);
    ASSERT_EQ(clra__parse_hresult_reply(&h, reply_ok + 20, 4, &hr), 0);
    ASSERT_EQ(hr, 0);
}

TEST(message_error_reply_parses_to_its_hresult)
{
    clra__header_t h;
    int32_t hr = 0;
    ASSERT_EQ(clra__parse_header(reply_bad_encoding, &h), 0);
    ASSERT_EQ(clra__parse_hresult_reply(&h, reply_bad_encoding + 20, 4, &hr), CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)hr, 0x80131384u);
}

TEST(message_spec_28_byte_reply_form_is_also_accepted)
{
    /* The spec draws int32 replies as 28 bytes; trust size and ignore the tail. */
    uint8_t r28[28] = {0};
    memcpy(r28, reply_bad_encoding, 24);
    r28[14] = 28;
    clra__header_t h;
    int32_t hr;
    ASSERT_EQ(clra__parse_header(r28, &h), 0);
    ASSERT_EQ(clra__parse_hresult_reply(&h, r28 + 20, 8, &hr), CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)hr, 0x80131384u);
}

TEST(message_header_with_bad_magic_is_rejected)
{
    uint8_t bad[24];
    clra__header_t h;
    memcpy(bad, reply_ok, 24);
    bad[12] = '2'; /* DOTNET_IPC_V2 */
    ASSERT_EQ(clra__parse_header(bad, &h), CLRA_EPROTO);
}

TEST(message_header_smaller_than_itself_is_rejected)
{
    uint8_t bad[24];
    clra__header_t h;
    memcpy(bad, reply_ok, 24);
    bad[14] = 19;
    ASSERT_EQ(clra__parse_header(bad, &h), CLRA_EPROTO);
}

TEST(message_reply_without_hresult_is_rejected)
{
    clra__header_t h = {20, 0xFF, 0x00};
    int32_t hr;
    ASSERT_EQ(clra__parse_hresult_reply(&h, NULL, 0, &hr), CLRA_EPROTO);
    h.size = 23;
    ASSERT_EQ(clra__parse_hresult_reply(&h, (const uint8_t *)"\0\0\0", 3, &hr), CLRA_EPROTO);
}

TEST(message_reply_from_wrong_command_set_is_rejected)
{
    clra__header_t h = {24, 0x03, 0x01};
    int32_t hr;
    ASSERT_EQ(clra__parse_hresult_reply(&h, (const uint8_t *)"\0\0\0\0", 4, &hr), CLRA_EPROTO);
    h.command_set = 0xFF;
    h.command_id = 0x42;
    ASSERT_EQ(clra__parse_hresult_reply(&h, (const uint8_t *)"\0\0\0\0", 4, &hr), CLRA_EPROTO);
}

TEST(message_error_reply_carrying_success_is_rejected)
{
    clra__header_t h = {24, 0xFF, 0xFF};
    int32_t hr;
    ASSERT_EQ(clra__parse_hresult_reply(&h, (const uint8_t *)"\0\0\0\0", 4, &hr), CLRA_EPROTO);
}
