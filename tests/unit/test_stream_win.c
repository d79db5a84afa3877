/* test_stream_win.c - a trace stream's waits and reads on a named pipe (ipc/stream_win.c)
 * against an in-process server that writes when the test says so and then hangs up (Windows
 * build, run under wine). */
#include "clrattach.h"
#include "ipc/transport.h"
#include "test.h"

#include <stdio.h>
#include <string.h>
#include <windows.h>

typedef struct streamer {
    char name[96];
    HANDLE pipe, thread;
    HANDLE go_write, go_close; /* set by the test, one step each */
} streamer_t;

/* Connects one client, writes 10 bytes when told, hangs up when told. */
static DWORD WINAPI stream_serve(void *arg)
{
    streamer_t *s = arg;
    DWORD n;
    if (!ConnectNamedPipe(s->pipe, NULL) && GetLastError() != ERROR_PIPE_CONNECTED)
        return 1;
    WaitForSingleObject(s->go_write, 10000);
    WriteFile(s->pipe, "0123456789", 10, &n, NULL);
    WaitForSingleObject(s->go_close, 10000);
    FlushFileBuffers(s->pipe);
    DisconnectNamedPipe(s->pipe);
    return 0;
}

static void streamer_start(streamer_t *s, const char *tag)
{
    wchar_t w[96];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "\\\\.\\pipe\\clra-stream-%lu-%s",
             (unsigned long)GetCurrentProcessId(), tag);
    MultiByteToWideChar(CP_UTF8, 0, s->name, -1, w, 96);
    s->pipe = CreateNamedPipeW(w, PIPE_ACCESS_DUPLEX, PIPE_TYPE_BYTE | PIPE_WAIT, 1, 4096, 4096,
                               0, NULL);
    ASSERT(s->pipe != INVALID_HANDLE_VALUE);
    s->go_write = CreateEventW(NULL, TRUE, FALSE, NULL);
    s->go_close = CreateEventW(NULL, TRUE, FALSE, NULL);
    s->thread = CreateThread(NULL, 0, stream_serve, s, 0, NULL);
    ASSERT(s->thread != NULL);
}

static void streamer_stop(streamer_t *s)
{
    SetEvent(s->go_write);
    SetEvent(s->go_close);
    WaitForSingleObject(s->thread, 10000);
    CloseHandle(s->thread);
    CloseHandle(s->pipe);
    CloseHandle(s->go_write);
    CloseHandle(s->go_close);
}

TEST(stream_wait_times_out_then_sees_bytes_then_the_end)
{
    streamer_t s;
    clra__conn_t c;
    clra_status_t st;
    unsigned ready = 99;
    uint8_t buf[64];
    size_t got = 99;
    streamer_start(&s, "steps");
    clra__deadline_t d = clra__deadline_in(5000);
    ASSERT_EQ(clra__connect(s.name, &d, &c, &st), 0);
    clra__conn_t *one[2] = {NULL, &c}; /* a NULL entry is skipped, bits follow the index */
    ULONGLONG t0 = GetTickCount64();
    ASSERT_EQ(clra__wait_readable(one, 2, 200, &ready, &st), 0);
    ULONGLONG took = GetTickCount64() - t0;
    ASSERT_EQ(ready, 0u);
    ASSERT_MSG(took >= 150 && took < 3000, "an empty pipe was waited on for %llu ms, not 200",
               (unsigned long long)took);
    ASSERT_EQ(clra__recv_now(&c, buf, sizeof buf, &got, &st), 0);
    ASSERT_EQ(got, 0u); /* nothing there: no wait, no bytes */
    SetEvent(s.go_write);
    ASSERT_EQ(clra__wait_readable(one, 2, 5000, &ready, &st), 0);
    ASSERT_EQ(ready, 2u);
    ASSERT_EQ(clra__recv_now(&c, buf, 4, &got, &st), 0); /* capped by the buffer */
    ASSERT_EQ(got, 4u);
    ASSERT_EQ(clra__recv_now(&c, buf + 4, sizeof buf - 4, &got, &st), 0);
    ASSERT_EQ(got, 6u);
    ASSERT_MEMEQ(buf, "0123456789", 10);
    SetEvent(s.go_close);
    ASSERT_EQ(clra__wait_readable(one, 2, 5000, &ready, &st), 0);
    ASSERT_EQ(ready, 2u); /* a pipe that ended is "readable": its read says so */
    ASSERT_EQ(clra__recv_now(&c, buf, sizeof buf, &got, &st), CLRA_ECONNLOST);
    clra__close(&c);
    streamer_stop(&s);
}

TEST(stream_connection_survives_the_public_fields)
{
    streamer_t s;
    clra__conn_t c, back;
    clra_status_t st;
    clra_trace_session_t session;
    uint8_t buf[16];
    size_t got = 0;
    streamer_start(&s, "fields");
    clra__deadline_t d = clra__deadline_in(5000);
    ASSERT_EQ(clra__connect(s.name, &d, &c, &st), 0);
    clra__conn_store(&c, &session.fd, &session.reserved[0]);
    ASSERT(session.fd >= 0);
    clra__conn_load(&back, session.fd, session.reserved[0]);
    ASSERT(back.pipe == c.pipe && back.event == c.event);
    SetEvent(s.go_write);
    for (int i = 0; i < 100 && got == 0; i++) {
        unsigned ready;
        clra__conn_t *one[1] = {&back};
        ASSERT_EQ(clra__wait_readable(one, 1, 100, &ready, &st), 0);
        ASSERT_EQ(clra__recv_now(&back, buf, sizeof buf, &got, &st), 0);
    }
    ASSERT_EQ(got, 10u);
    clra__close(&back);
    streamer_stop(&s);
}
