/* A session against scripted servers: the stream, the stop on a second connection while
 * rundown is still being written, and the faults a runtime won't produce (a stop that is
 * never answered, an answer for another session, a reply that lies about its length, a
 * stream cut off, a sink that fails). fakesrv.h serves one connection; a session needs two,
 * so this file has its own small two-connection server. */
#define _GNU_SOURCE
#include "fakesrv.h"
#include "test.h"
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define SID 0x1122334455667788ull
#define RUNDOWN_BYTES (1024 * 1024) /* far more than a socket buffer holds */

typedef enum { STOP_OK, STOP_SILENT, STOP_OTHER_ID } stop_mode_t;

typedef struct script {
    const uint8_t *reply; /* the CollectTracing answer */
    size_t reply_len;
    size_t stream_len;   /* bytes of "stream" sent right after the reply */
    int cut_stream;      /* close the stream after them, as a dying runtime does */
    stop_mode_t stop;    /* how the StopTracing connection is answered */
    /* filled by the server */
    uint8_t stop_request[64];
    size_t stop_request_len;
    /* plumbing */
    char dir[40], path[100]; /* short enough for sun_path */
    int listen_fd, quit[2];
    pthread_t thread;
} script_t;

static const uint8_t ok_sid[28] = {'D', 'O', 'T', 'N', 'E', 'T', '_', 'I', 'P', 'C', '_', 'V',
                                   '1', 0,   28,  0,   0xFF, 0,  0,   0,   0x88, 0x77, 0x66,
                                   0x55, 0x44, 0x33, 0x22, 0x11};

/* Waits until fd is readable or the test says quit; 1 when readable. */
static int readable(script_t *s, int fd)
{
    struct pollfd p[2] = {{fd, POLLIN, 0}, {s->quit[0], POLLIN, 0}};
    while (poll(p, 2, -1) < 0 && errno == EINTR)
        ;
    return !p[1].revents && p[0].revents;
}

/* Reads one whole request (header, then what its size announces). */
static size_t read_request(script_t *s, int fd, uint8_t *buf, size_t cap)
{
    size_t n = 0, want = 20;
    while (n < want && n < cap && readable(s, fd)) {
        ssize_t k = recv(fd, buf + n, cap - n, 0);
        if (k <= 0)
            break;
        n += (size_t)k;
        if (n >= 20)
            want = (size_t)(buf[14] | buf[15] << 8);
    }
    return n;
}

/* Blocking send of n pattern bytes: position i carries (uint8_t)(i * 7). */
static void send_pattern(int fd, size_t from, size_t n)
{
    uint8_t chunk[4096];
    for (size_t done = 0; done < n;) {
        size_t k = n - done < sizeof chunk ? n - done : sizeof chunk;
        for (size_t i = 0; i < k; i++)
            chunk[i] = (uint8_t)((from + done + i) * 7);
        ssize_t w = send(fd, chunk, k, MSG_NOSIGNAL);
        if (w <= 0)
            return;
        done += (size_t)w;
    }
}

static int accept_one(script_t *s)
{
    return readable(s, s->listen_fd) ? accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC) : -1;
}

/* Writes the rundown before answering the stop, as the runtime does: a client that stops
 * reading the stream while it waits for the answer deadlocks here. */
static void serve_stop(script_t *s, int stream)
{
    uint8_t reply[28];
    int fd = accept_one(s);
    if (fd < 0)
        return;
    s->stop_request_len = read_request(s, fd, s->stop_request, sizeof s->stop_request);
    if (s->stop != STOP_SILENT) {
        send_pattern(stream, s->stream_len, RUNDOWN_BYTES);
        send(stream, "\x01", 1, MSG_NOSIGNAL);
        close(stream);
        memcpy(reply, ok_sid, sizeof reply);
        reply[20] ^= s->stop == STOP_OTHER_ID;
        send(fd, reply, sizeof reply, MSG_NOSIGNAL);
    }
    readable(s, fd); /* until the client closes or the test ends */
    close(fd);
    if (s->stop == STOP_SILENT)
        close(stream);
}

static void *serve(void *arg)
{
    script_t *s = arg;
    uint8_t req[1024];
    int stream = accept_one(s);
    if (stream < 0)
        return NULL;
    read_request(s, stream, req, sizeof req);
    send(stream, s->reply, s->reply_len, MSG_NOSIGNAL);
    send_pattern(stream, 0, s->stream_len);
    if (s->cut_stream) {
        close(stream);
        return NULL;
    }
    serve_stop(s, stream);
    return NULL;
}

static void script_start(script_t *s)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(s->dir, sizeof s->dir, "/tmp/clra-tracesrv-XXXXXX");
    ASSERT(mkdtemp(s->dir) != NULL);
    snprintf(s->path, sizeof s->path, "%s/dotnet-diagnostic-1-1-socket", s->dir);
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", s->path);
    s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ASSERT(bind(s->listen_fd, (struct sockaddr *)&sa, sizeof sa) == 0);
    ASSERT(listen(s->listen_fd, 4) == 0);
    ASSERT(pipe2(s->quit, O_CLOEXEC) == 0);
    ASSERT(pthread_create(&s->thread, NULL, serve, s) == 0);
}

static void script_stop(script_t *s)
{
    ASSERT(write(s->quit[1], "q", 1) == 1);
    pthread_join(s->thread, NULL);
    close(s->listen_fd);
    close(s->quit[0]);
    close(s->quit[1]);
    unlink(s->path);
    rmdir(s->dir);
}

typedef struct collected {
    size_t n;
    int mismatch; /* a byte that is not the pattern (or not the final 01) */
    int fail_after; /* the sink fails once this many bytes arrived (0: never) */
} collected_t;

static int sink(void *ctx, const void *data, size_t len)
{
    collected_t *c = ctx;
    const uint8_t *p = data;
    for (size_t i = 0; i < len; i++, c->n++)
        if (p[i] != (uint8_t)(c->n * 7) && !(p[i] == 1 && i + 1 == len))
            c->mismatch++;
    if (c->fail_after && c->n >= (size_t)c->fail_after) {
        errno = ENOSPC;
        return -1;
    }
    return 0;
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* A one-provider session against the script's server. */
static int start(script_t *s, clra_target_t *ep, clra_trace_session_t *ts, clra_status_t *st)
{
    clra_trace_config_t cfg;
    clra_trace_config_init(&cfg);
    ASSERT_EQ(clra_trace_config_add_provider(&cfg, "P", 1, 4, NULL, NULL), 0);
    *ep = clra_target_socket(s->path);
    int rc = clra_trace_start(ep, &cfg, 2000, ts, st);
    clra_trace_config_free(&cfg);
    return rc;
}

TEST(trace_session_stop_drains_the_rundown_written_before_the_reply)
{
    script_t s = {.reply = ok_sid, .reply_len = 28, .stream_len = 5000, .stop = STOP_OK};
    clra_target_t ep;
    clra_trace_session_t ts;
    clra_status_t st;
    collected_t c = {0};
    script_start(&s);
    ASSERT_EQ(start(&s, &ep, &ts, &st), 0);
    ASSERT_EQ(ts.id, SID);
    ASSERT_EQ(ts.command_version, 1);
    for (int i = 0; i < 50 && ts.bytes < 5000; i++)
        ASSERT_EQ(clra_trace_pump(&ts, sink, &c, 100, &st), 0);
    ASSERT_EQ(ts.bytes, 5000); /* the reply's 28 bytes are not part of the stream */
    ASSERT_MSG(clra_trace_stop(&ts, &ep, sink, &c, 10000, &st) == 0, "%s", st.detail);
    ASSERT(ts.eof);
    ASSERT_EQ(c.n, 5000 + RUNDOWN_BYTES + 1);
    ASSERT_EQ(c.mismatch, 0);
    /* StopTracing went out as exactly 28 bytes naming the session */
    static const uint8_t want[28] = {'D', 'O', 'T', 'N', 'E', 'T', '_', 'I', 'P', 'C', '_', 'V',
                                     '1', 0, 28, 0, 0x02, 0x01, 0, 0, 0x88, 0x77, 0x66, 0x55,
                                     0x44, 0x33, 0x22, 0x11};
    ASSERT_EQ(s.stop_request_len, 28);
    ASSERT_MEMEQ(s.stop_request, want, 28);
    clra_trace_session_close(&ts);
    script_stop(&s);
}

TEST(trace_session_stop_never_answered_times_out_at_the_deadline)
{
    script_t s = {.reply = ok_sid, .reply_len = 28, .stream_len = 100, .stop = STOP_SILENT};
    clra_target_t ep;
    clra_trace_session_t ts;
    clra_status_t st;
    collected_t c = {0};
    script_start(&s);
    ASSERT_EQ(start(&s, &ep, &ts, &st), 0);
    double t0 = now_ms();
    ASSERT_EQ(clra_trace_stop(&ts, &ep, sink, &c, 300, &st), CLRA_ETIMEDOUT);
    double took = now_ms() - t0;
    ASSERT_MSG(took >= 290 && took < 5000, "returned after %.0f ms for a 300 ms deadline", took);
    ASSERT_CONTAINS(st.detail, "no reply to StopTracing before the deadline (100 bytes received)");
    ASSERT_EQ(c.n, 100); /* the stream was still drained while waiting */
    clra_trace_session_close(&ts);
    script_stop(&s);
}

TEST(trace_session_stop_answered_for_another_session_is_a_protocol_error)
{
    script_t s = {.reply = ok_sid, .reply_len = 28, .stream_len = 10, .stop = STOP_OTHER_ID};
    clra_target_t ep;
    clra_trace_session_t ts;
    clra_status_t st;
    collected_t c = {0};
    script_start(&s);
    ASSERT_EQ(start(&s, &ep, &ts, &st), 0);
    ASSERT_EQ(clra_trace_stop(&ts, &ep, sink, &c, 10000, &st), CLRA_EPROTO);
    ASSERT_STREQ(st.detail, "StopTracing for session 0x1122334455667788 was answered for "
                            "0x1122334455667789");
    clra_trace_session_close(&ts);
    script_stop(&s);
}

TEST(trace_session_stream_cut_off_is_an_end_not_an_error)
{
    script_t s = {.reply = ok_sid, .reply_len = 28, .stream_len = 70000, .cut_stream = 1};
    clra_target_t ep;
    clra_trace_session_t ts;
    clra_status_t st;
    collected_t c = {0};
    script_start(&s);
    ASSERT_EQ(start(&s, &ep, &ts, &st), 0);
    for (int i = 0; i < 100 && !ts.eof; i++)
        ASSERT_EQ(clra_trace_pump(&ts, sink, &c, 1000, &st), 0);
    ASSERT(ts.eof);
    ASSERT_EQ(c.n, 70000);
    ASSERT_EQ(c.mismatch, 0);
    ASSERT_EQ(clra_trace_pump(&ts, sink, &c, 10, &st), 0); /* stays ended, no wait */
    clra_trace_session_close(&ts);
    ASSERT_EQ(ts.fd, -1);
    script_stop(&s);
}

TEST(trace_session_failing_sink_fails_the_pump_with_the_reason)
{
    script_t s = {.reply = ok_sid, .reply_len = 28, .stream_len = 50000, .cut_stream = 1};
    clra_target_t ep;
    clra_trace_session_t ts;
    clra_status_t st;
    collected_t c = {.fail_after = 1};
    script_start(&s);
    ASSERT_EQ(start(&s, &ep, &ts, &st), 0);
    int rc = 0;
    for (int i = 0; i < 100 && rc == 0; i++)
        rc = clra_trace_pump(&ts, sink, &c, 1000, &st);
    ASSERT_EQ(rc, CLRA_EIO);
    ASSERT_EQ(st.sys_errno, ENOSPC);
    ASSERT_CONTAINS(st.detail, "the trace sink refused");
    clra_trace_session_close(&ts);
    script_stop(&s);
}

TEST(trace_start_reply_shorter_than_its_header_says_is_connection_lost)
{
    uint8_t lying[24];
    memcpy(lying, ok_sid, sizeof lying); /* announces 28 bytes, 24 arrive, then close */
    script_t s = {.reply = lying, .reply_len = sizeof lying, .cut_stream = 1};
    clra_target_t ep;
    clra_trace_session_t ts;
    clra_status_t st;
    script_start(&s);
    ASSERT_EQ(start(&s, &ep, &ts, &st), CLRA_ECONNLOST);
    ASSERT_CONTAINS(st.detail, "closed the connection before replying");
    script_stop(&s);
}

TEST(trace_start_reply_longer_than_a_session_id_is_refused)
{
    uint8_t longer[36] = {0};
    memcpy(longer, ok_sid, 28);
    longer[14] = 36;
    script_t s = {.reply = longer, .reply_len = sizeof longer, .cut_stream = 1};
    clra_target_t ep;
    clra_trace_session_t ts;
    clra_status_t st;
    script_start(&s);
    ASSERT_EQ(start(&s, &ep, &ts, &st), CLRA_EPROTO);
    ASSERT_CONTAINS(st.detail, "with 16 payload bytes");
    script_stop(&s);
}

TEST(trace_unknown_command_says_which_runtime_the_option_needs)
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
    cfg.stackwalk = 0;
    ASSERT_EQ(clra_trace_config_add_provider(&cfg, "P", 1, 4, NULL, NULL), 0);
    ASSERT_EQ(clra_trace_start(&ep, &cfg, 2000, &ts, &st), CLRA_ERUNTIME);
    ASSERT_EQ((uint32_t)st.hresult, 0x80131385u);
    ASSERT_STREQ(st.detail, "the runtime does not know CollectTracing3, which turning stack "
                            "collection off needs: it needs .NET 9 or later");
    ASSERT(fakesrv_request(srv, req, sizeof req) > 20);
    ASSERT_EQ(req[16], 0x02);
    ASSERT_EQ(req[17], 0x04);
    clra_trace_config_free(&cfg);
    fakesrv_stop(srv);
}

TEST(trace_start_on_an_open_connection_keeps_it_as_the_stream)
{
    script_t s = {.reply = ok_sid, .reply_len = 28, .stream_len = 300, .cut_stream = 1};
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    clra_trace_config_t cfg;
    clra_trace_session_t ts;
    clra_status_t st;
    collected_t c = {0};
    script_start(&s);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", s.path);
    ASSERT_EQ(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    clra_trace_config_init(&cfg);
    ASSERT_EQ(clra_trace_config_add_provider(&cfg, "P", 1, 4, NULL, NULL), 0);
    clra_connection_t *conn;
    ASSERT_EQ(clra_connection_from_fd(fd, &conn), 0);
    clra_target_t t = clra_target_connection(conn);
    ASSERT_EQ(clra_trace_start(&t, &cfg, 2000, &ts, &st), 0);
    ASSERT_EQ(ts.fd, fd);
    ASSERT_EQ(ts.id, SID);
    for (int i = 0; i < 50 && !ts.eof; i++)
        ASSERT_EQ(clra_trace_pump(&ts, sink, &c, 100, &st), 0);
    ASSERT(ts.eof);
    ASSERT_EQ(c.n, 300);
    clra_trace_session_close(&ts);
    clra_trace_config_free(&cfg);
    script_stop(&s);
}
