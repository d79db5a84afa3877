/* Unit tests of CollectTracing5 event-id filters and CollectTracing6's buffering mode: golden
 * bytes written out by hand from docs/protocol.md 3.2 (providers-v5, the trailing mode), when
 * each makes a session use CT5/CT6, the "Name:ID,ID" text form with its refusals, and the
 * message a runtime without CT6 earns (fake server). */
#include "test.h"
#include "fakesrv.h"
#include "proto/eventpipe_codec.h"
#include "trace.h"

#define MAGIC 0x44, 0x4F, 0x54, 0x4E, 0x45, 0x54, 0x5F, 0x49, 0x50, 0x43, 0x5F, 0x56, 0x31, 0x00

/* CT5 (0x0206), streaming: 256 MB, NetTrace, the default rundown keyword, stacks on; "P"
 * (keywords 1, Informational) keeping only ids 7 and 300, "Q" (0, Verbose) unfiltered
 * (111 bytes). */
static const uint8_t ct5_bytes[111] = {
    MAGIC, 0x6F, 0x00, 0x02, 0x06, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00,                         /* session type 0: streaming */
    0x00, 0x01, 0x00, 0x00,                         /* circularBufferMB 256 */
    0x01, 0x00, 0x00, 0x00,                         /* format NetTrace */
    0x39, 0x01, 0x02, 0x80, 0x00, 0x00, 0x00, 0x00, /* rundownKeyword 0x80020139 */
    0x01,                                           /* requestStackwalk */
    0x02, 0x00, 0x00, 0x00,                         /* two providers */
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x50, 0x00, 0x00, 0x00, /* "P" */
    0x00, 0x00, 0x00, 0x00,                         /* arguments: NULL */
    0x01,                                           /* enable: an allow list */
    0x02, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x2C, 0x01, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00,
    0x02, 0x00, 0x00, 0x00, 0x51, 0x00, 0x00, 0x00, /* "Q" */
    0x00, 0x00, 0x00, 0x00,
    0x00,                                           /* no filter: deny nothing */
    0x00, 0x00, 0x00, 0x00};

/* The tail of "Q" with --exclude-event-ids Q:5 instead: a deny list of one id. */
static const uint8_t q_denies_5[] = {0x00, 0x01, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00};

static void p_and_q(clra_trace_config_t *cfg)
{
    clra_trace_config_init(cfg);
    ASSERT_EQ(clra_trace_config_add_provider(cfg, "P", 1, 4, NULL, NULL), 0);
    ASSERT_EQ(clra_trace_config_add_provider(cfg, "Q", 0, 5, NULL, NULL), 0);
}

static size_t build(const clra_trace_config_t *cfg, uint8_t *buf, size_t cap)
{
    clra__writer_t w;
    clra__writer_init(&w, buf, cap);
    ASSERT_EQ(clra__build_collect_tracing(&w, cfg, clra_trace_config_version(cfg)), 0);
    return w.len;
}

TEST(trace_ct5_request_carries_an_allow_list_and_an_empty_filter)
{
    clra_trace_config_t cfg;
    clra_status_t st;
    uint8_t buf[256];
    const uint32_t ids[] = {7, 300};
    p_and_q(&cfg);
    ASSERT_EQ(clra_trace_config_version(&cfg), 1); /* no filter, no CT5 */
    ASSERT_EQ(clra_trace_config_filter_events(&cfg, "P", 1, ids, 2, &st), 0);
    ASSERT_EQ(clra_trace_config_version(&cfg), 5);
    ASSERT_STREQ(clra_trace_version_runtime(5), ".NET 10");
    ASSERT_EQ(build(&cfg, buf, sizeof buf), sizeof ct5_bytes);
    ASSERT_MEMEQ(buf, ct5_bytes, sizeof ct5_bytes);
    clra_trace_config_free(&cfg);
}

TEST(trace_ct5_deny_list_from_text)
{
    clra_trace_config_t cfg;
    clra_status_t st;
    uint8_t buf[256];
    p_and_q(&cfg);
    ASSERT_EQ(clra_trace_config_parse_event_filter(&cfg, "Q:5", 0, &st), 0);
    size_t n = build(&cfg, buf, sizeof buf);
    ASSERT_EQ(n, 20 + 25 + 29 + 29 + 4); /* P unfiltered, Q with one id */
    ASSERT_MEMEQ(buf + n - sizeof q_denies_5, q_denies_5, sizeof q_denies_5);
    clra_trace_config_free(&cfg);
}

TEST(trace_ct5_filter_needs_a_known_provider_and_one_list)
{
    clra_trace_config_t cfg;
    clra_status_t st;
    const uint32_t id = 1;
    p_and_q(&cfg);
    ASSERT_EQ(clra_trace_config_filter_events(&cfg, "Z", 1, &id, 1, &st), CLRA_EINVAL);
    ASSERT_STREQ(st.detail, "event filter for 'Z', which is not among the providers");
    ASSERT_EQ(clra_trace_config_filter_events(&cfg, "P", 1, &id, 0, &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "needs 1 to 1024 ids, not 0");
    ASSERT_EQ(clra_trace_config_version(&cfg), 1);
    ASSERT_EQ(clra_trace_config_filter_events(&cfg, "P", 1, &id, 1, &st), 0);
    ASSERT_EQ(clra_trace_config_filter_events(&cfg, "P", 0, &id, 1, &st), CLRA_EINVAL);
    ASSERT_STREQ(st.detail, "provider 'P' has an event filter already; give all its ids in "
                            "one list");
    clra_trace_config_free(&cfg);
}

TEST(trace_ct5_filter_text_refuses_what_is_not_name_colon_ids)
{
    static const char *const bad[] = {"P",     "P:",     ":1",    "P:1,,2", "P:-1",
                                      "P:+1",  "P:1,",   "P:0x1", "P:1 2",  "P:4294967296"};
    clra_trace_config_t cfg;
    clra_status_t st;
    p_and_q(&cfg);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ASSERT_MSG(clra_trace_config_parse_event_filter(&cfg, bad[i], 1, &st) == CLRA_EINVAL,
                   "accepted '%s'", bad[i]);
        ASSERT_CONTAINS(st.detail, "event filter '");
    }
    ASSERT_EQ(clra_trace_config_version(&cfg), 1); /* nothing was attached */
    ASSERT_EQ(clra_trace_config_parse_event_filter(&cfg, "P:4294967295,0", 1, &st), 0);
    ASSERT_EQ(clra_trace_config_version(&cfg), 5);
    clra_trace_config_free(&cfg);
}

TEST(trace_ct5_filter_caps_the_id_count)
{
    clra_trace_config_t cfg;
    clra_status_t st;
    static char spec[16 * 1100];
    size_t used = (size_t)snprintf(spec, sizeof spec, "P:");
    for (int i = 0; i < CLRA_TRACE_MAX_EVENT_IDS + 1; i++)
        used += (size_t)snprintf(spec + used, sizeof spec - used, i ? ",%d" : "%d", i);
    p_and_q(&cfg);
    ASSERT_EQ(clra_trace_config_parse_event_filter(&cfg, spec, 1, &st), CLRA_EINVAL);
    *strrchr(spec, ',') = '\0'; /* exactly the maximum */
    ASSERT_EQ(clra_trace_config_parse_event_filter(&cfg, spec, 1, &st), 0);
    uint8_t buf[8192];
    ASSERT(build(&cfg, buf, sizeof buf) > 4 * CLRA_TRACE_MAX_EVENT_IDS);
    clra_trace_config_free(&cfg);
}

/* CT6 (0x0207): the CT5 request above with a trailing uint32 buffering mode 1 (block). */
static const uint8_t ct6_tail[] = {0x00, 0x00, 0x00, 0x00, 0x00, /* Q: no filter */
                                   0x01, 0x00, 0x00, 0x00};       /* bufferingMode 1 */

TEST(trace_ct6_request_is_ct5_with_the_buffering_mode_last)
{
    clra_trace_config_t cfg;
    clra_status_t st;
    uint8_t buf[256];
    const uint32_t ids[] = {7, 300};
    p_and_q(&cfg);
    ASSERT_EQ(clra_trace_config_filter_events(&cfg, "P", 1, ids, 2, &st), 0);
    ASSERT_EQ(clra_trace_config_set_buffering(&cfg, CLRA_TRACE_BUFFERING_BLOCK, &st), 0);
    ASSERT_EQ(clra_trace_config_version(&cfg), 6);
    ASSERT_EQ(build(&cfg, buf, sizeof buf), sizeof ct5_bytes + 4);
    ASSERT_EQ(buf[14], sizeof ct5_bytes + 4); /* size 115 */
    ASSERT_EQ(buf[17], 0x07);
    ASSERT_MEMEQ(buf + 18, ct5_bytes + 18, sizeof ct5_bytes - 18);
    ASSERT_MEMEQ(buf + sizeof ct5_bytes + 4 - sizeof ct6_tail, ct6_tail, sizeof ct6_tail);
    /* Drop is the runtime's default: back to the oldest form that expresses the rest. */
    ASSERT_EQ(clra_trace_config_set_buffering(&cfg, CLRA_TRACE_BUFFERING_DROP, &st), 0);
    ASSERT_EQ(clra_trace_config_version(&cfg), 5);
    ASSERT_EQ(clra_trace_config_set_buffering(&cfg, (clra_trace_buffering_t)2, &st), CLRA_EINVAL);
    ASSERT_STREQ(st.detail, "buffering mode 2: use drop (0) or block (1)");
    clra_trace_config_free(&cfg);
}

TEST(trace_ct6_block_without_filters_still_sends_empty_filters)
{
    clra_trace_config_t cfg;
    uint8_t buf[256];
    clra_trace_config_init(&cfg);
    cfg.rundown_keyword = 0;
    ASSERT_EQ(clra_trace_config_add_provider(&cfg, "Q", 0, 5, NULL, NULL), 0);
    ASSERT_EQ(clra_trace_config_set_buffering(&cfg, CLRA_TRACE_BUFFERING_BLOCK, NULL), 0);
    size_t n = build(&cfg, buf, sizeof buf);
    ASSERT_EQ(n, 20 + 25 + 29 + 4);
    ASSERT_EQ(buf[20 + 4 + 4 + 4], 0x00); /* rundown keyword 0 */
    ASSERT_MEMEQ(buf + n - sizeof ct6_tail, ct6_tail, sizeof ct6_tail);
    clra_trace_config_free(&cfg);
}

TEST(trace_ct6_unknown_command_says_block_mode_needs_net11)
{
    static const uint8_t unknown[24] = {'D', 'O', 'T', 'N', 'E', 'T', '_', 'I', 'P', 'C', '_', 'V',
                                        '1', 0, 24, 0, 0xFF, 0xFF, 0, 0, 0x85, 0x13, 0x13, 0x80};
    fakesrv_t *srv = fakesrv_start(FAKESRV_REPLY, unknown, sizeof unknown, 0);
    clra_target_t ep;
    clra_trace_config_t cfg;
    clra_trace_session_t ts;
    clra_status_t st;
    uint8_t req[128];
    ASSERT(srv != NULL);
    ep = clra_target_socket(fakesrv_path(srv));
    clra_trace_config_init(&cfg);
    ASSERT_EQ(clra_trace_config_add_provider(&cfg, "P", 1, 4, NULL, NULL), 0);
    ASSERT_EQ(clra_trace_config_set_buffering(&cfg, CLRA_TRACE_BUFFERING_BLOCK, NULL), 0);
    ASSERT_EQ(clra_trace_start(&ep, &cfg, 2000, &ts, &st), CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)st.hresult, 0x80131385u);
    ASSERT_STREQ(st.detail, "the runtime does not know CollectTracing6, which the blocking "
                            "buffering mode (--buffering-mode block) needs: it needs .NET 11 or "
                            "later");
    size_t n = fakesrv_request(srv, req, sizeof req);
    ASSERT_EQ(n, 20 + 25 + 29 + 4);
    ASSERT_EQ(req[17], 0x07);
    ASSERT_MEMEQ(req + n - sizeof ct6_tail, ct6_tail, sizeof ct6_tail);
    clra_trace_config_free(&cfg);
    fakesrv_stop(srv);
}
