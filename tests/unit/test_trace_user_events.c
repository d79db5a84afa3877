/* Unit tests of CollectTracing5 user_events sessions: golden bytes written out by hand from the
 * runtime's CT5 parser (docs/protocol.md 3.2: session type 1, no buffer, format or stackwalk,
 * a tracepoint configuration after each provider's event filter), the refusals, and the
 * user_events_data descriptor passed with SCM_RIGHTS after the request, received by the fake
 * server with one 1-byte recvmsg as the runtime does and compared by inode. */
#define _GNU_SOURCE
#include "test.h"
#include "fakesrv.h"
#include "proto/eventpipe_codec.h"
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC 0x44, 0x4F, 0x54, 0x4E, 0x45, 0x54, 0x5F, 0x49, 0x50, 0x43, 0x5F, 0x56, 0x31, 0x00

/* CT5 (0x0206) as a user_events session: no rundown; provider "P" (keywords 1, Informational),
 * no event filter, default tracepoint "tp", and ids 7 and 300 sent to tracepoint "Hot"
 * (103 bytes). */
static const uint8_t ue_bytes[103] = {
    MAGIC, 0x67, 0x00, 0x02, 0x06, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00,                         /* session type 1: user_events */
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* rundownKeyword 0 */
    0x01, 0x00, 0x00, 0x00,                         /* one provider */
    0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, /* keywords 1 */
    0x04, 0x00, 0x00, 0x00,                         /* Informational */
    0x02, 0x00, 0x00, 0x00, 0x50, 0x00, 0x00, 0x00, /* "P" */
    0x00, 0x00, 0x00, 0x00,                         /* arguments: NULL */
    0x00, 0x00, 0x00, 0x00, 0x00,                   /* event filter: deny nothing */
    0x03, 0x00, 0x00, 0x00, 0x74, 0x00, 0x70, 0x00, 0x00, 0x00, /* default tracepoint "tp" */
    0x01, 0x00, 0x00, 0x00,                         /* one tracepoint set */
    0x04, 0x00, 0x00, 0x00, 0x48, 0x00, 0x6F, 0x00, 0x74, 0x00, 0x00, 0x00, /* "Hot" */
    0x02, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x2C, 0x01, 0x00, 0x00}; /* ids 7, 300 */

/* OK with session id 0x1122334455667788. */
static const uint8_t ok_sid[28] = {MAGIC, 28, 0, 0xFF, 0, 0, 0,
                                   0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11};

/* A session without a stream must never deliver bytes. */
static int no_bytes(void *ctx, const void *data, size_t len)
{
    (void)ctx;
    (void)data;
    return len == 0 ? 0 : -1;
}

/* The configuration of ue_bytes, with data_fd as the descriptor to pass. */
static void p_hot(clra_trace_config_t *cfg, int data_fd)
{
    clra_status_t st;
    clra_trace_config_init(cfg);
    cfg->rundown_keyword = 0;
    ASSERT_EQ(clra_trace_config_add_provider(cfg, "P", 1, 4, NULL, NULL), 0);
    ASSERT_EQ(clra_trace_config_set_user_events(cfg, "tp", data_fd, &st), 0);
    ASSERT_EQ(clra_trace_config_parse_tracepoint(cfg, "P:Hot=7,300", &st), 0);
}

TEST(trace_user_events_request_has_the_session_type_and_tracepoints)
{
    clra_trace_config_t cfg;
    clra__writer_t w;
    uint8_t buf[256];
    p_hot(&cfg, -1);
    ASSERT_EQ(clra_trace_config_version(&cfg), 5);
    ASSERT_EQ(clra__trace_config_check(&cfg, NULL), 0);
    clra__writer_init(&w, buf, sizeof buf);
    ASSERT_EQ(clra__build_collect_tracing(&w, &cfg, 5), 0);
    ASSERT_EQ(w.len, sizeof ue_bytes);
    ASSERT_MEMEQ(buf, ue_bytes, sizeof ue_bytes);
    clra_trace_config_free(&cfg);
}

TEST(trace_user_events_refusals_say_what_is_wrong)
{
    clra_trace_config_t cfg;
    clra_status_t st;
    const uint32_t id = 1;
    clra_trace_config_init(&cfg);
    ASSERT_EQ(clra_trace_config_add_provider(&cfg, "P", 1, 4, NULL, NULL), 0);
    ASSERT_EQ(clra_trace_config_add_tracepoint(&cfg, "P", "tp", &id, 1, &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "set one up first");
    ASSERT_EQ(clra_trace_config_set_user_events(&cfg, "has space", -1, &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "letters, digits or '_'");
    ASSERT_EQ(clra_trace_config_set_user_events(&cfg, NULL, -1, &st), 0);
    ASSERT_EQ(clra_trace_config_set_user_events(&cfg, NULL, -1, &st), CLRA_EINVAL);
    ASSERT_EQ(clra__trace_config_check(&cfg, &st), CLRA_EINVAL); /* P goes nowhere */
    ASSERT_CONTAINS(st.detail, "provider 'P' has no tracepoint");
    ASSERT_EQ(clra_trace_config_parse_tracepoint(&cfg, "Q:tp=1", &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "'Q', which is not among the providers");
    ASSERT_EQ(clra_trace_config_parse_tracepoint(&cfg, "P:tp=", &st), CLRA_EINVAL);
    ASSERT_EQ(clra_trace_config_parse_tracepoint(&cfg, "P:tp=1,x", &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "decimal event ids");
    ASSERT_EQ(clra_trace_config_parse_tracepoint(&cfg, "P=1", &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "Provider:Tracepoint=ID");
    ASSERT_EQ(clra_trace_config_parse_tracepoint(&cfg, "P:tp=1", &st), 0);
    ASSERT_EQ(clra__trace_config_check(&cfg, &st), 0);
    ASSERT_EQ(clra_trace_config_set_buffering(&cfg, CLRA_TRACE_BUFFERING_BLOCK, NULL), 0);
    ASSERT_EQ(clra__trace_config_check(&cfg, &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "no buffer to block on");
    clra_trace_config_free(&cfg);
}

/* Provider specs parsed after the session is set up keep it (they replace the provider list
 * only). */
TEST(trace_user_events_survive_a_later_provider_list)
{
    clra_trace_config_t cfg;
    clra_status_t st;
    clra_trace_config_init(&cfg);
    ASSERT_EQ(clra_trace_config_set_user_events(&cfg, "tp", -1, &st), 0);
    ASSERT_EQ(clra_trace_config_parse_providers(&cfg, "P:1:4,Q", &st), 0);
    ASSERT(clra__trace_user_events(&cfg) != NULL);
    ASSERT_STREQ(clra__trace_user_events(&cfg)->tracepoint, "tp");
    ASSERT_EQ(clra_trace_config_version(&cfg), 5);
    clra_trace_config_free(&cfg);
    ASSERT(clra__trace_user_events(&cfg) == NULL);
}

TEST(trace_user_events_passes_the_descriptor_after_the_request)
{
    char path[] = "/tmp/clra-ue-XXXXXX";
    int data = mkstemp(path);
    struct stat want, got;
    fakesrv_step_t steps[2] = {{FAKESRV_REPLY_AFTER_FD, ok_sid, sizeof ok_sid, NULL},
                               {FAKESRV_REPLY, ok_sid, sizeof ok_sid, NULL}};
    uint8_t req[256];
    clra_trace_config_t cfg;
    clra_trace_session_t ts;
    clra_status_t st;
    ASSERT(data >= 0);
    unlink(path);
    ASSERT_EQ(fstat(data, &want), 0);
    fakesrv_t *srv = fakesrv_start_steps(steps, 2, NULL, NULL);
    ASSERT(srv != NULL);
    clra_target_t ep = clra_target_socket(fakesrv_path(srv));
    p_hot(&cfg, data);
    ASSERT_EQ(clra_trace_start(&ep, &cfg, 2000, &ts, &st), 0);
    ASSERT_EQ(ts.id, 0x1122334455667788ull);
    ASSERT_EQ(ts.command_version, 5);
    ASSERT_EQ(ts.eof, 1); /* no stream: the events go to tracepoints */
    ASSERT_EQ(fakesrv_request(srv, req, sizeof req), sizeof ue_bytes);
    ASSERT_MEMEQ(req, ue_bytes, sizeof ue_bytes);
    ASSERT_EQ(fakesrv_passed_fd(srv, 0, &got), 1);
    ASSERT_EQ(got.st_dev, want.st_dev);
    ASSERT_EQ(got.st_ino, want.st_ino);
    ASSERT(fcntl(data, F_GETFD) >= 0); /* the caller's descriptor stays the caller's */
    ASSERT_EQ(clra_trace_pump(&ts, no_bytes, NULL, 0, &st), 0);
    ASSERT_EQ(clra_trace_stop(&ts, &ep, no_bytes, NULL, 2000, &st), 0);
    ASSERT_EQ(ts.bytes, 0u);
    clra_trace_session_close(&ts);
    clra_trace_config_free(&cfg);
    close(data);
    fakesrv_stop(srv);
}

/* With no descriptor from the caller the library opens user_events_data itself: on a kernel
 * without it (CONFIG_USER_EVENTS unset, or tracefs not mounted) it says so before connecting;
 * where it exists, that very file is what the server receives. */
TEST(trace_user_events_opens_user_events_data_or_says_it_is_missing)
{
    struct stat want, got;
    clra_trace_config_t cfg;
    clra_trace_session_t ts;
    clra_status_t st;
    fakesrv_t *srv = fakesrv_start(FAKESRV_REPLY_AFTER_FD, ok_sid, sizeof ok_sid, 0);
    ASSERT(srv != NULL);
    clra_target_t ep = clra_target_socket(fakesrv_path(srv));
    p_hot(&cfg, -1);
    int rc = clra_trace_start(&ep, &cfg, 2000, &ts, &st);
    if (stat(CLRA_TRACE_USER_EVENTS_DATA, &want) != 0 &&
        stat("/sys/kernel/debug/tracing/user_events_data", &want) != 0) {
        ASSERT_EQ(rc, CLRA_EIO);
        ASSERT_EQ(st.sys_errno, ENOENT);
        ASSERT_CONTAINS(st.detail, "this kernel has no user_events (CONFIG_USER_EVENTS");
        ASSERT_CONTAINS(st.detail, "mount -t tracefs nodev /sys/kernel/tracing");
        ASSERT_EQ(fakesrv_connections(srv), 0u);
    } else {
        ASSERT_EQ(rc, 0);
        ASSERT_EQ(fakesrv_passed_fd(srv, 0, &got), 1);
        ASSERT_EQ(got.st_ino, want.st_ino);
        clra_trace_session_close(&ts);
    }
    clra_trace_config_free(&cfg);
    fakesrv_stop(srv);
}

/* The runtime answers BAD_ENCODING when no descriptor came with the request. */
TEST(trace_user_events_bad_encoding_mentions_the_descriptor)
{
    static const uint8_t bad[24] = {MAGIC, 24, 0, 0xFF, 0xFF, 0, 0, 0x84, 0x13, 0x13, 0x80};
    clra_trace_config_t cfg;
    clra_trace_session_t ts;
    clra_status_t st;
    int data = open("/dev/null", O_RDWR | O_CLOEXEC);
    fakesrv_t *srv = fakesrv_start(FAKESRV_REPLY_AFTER_FD, bad, sizeof bad, 0);
    ASSERT(srv != NULL && data >= 0);
    clra_target_t ep = clra_target_socket(fakesrv_path(srv));
    p_hot(&cfg, data);
    ASSERT_EQ(clra_trace_start(&ep, &cfg, 2000, &ts, &st), CLRA_ERUNTIME);
    ASSERT_CONTAINS(st.detail, "did not receive the user_events_data descriptor");
    clra_trace_config_free(&cfg);
    close(data);
    fakesrv_stop(srv);
}
