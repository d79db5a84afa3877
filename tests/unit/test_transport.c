/* Faults a real runtime will not produce, acted out by the fake server: every one must end in
 * a distinct error within the deadline, never a hang or a crash. */
#define _GNU_SOURCE
#include "fakesrv.h"
#include "test.h"
#include "ipc/transport.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
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
    return clra_profiler_attach(&ep, &clsid, "/opt/prof/libp.so", "k=v", 3, 1000, 0, timeout_ms,
                                st);
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
    ASSERT_EQ(clra_profiler_attach(&ep, &clsid, "/p.so", NULL, 0, 0, 0, 1000, &st),
              CLRA_ENOENDPOINT);
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
    ASSERT_EQ(clra_profiler_attach(&ep, &clsid, "/p\xC0\x80", NULL, 0, 0, 0, 100, &st),
              CLRA_EENCODING);
}

TEST(attach_refuses_unknown_flags_and_targets_that_name_no_single_endpoint)
{
    clra_status_t st;
    clra_guid_t clsid = {0};
    clra_target_t ep = clra_target_socket("/nonexistent"), none = {0}, both = ep;
    ASSERT_EQ(clra_profiler_attach(&ep, &clsid, "/p.so", NULL, 0, 0, 0x1, 100, &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "flags 0x1 unknown");
    both.pid = 1;
    ASSERT_EQ(clra_profiler_attach(&none, &clsid, "/p.so", NULL, 0, 0, 0, 100, &st), CLRA_EINVAL);
    ASSERT_CONTAINS(st.detail, "exactly one endpoint");
    ASSERT_EQ(clra_profiler_attach(&both, &clsid, "/p.so", NULL, 0, 0, 0, 100, &st), CLRA_EINVAL);
    ASSERT_EQ(clra_profiler_attach(NULL, &clsid, "/p.so", NULL, 0, 0, 0, 100, &st), CLRA_EINVAL);
}

/* Every public function takes a NULL status: the failure code alone still comes back. */
TEST(commands_accept_a_null_status)
{
    clra_guid_t clsid = {0};
    clra_target_t ep = clra_target_socket("/tmp/clra-no-such-dir/dotnet-diagnostic-1-1-socket");
    clra_environment_t env;
    clra_process_info_t info;
    clra_stage_t *stage;
    ASSERT_EQ(clra_profiler_attach(&ep, &clsid, "/p.so", NULL, 0, 0, 0, 1000, NULL),
              CLRA_ENOENDPOINT);
    ASSERT_EQ(clra_profiler_attach(&ep, &clsid, "", NULL, 0, 0, 0, 1000, NULL), CLRA_EINVAL);
    ASSERT_EQ(clra_dump_create(&ep, "/tmp/core", CLRA_DUMP_HEAP, 0, 1000, NULL, NULL),
              CLRA_ENOENDPOINT);
    ASSERT_EQ(clra_environment_get(&ep, 1000, &env, NULL), CLRA_ENOENDPOINT);
    ASSERT_EQ(clra_environment_set(&ep, "A=B", "v", 1000, NULL), CLRA_EINVAL);
    ASSERT_EQ(clra_process_info_get(&ep, 1000, &info, NULL), CLRA_ENOENDPOINT);
    ASSERT_EQ(clra_runtime_resume(&ep, 1000, NULL), CLRA_ENOENDPOINT);
    ASSERT_EQ(clra_startup_hook_apply(&ep, "relative.dll", 1000, NULL), CLRA_EINVAL);
    ASSERT_EQ(clra_stage_create(0, "/nonexistent/lib.so", &stage, NULL), CLRA_EINVAL);
    ASSERT(stage == NULL);
    clra_profiler_ref_t *ref = calloc(1, sizeof *ref);
    snprintf(ref->path, sizeof ref->path, "/tmp/clra-no-such-dir/clrprof.sock");
    ASSERT(clra_profiler_detach(ref, 100, NULL, NULL) < 0);
    free(ref);
}

/* A connection target is spent by the call even when its arguments are refused. */
TEST(a_connection_target_is_spent_whatever_the_outcome)
{
    int sv[2];
    clra_connection_t *conn;
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
    ASSERT_EQ(clra_connection_from_fd(sv[0], &conn), 0);
    ASSERT_EQ(clra_connection_fd(conn), sv[0]);
    clra_target_t t = clra_target_connection(conn);
    ASSERT_EQ(clra_environment_set(&t, "", "v", 100, NULL), CLRA_EINVAL);
    ASSERT_EQ(fcntl(sv[0], F_GETFD), -1); /* closed by the call */
    char c;
    ASSERT_EQ(read(sv[1], &c, 1), 0);     /* the peer sees the end, not a request */
    close(sv[1]);
    ASSERT_EQ(clra_connection_from_fd(-1, &conn), CLRA_EINVAL);
    clra_connection_close(NULL);
}
