/* Unit tests of the EventPipe requests: golden bytes written out by hand from
 * docs/protocol.md 3.2, the choice of CollectTracing version, local checks and the
 * session-id reply parser. */
#include "test.h"
#include "proto/eventpipe_codec.h"
#include "trace.h"

#include <stdlib.h>

#define MAGIC 0x44, 0x4F, 0x54, 0x4E, 0x45, 0x54, 0x5F, 0x49, 0x50, 0x43, 0x5F, 0x56, 0x31, 0x00
/* "MyEventSource" as the protocol's string: 14 code units with the NUL. */
#define MY_EVENT_SOURCE                                                                        \
    0x0E, 0x00, 0x00, 0x00, 0x4D, 0x00, 0x79, 0x00, 0x45, 0x00, 0x76, 0x00, 0x65, 0x00, 0x6E,  \
        0x00, 0x74, 0x00, 0x53, 0x00, 0x6F, 0x00, 0x75, 0x00, 0x72, 0x00, 0x63, 0x00, 0x65,    \
        0x00, 0x00, 0x00

/* The worked CT2 example of docs/protocol.md 3.2, byte for byte (81 bytes). */
static const uint8_t spec_ct2_example[81] = {
    MAGIC, 0x51, 0x00, 0x02, 0x03, 0x00, 0x00,
    0x00, 0x01, 0x00, 0x00,                         /* circularBufferMB 256 */
    0x01, 0x00, 0x00, 0x00,                         /* format NetTrace */
    0x01,                                           /* requestRundown */
    0x01, 0x00, 0x00, 0x00,                         /* one provider */
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* keywords 1 */
    0x04, 0x00, 0x00, 0x00,                         /* level 4 */
    MY_EVENT_SOURCE,
    0x00, 0x00, 0x00, 0x00}; /* no arguments: the NULL string */

/* The same session as CT1 (0x0202): no rundown byte, so 80 bytes. */
static const uint8_t ct1_bytes[80] = {
    MAGIC, 0x50, 0x00, 0x02, 0x02, 0x00, 0x00,
    0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
    MY_EVENT_SOURCE,
    0x00, 0x00, 0x00, 0x00};

/* CT3 (0x0204): 16 MB, rundown off, stackwalk off, provider "A" with every keyword, Verbose,
 * arguments "k=v" (66 bytes). */
static const uint8_t ct3_bytes[66] = {
    MAGIC, 0x42, 0x00, 0x02, 0x04, 0x00, 0x00,
    0x10, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
    0x00,                                           /* requestRundown */
    0x00,                                           /* requestStackwalk */
    0x01, 0x00, 0x00, 0x00,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x05, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x41, 0x00, 0x00, 0x00,
    0x04, 0x00, 0x00, 0x00, 0x6B, 0x00, 0x3D, 0x00, 0x76, 0x00, 0x00, 0x00};

/* CT4 (0x0205): 256 MB, rundown keyword 0x8, stackwalk on, providers "P" (keywords 0,
 * LogAlways) and "Q" (0x10, Informational) (89 bytes). */
static const uint8_t ct4_bytes[89] = {
    MAGIC, 0x59, 0x00, 0x02, 0x05, 0x00, 0x00,
    0x00, 0x01, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
    0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* rundownKeyword */
    0x01,                                           /* requestStackwalk */
    0x02, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x50, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x10, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x51, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};

/* StopTracing (0x0201) for session 0x00007F0C0C0013A0: exactly 8 payload bytes (28). */
static const uint8_t stop_bytes[28] = {MAGIC, 0x1C, 0x00, 0x02, 0x01, 0x00, 0x00,
                                       0xA0, 0x13, 0x00, 0x0C, 0x0C, 0x7F, 0x00, 0x00};

static void my_event_source(clra_trace_config_t *cfg)
{
    clra_trace_config_init(cfg);
    ASSERT_EQ(clra_trace_config_add_provider(cfg, "MyEventSource", 1, 4, NULL, NULL), 0);
}

static size_t build(const clra_trace_config_t *cfg, int version, uint8_t *buf, size_t cap)
{
    clra__writer_t w;
    clra__writer_init(&w, buf, cap);
    ASSERT_EQ(clra__build_collect_tracing(&w, cfg, version), 0);
    return w.len;
}

TEST(trace_ct2_request_matches_the_spec_example)
{
    clra_trace_config_t cfg;
    uint8_t buf[256];
    my_event_source(&cfg);
    ASSERT_EQ(build(&cfg, 2, buf, sizeof buf), sizeof spec_ct2_example);
    ASSERT_MEMEQ(buf, spec_ct2_example, sizeof spec_ct2_example);
    clra_trace_config_free(&cfg);
}

TEST(trace_default_session_is_ct1_without_the_rundown_byte)
{
    clra_trace_config_t cfg;
    uint8_t buf[256];
    my_event_source(&cfg);
    ASSERT_EQ(clra_trace_config_version(&cfg), 1);
    ASSERT_EQ(build(&cfg, 1, buf, sizeof buf), sizeof ct1_bytes);
    ASSERT_MEMEQ(buf, ct1_bytes, sizeof ct1_bytes);
    clra_trace_config_free(&cfg);
}

TEST(trace_ct3_request_carries_both_bools_and_arguments)
{
    clra_trace_config_t cfg;
    uint8_t buf[256];
    clra_trace_config_init(&cfg);
    cfg.buffer_mb = 16;
    cfg.rundown_keyword = 0;
    cfg.stackwalk = 0;
    ASSERT_EQ(clra_trace_config_add_provider(&cfg, "A", CLRA_TRACE_ALL_KEYWORDS, 5, "k=v", NULL),
              0);
    ASSERT_EQ(clra_trace_config_version(&cfg), 3);
    ASSERT_EQ(build(&cfg, 3, buf, sizeof buf), sizeof ct3_bytes);
    ASSERT_MEMEQ(buf, ct3_bytes, sizeof ct3_bytes);
    clra_trace_config_free(&cfg);
}

TEST(trace_ct4_request_carries_the_rundown_keyword)
{
    clra_trace_config_t cfg;
    uint8_t buf[256];
    clra_trace_config_init(&cfg);
    cfg.rundown_keyword = 0x8;
    ASSERT_EQ(clra_trace_config_add_provider(&cfg, "P", 0, 0, NULL, NULL), 0);
    ASSERT_EQ(clra_trace_config_add_provider(&cfg, "Q", 0x10, 4, NULL, NULL), 0);
    ASSERT_EQ(clra_trace_config_version(&cfg), 4);
    ASSERT_EQ(build(&cfg, 4, buf, sizeof buf), sizeof ct4_bytes);
    ASSERT_MEMEQ(buf, ct4_bytes, sizeof ct4_bytes);
    clra_trace_config_free(&cfg);
}

TEST(trace_stop_request_is_exactly_the_session_id)
{
    uint8_t buf[64];
    clra__writer_t w;
    clra__writer_init(&w, buf, sizeof buf);
    ASSERT_EQ(clra__build_stop_tracing(&w, 0x00007F0C0C0013A0ull), 0);
    ASSERT_EQ(w.len, sizeof stop_bytes);
    ASSERT_MEMEQ(buf, stop_bytes, sizeof stop_bytes);
}

TEST(trace_version_is_the_oldest_that_expresses_the_options)
{
    clra_trace_config_t cfg;
    clra_trace_config_init(&cfg);
    ASSERT_EQ(clra_trace_config_version(&cfg), 1);
    cfg.rundown_keyword = 0;
    ASSERT_EQ(clra_trace_config_version(&cfg), 2);
    cfg.stackwalk = 0;
    ASSERT_EQ(clra_trace_config_version(&cfg), 3);
    cfg.rundown_keyword = CLRA_TRACE_RUNDOWN_DEFAULT;
    ASSERT_EQ(clra_trace_config_version(&cfg), 3);
    cfg.rundown_keyword = 0x8;
    ASSERT_EQ(clra_trace_config_version(&cfg), 4);
    cfg.stackwalk = 1;
    ASSERT_EQ(clra_trace_config_version(&cfg), 4);
    ASSERT_STREQ(clra_trace_version_runtime(2), ".NET Core 3.0");
    ASSERT_STREQ(clra_trace_version_runtime(3), ".NET 9");
    ASSERT_STREQ(clra_trace_version_runtime(4), ".NET 9");
}

/* Starts against a path nobody listens on: local checks must fail first, with their reason. */
static int start_nowhere(const clra_trace_config_t *cfg, clra_status_t *st)
{
    clra_target_t ep;
    clra_trace_session_t s;
    ep = clra_target_socket("/nonexistent/dotnet-diagnostic-1-1-socket");
    return clra_trace_start(&ep, cfg, 1000, &s, st);
}

TEST(trace_start_refuses_no_providers_and_a_zero_buffer_before_connecting)
{
    clra_trace_config_t cfg;
    clra_status_t st;
    clra_trace_config_init(&cfg);
    ASSERT_EQ(start_nowhere(&cfg, &st), CLRA_EINVAL);
    ASSERT_STREQ(st.detail, "0 providers: a session needs 1 to 1000");
    ASSERT_EQ(clra_trace_config_add_provider(&cfg, "P", 0, 4, NULL, NULL), 0);
    cfg.buffer_mb = 0;
    ASSERT_EQ(start_nowhere(&cfg, &st), CLRA_EINVAL);
    ASSERT_STREQ(st.detail, "the session buffer must be at least 1 MB");
    cfg.buffer_mb = 1;
    cfg.providers[0].level = 6; /* set behind the API's back */
    ASSERT_EQ(start_nowhere(&cfg, &st), CLRA_EINVAL);
    ASSERT_STREQ(st.detail, "provider 'P': level 6 is above 5 (Verbose)");
    clra_trace_config_free(&cfg);
}

TEST(trace_add_provider_checks_name_level_count_and_utf8)
{
    clra_trace_config_t cfg;
    clra_status_t st;
    clra_trace_config_init(&cfg);
    ASSERT_EQ(clra_trace_config_add_provider(&cfg, "", 0, 4, NULL, &st), CLRA_EINVAL);
    ASSERT_STREQ(st.detail, "a provider needs a non-empty name");
    ASSERT_EQ(clra_trace_config_add_provider(&cfg, "P", 0, 6, NULL, &st), CLRA_EINVAL);
    ASSERT_STREQ(st.detail, "provider 'P': level 6 is above 5 (Verbose)");
    ASSERT_EQ(clra_trace_config_add_provider(&cfg, "P\xC3", 0, 4, NULL, &st), CLRA_EENCODING);
    for (int i = 0; i < CLRA_TRACE_MAX_PROVIDERS; i++)
        ASSERT_EQ(clra_trace_config_add_provider(&cfg, "P", 0, 4, NULL, &st), 0);
    ASSERT_EQ(clra_trace_config_add_provider(&cfg, "P", 0, 4, NULL, &st), CLRA_EINVAL);
    ASSERT_STREQ(st.detail, "more than 1000 providers; the runtime accepts at most that many");
    ASSERT_EQ(cfg.provider_count, 1000);
    clra_trace_config_free(&cfg);
    ASSERT_EQ(cfg.provider_count, 0);
}

TEST(trace_start_refuses_a_request_over_65535_bytes)
{
    clra_trace_config_t cfg;
    clra_status_t st;
    char name[101];
    memset(name, 'N', 100);
    name[100] = '\0';
    clra_trace_config_init(&cfg);
    for (int i = 0; i < 400; i++) /* 400 x (16 + 4 + 202 + 4) bytes */
        ASSERT_EQ(clra_trace_config_add_provider(&cfg, name, 0, 4, NULL, NULL), 0);
    ASSERT_EQ(start_nowhere(&cfg, &st), CLRA_ETOOBIG);
    ASSERT_CONTAINS(st.detail, "400 providers with their names and arguments exceed");
    clra_trace_config_free(&cfg);
}

/* Parses a reply given as its header fields and payload. */
static int parse(uint8_t set, uint8_t id, const void *payload, size_t len, uint64_t *sid,
                 clra_status_t *st)
{
    clra__header_t h = {(uint16_t)(20 + len), set, id};
    memset(st, 0, sizeof *st);
    return clra__parse_session_reply(&h, payload, len, sid, st);
}

TEST(trace_session_reply_gives_the_8_byte_id)
{
    clra_status_t st;
    uint64_t id;
    ASSERT_EQ(parse(0xFF, 0x00, "\xA0\x13\x00\x0C\x0C\x7F\x00\x00", 8, &id, &st), 0);
    ASSERT_EQ(id, 0x00007F0C0C0013A0ull);
}

TEST(trace_session_reply_rejects_short_long_and_zero_ids)
{
    clra_status_t st;
    uint64_t id;
    ASSERT_EQ(parse(0xFF, 0x00, "\0\0\0\0", 4, &id, &st), CLRA_EPROTO);
    ASSERT_STREQ(st.detail, "expected OK with an 8-byte session id, got command set 0xFF id 0x00 "
                            "with 4 payload bytes");
    ASSERT_EQ(parse(0xFF, 0x00, "0123456789abcdef", 16, &id, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "with 16 payload bytes");
    ASSERT_EQ(parse(0xFF, 0x00, "\0\0\0\0\0\0\0\0", 8, &id, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "session 0");
    ASSERT_EQ(parse(0x02, 0x00, "12345678", 8, &id, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "command set 0x02");
}

TEST(trace_session_reply_error_is_a_refusal_with_its_hresult)
{
    clra_status_t st;
    uint64_t id;
    ASSERT_EQ(parse(0xFF, 0xFF, "\x85\x13\x13\x80", 4, &id, &st), CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)st.hresult, 0x80131385u);
    ASSERT_EQ(parse(0xFF, 0xFF, "\x85\x13", 2, &id, &st), CLRA_EPROTO); /* error without code */
    ASSERT_CONTAINS(st.detail, "with 2 payload bytes");
}
