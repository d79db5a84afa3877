/* Faults a real runtime will not produce, acted out by the fake server: every one must end in
 * a distinct error within the deadline, never a hang or a crash. */
#define _GNU_SOURCE
#include "fakesrv.h"
#include "test.h"
#include "ipc/transport.h"

#include <errno.h>
#include <time.h>

static const uint8_t reply_ok[24] = {'D', 'O', 'T', 'N', 'E', 'T', '_', 'I', 'P', 'C', '_', 'V', '1', 0,
                                     24, 0, 0xFF, 0, 0, 0, 0, 0, 0, 0};

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Attaches through the fake server and returns the library's result. */
static int attach_via(fakesrv_t *s, int timeout_ms, clra_status_t *st)
{
    clra_target_t ep;
    clra_guid_t clsid = {0x12345678, 0x9ABC, 0xDEF0, {1, 2, 3, 4, 5, 6, 7, 8}};
    ASSERT(s != NULL);
    ep = clra_target_socket(fakesrv_path(s));
    return clra_profiler_attach(&ep, &clsid, "/opt/prof/libp.so", "k=v", 3, 1000, 0, timeout_ms, st);
}

TEST(transport_ok_reply_is_success_and_request_arrives_whole)
{
    clra_status_t st;
    fakesrv_t *s = fakesrv_start(FAKESRV_REPLY, reply_ok, sizeof reply_ok, 0);
    ASSERT_EQ(attach_via(s, 5000, &st), 0);
    uint8_t req[256];
    size_t n = fakesrv_request(s, req, sizeof req);
    ASSERT_EQ(n, req[14] | (req[15] << 8));
    ASSERT_EQ(req[16], 0x03);
    ASSERT_EQ(req[17], 0x01);
    ASSERT_MEMEQ(req + n - 7, "\x03\0\0\0k=v", 7); /* exactly the client data, nothing after */
    fakesrv_stop(s);
}

TEST(transport_error_reply_is_a_runtime_refusal_with_its_hresult)
{
    clra_status_t st;
    uint8_t reply[24];
    memcpy(reply, reply_ok, 24);
    reply[17] = 0xFF;
    memcpy(reply + 20, "\x6A\x13\x13\x80", 4);
    fakesrv_t *s = fakesrv_start(FAKESRV_REPLY, reply, sizeof reply, 0);
    ASSERT_EQ(attach_via(s, 5000, &st), CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)st.hresult, 0x8013136Au);
    fakesrv_stop(s);
}

TEST(transport_silent_server_times_out_at_the_deadline)
{
    clra_status_t st;
    fakesrv_t *s = fakesrv_start(FAKESRV_SILENT, NULL, 0, 0);
    double t0 = now_ms();
    ASSERT_EQ(attach_via(s, 300, &st), CLRA_ETIMEDOUT);
    double took = now_ms() - t0;
    ASSERT_MSG(took >= 290, "returned after %.0f ms, before the 300 ms deadline", took);
    ASSERT_MSG(took < 5000, "returned after %.0f ms: the deadline was not honoured", took);
    ASSERT_CONTAINS(st.detail, "deadline");
    fakesrv_stop(s);
}

TEST(transport_server_closing_without_reply_is_connection_lost)
{
    clra_status_t st;
    fakesrv_t *s = fakesrv_start(FAKESRV_CLOSE, NULL, 0, 0);
    ASSERT_EQ(attach_via(s, 5000, &st), CLRA_ECONNLOST);
    fakesrv_stop(s);
}

TEST(transport_reply_with_bad_magic_is_protocol_error)
{
    clra_status_t st;
    uint8_t reply[24];
    memcpy(reply, reply_ok, 24);
    memcpy(reply, "HTTP/1.1 200 OK\r\n", 17);
    fakesrv_t *s = fakesrv_start(FAKESRV_REPLY, reply, sizeof reply, 0);
    ASSERT_EQ(attach_via(s, 5000, &st), CLRA_EPROTO);
    fakesrv_stop(s);
}

TEST(transport_reply_announcing_more_than_sent_then_closing_is_connection_lost)
{
    clra_status_t st;
    uint8_t reply[24];
    memcpy(reply, reply_ok, 24);
    reply[14] = 100; /* promises 80 payload bytes, sends 4 */
    fakesrv_t *s = fakesrv_start(FAKESRV_REPLY, reply, sizeof reply, 0);
    ASSERT_EQ(attach_via(s, 5000, &st), CLRA_ECONNLOST);
    fakesrv_stop(s);
}

TEST(transport_reply_announcing_more_than_sent_then_stalling_times_out)
{
    clra_status_t st;
    uint8_t reply[24];
    memcpy(reply, reply_ok, 24);
    reply[14] = 0xFF, reply[15] = 0xFF;
    fakesrv_t *s = fakesrv_start(FAKESRV_REPLY_STALL, reply, sizeof reply, 0);
    ASSERT_EQ(attach_via(s, 300, &st), CLRA_ETIMEDOUT);
    fakesrv_stop(s);
}

TEST(transport_truncated_header_is_connection_lost)
{
    clra_status_t st;
    fakesrv_t *s = fakesrv_start(FAKESRV_REPLY, reply_ok, 10, 0);
    ASSERT_EQ(attach_via(s, 5000, &st), CLRA_ECONNLOST);
    fakesrv_stop(s);
}

TEST(transport_stale_socket_is_connection_refused)
{
    clra_status_t st;
    fakesrv_t *s = fakesrv_start(FAKESRV_NO_LISTENER, NULL, 0, 0);
    ASSERT_EQ(attach_via(s, 5000, &st), CLRA_ECONNREFUSED);
    ASSERT_EQ(st.sys_errno, ECONNREFUSED);
    fakesrv_stop(s);
}

TEST(transport_missing_socket_is_no_endpoint)
{
    clra_status_t st;
    clra_target_t ep;
    clra_guid_t clsid = {0};
    ep = clra_target_socket("/tmp/clra-no-such-dir/dotnet-diagnostic-1-1-socket");
    ASSERT_EQ(clra_profiler_attach(&ep, &clsid, "/p.so", NULL, 0, 0, 0, 1000, &st), CLRA_ENOENDPOINT);
}

TEST(transport_reaches_socket_paths_longer_than_sun_path)
{
    clra_status_t st;
    fakesrv_t *s = fakesrv_start(FAKESRV_REPLY, reply_ok, sizeof reply_ok, 150);
    ASSERT(s != NULL);
    ASSERT(strlen(fakesrv_path(s)) > 108);
    ASSERT_EQ(attach_via(s, 5000, &st), 0);
    fakesrv_stop(s);
}

TEST(transport_rejects_bad_arguments_without_connecting)
{
    clra_status_t st;
    clra_target_t ep;
    clra_guid_t clsid = {0};
    ep = clra_target_socket("/nonexistent");
    ASSERT_EQ(clra_profiler_attach(&ep, &clsid, "", NULL, 0, 0, 0, 100, &st), CLRA_EINVAL);
    ASSERT_EQ(clra_profiler_attach(&ep, &clsid, "/p", NULL, 5, 0, 0, 100, &st), CLRA_EINVAL);
    ASSERT_EQ(clra_profiler_attach(&ep, &clsid, "/p\xC0\x80", NULL, 0, 0, 0, 100, &st), CLRA_EENCODING);
}
