/* test_reverse_win.c - the Windows reverse server (reverse_server_win.c) against fake runtimes
 * in this process: clients that connect to its pipe as a runtime does (CreateFile, then the
 * advertise) and then answer one command, or send a wrong cookie, a short advertise, nothing,
 * or hang up. Run under wine (win-unit). */
#include "clrattach.h"
#include "test.h"

#include <stdio.h>
#include <string.h>
#include <windows.h>

/* ADVR_V1, the cookie {846F5F1C-F9AE-4B07-969E-05C26BC060D8}, pid 4660, reserved 0. */
static const uint8_t advertise[34] = {
    0x41, 0x44, 0x56, 0x52, 0x5F, 0x56, 0x31, 0x00,
    0x1C, 0x5F, 0x6F, 0x84, 0xAE, 0xF9, 0x07, 0x4B, 0x96, 0x9E, 0x05, 0xC2, 0x6B, 0xC0, 0x60, 0xD8,
    0x34, 0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00};
#define COOKIE "846F5F1C-F9AE-4B07-969E-05C26BC060D8"

typedef struct client {
    char path[96];
    const uint8_t *send; /* what it writes once connected */
    DWORD send_len;
    int answer;          /* then reads a request and answers "OK, HRESULT 0" */
    int hang_up;         /* then closes at once */
    HANDLE go_away;      /* set by the test: a client that stays may close */
    HANDLE thread;
    uint8_t got[64];     /* the request's first bytes */
    DWORD got_len;
    DWORD open_error;    /* CreateFile's error, 0 when it connected */
} client_t;

/* Opens the pipe as the runtime does (no WaitNamedPipe: it retries later when busy). */
static DWORD WINAPI run_client(void *arg)
{
    client_t *c = arg;
    HANDLE h = INVALID_HANDLE_VALUE;
    for (int i = 0; i < 100 && h == INVALID_HANDLE_VALUE; i++) {
        h = CreateFileA(c->path, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING, 0, NULL);
        if (h == INVALID_HANDLE_VALUE) {
            c->open_error = GetLastError();
            Sleep(20);
        }
    }
    if (h == INVALID_HANDLE_VALUE)
        return 1;
    c->open_error = 0;
    DWORD n;
    if (c->send_len)
        WriteFile(h, c->send, c->send_len, &n, NULL);
    if (c->answer) {
        uint8_t reply[24] = "DOTNET_IPC_V1";
        reply[14] = 24;
        reply[16] = 0xFF;
        ReadFile(h, c->got, sizeof c->got, &c->got_len, NULL);
        WriteFile(h, reply, sizeof reply, &n, NULL);
        FlushFileBuffers(h);
    }
    if (!c->hang_up)
        WaitForSingleObject(c->go_away, 10000);
    CloseHandle(h);
    return 0;
}

static void client_start(client_t *c, const char *path, const void *send, DWORD len)
{
    memset(c, 0, sizeof *c);
    snprintf(c->path, sizeof c->path, "%s", path);
    c->send = send;
    c->send_len = len;
    c->go_away = CreateEventW(NULL, TRUE, FALSE, NULL);
}

static void client_go(client_t *c)
{
    c->thread = CreateThread(NULL, 0, run_client, c, 0, NULL);
    ASSERT(c->thread != NULL);
}

static void client_stop(client_t *c)
{
    SetEvent(c->go_away);
    WaitForSingleObject(c->thread, 10000);
    CloseHandle(c->thread);
    CloseHandle(c->go_away);
}

static void pipe_path(char *out, size_t cap, const char *tag)
{
    snprintf(out, cap, "\\\\.\\pipe\\clra-test-rev-%lu-%s", (unsigned long)GetCurrentProcessId(),
             tag);
}

/* A runtime's advertise is read and held; its connection carries one whole command (the
 * HANDLE reaches the transport), and the runtime's next connection finds a new instance. */
TEST(reverse_pipe_advertise_then_command)
{
    char path[96], text[37];
    clra_reverse_server_t *s;
    clra_status_t st;
    clra_advertise_t ad;
    clra_connection_t *conn;
    client_t c, again;
    pipe_path(path, sizeof path, "ok");
    ASSERT_EQ(clra_reverse_server_listen(path, &s, &st), 0);
    client_start(&c, path, advertise, sizeof advertise);
    c.answer = 1;
    client_go(&c);
    ASSERT_EQ(clra_reverse_server_wait(s, NULL, 5000, &ad, &st), 0);
    clra_guid_format(&ad.cookie, text);
    ASSERT_STREQ(text, COOKIE);
    ASSERT_EQ(ad.pid, 4660u);
    ASSERT_EQ(clra_reverse_server_accept(s, &ad.cookie, &conn), 0);
    ASSERT(clra_connection_handle(conn) != NULL);
    ASSERT_EQ(clra_connection_fd(conn), -1);
    clra_target_t t = clra_target_connection(conn);
    ASSERT_EQ(clra_runtime_resume(&t, 5000, &st), 0);
    client_stop(&c);
    ASSERT_EQ(c.got_len, 20u); /* ResumeRuntime: a bare header */
    ASSERT_MEMEQ(c.got, "DOTNET_IPC_V1", 14);
    ASSERT_EQ(c.got[16], 0x04);
    ASSERT_EQ(c.got[17], 0x01);
    /* Spent: nothing held until the runtime connects again. */
    ASSERT_EQ(clra_reverse_server_accept(s, NULL, &conn), CLRA_ENOENDPOINT);
    client_start(&again, path, advertise, sizeof advertise);
    client_go(&again);
    ASSERT_EQ(clra_reverse_server_wait(s, &ad.cookie, 5000, NULL, &st), 0);
    client_stop(&again);
    clra_reverse_server_close(s);
}

/* A wait for another cookie ignores this runtime until its deadline; this one stays held. */
TEST(reverse_pipe_wrong_cookie_times_out)
{
    char path[96];
    clra_reverse_server_t *s;
    clra_status_t st;
    clra_guid_t other, mine;
    client_t c;
    ASSERT_EQ(clra_guid_parse("11111111-2222-3333-4444-555555555555", &other), 0);
    ASSERT_EQ(clra_guid_parse(COOKIE, &mine), 0);
    pipe_path(path, sizeof path, "cookie");
    ASSERT_EQ(clra_reverse_server_listen(path, &s, &st), 0);
    client_start(&c, path, advertise, sizeof advertise);
    client_go(&c);
    ULONGLONG t0 = GetTickCount64();
    ASSERT_EQ(clra_reverse_server_wait(s, &other, 700, NULL, &st), CLRA_ETIMEDOUT);
    ULONGLONG took = GetTickCount64() - t0;
    ASSERT_MSG(took >= 650 && took < 3000, "the 700 ms wait took %llu ms",
               (unsigned long long)took);
    ASSERT_CONTAINS(st.detail, "with that cookie");
    ASSERT_EQ(clra_reverse_server_wait(s, &mine, 1000, NULL, &st), 0);
    client_stop(&c);
    clra_reverse_server_close(s);
}

/* An advertise cut short (the client stays connected) is dropped after its one-second bound,
 * and one with a bad magic at once: neither is held, and the server still takes the next. */
TEST(reverse_pipe_short_or_bad_advertise_is_dropped)
{
    char path[96];
    uint8_t bad[34];
    clra_reverse_server_t *s;
    clra_status_t st;
    clra_connection_t *conn;
    client_t shorty, wrong, good;
    memcpy(bad, advertise, sizeof bad);
    bad[6] = '2'; /* ADVR_V2 */
    pipe_path(path, sizeof path, "short");
    ASSERT_EQ(clra_reverse_server_listen(path, &s, &st), 0);
    client_start(&shorty, path, advertise, 10);
    client_go(&shorty);
    ULONGLONG t0 = GetTickCount64();
    ASSERT_EQ(clra_reverse_server_wait(s, NULL, 1500, NULL, &st), CLRA_ETIMEDOUT);
    ULONGLONG took = GetTickCount64() - t0;
    ASSERT_MSG(took >= 1400 && took < 5000, "the 1.5 s wait took %llu ms",
               (unsigned long long)took);
    ASSERT_EQ(clra_reverse_server_accept(s, NULL, &conn), CLRA_ENOENDPOINT);
    client_start(&wrong, path, bad, sizeof bad);
    client_go(&wrong);
    ASSERT_EQ(clra_reverse_server_wait(s, NULL, 800, NULL, &st), CLRA_ETIMEDOUT);
    client_start(&good, path, advertise, sizeof advertise);
    client_go(&good);
    ASSERT_EQ(clra_reverse_server_wait(s, NULL, 5000, NULL, &st), 0);
    client_stop(&shorty);
    client_stop(&wrong);
    client_stop(&good);
    clra_reverse_server_close(s);
}

/* Nobody connects: the wait ends at its deadline, not before and not much after. */
TEST(reverse_pipe_timeout_on_time)
{
    char path[96];
    clra_reverse_server_t *s;
    clra_status_t st;
    pipe_path(path, sizeof path, "quiet");
    ASSERT_EQ(clra_reverse_server_listen(path, &s, &st), 0);
    ULONGLONG t0 = GetTickCount64();
    ASSERT_EQ(clra_reverse_server_wait(s, NULL, 400, NULL, &st), CLRA_ETIMEDOUT);
    ULONGLONG took = GetTickCount64() - t0;
    ASSERT_MSG(took >= 350 && took < 3000, "the 400 ms wait took %llu ms",
               (unsigned long long)took);
    ASSERT_CONTAINS(st.detail, path);
    clra_reverse_server_close(s);
}

/* A runtime that advertised and then went away is not handed out. */
TEST(reverse_pipe_hung_up_connection_is_not_held)
{
    char path[96];
    clra_reverse_server_t *s;
    clra_status_t st;
    clra_connection_t *conn;
    client_t c;
    pipe_path(path, sizeof path, "gone");
    ASSERT_EQ(clra_reverse_server_listen(path, &s, &st), 0);
    client_start(&c, path, advertise, sizeof advertise);
    client_go(&c);
    ASSERT_EQ(clra_reverse_server_wait(s, NULL, 5000, NULL, &st), 0);
    client_stop(&c); /* closes its end */
    ASSERT_EQ(clra_reverse_server_accept(s, NULL, &conn), CLRA_ENOENDPOINT);
    clra_reverse_server_close(s);
}

/* The pipe is ours alone: a second server on the same name is refused, and so is a path that
 * is not \\.\pipe\NAME. */
TEST(reverse_pipe_name_taken_or_invalid)
{
    char path[96];
    clra_reverse_server_t *s, *s2;
    clra_status_t st;
    pipe_path(path, sizeof path, "taken");
    ASSERT_EQ(clra_reverse_server_listen(path, &s, &st), 0);
    ASSERT_EQ(clra_reverse_server_listen(path, &s2, &st), CLRA_EIO);
    ASSERT(s2 == NULL);
    ASSERT_CONTAINS(st.detail, "exists already");
    clra_reverse_server_close(s);
    ASSERT_EQ(clra_reverse_server_listen("C:\\temp\\port", &s2, &st), CLRA_EINVAL);
    ASSERT_EQ(clra_reverse_server_listen("\\\\.\\pipe\\", &s2, &st), CLRA_EINVAL);
    /* closed: the name is free again */
    ASSERT_EQ(clra_reverse_server_listen(path, &s, &st), 0);
    clra_reverse_server_close(s);
}

/* The listening end of a caller's own pipe. */
typedef struct own_side {
    HANDLE pipe;
    uint8_t got[64];
    DWORD got_len;
} own_side_t;

/* Reads one request on the listening end and answers "OK, HRESULT 0". */
static DWORD WINAPI answer_once(void *arg)
{
    own_side_t *c = arg;
    HANDLE h = c->pipe;
    uint8_t reply[24] = "DOTNET_IPC_V1";
    DWORD n;
    reply[14] = 24;
    reply[16] = 0xFF;
    if (!ConnectNamedPipe(h, NULL) && GetLastError() != ERROR_PIPE_CONNECTED)
        return 1;
    ReadFile(h, c->got, sizeof c->got, &c->got_len, NULL);
    WriteFile(h, reply, sizeof reply, &n, NULL);
    FlushFileBuffers(h);
    return 0;
}

/* A pipe the caller opened itself (overlapped) becomes a connection for one command; a NULL
 * or invalid handle is refused, and on Windows there are no descriptors to wrap. */
TEST(reverse_pipe_connection_from_handle)
{
    char path[96];
    own_side_t side;
    clra_connection_t *conn = NULL;
    clra_status_t st;
    memset(&side, 0, sizeof side);
    pipe_path(path, sizeof path, "own");
    side.pipe = CreateNamedPipeA(path, PIPE_ACCESS_DUPLEX, PIPE_TYPE_BYTE | PIPE_WAIT, 1,
                                    4096, 4096, 0, NULL);
    ASSERT(side.pipe != INVALID_HANDLE_VALUE);
    HANDLE thread = CreateThread(NULL, 0, answer_once, &side, 0, NULL);
    HANDLE h = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
                           FILE_FLAG_OVERLAPPED, NULL);
    ASSERT(h != INVALID_HANDLE_VALUE);
    ASSERT_EQ(clra_connection_from_handle(h, &conn), 0);
    ASSERT(clra_connection_handle(conn) == h);
    clra_target_t t = clra_target_connection(conn);
    ASSERT_EQ(clra_runtime_resume(&t, 5000, &st), 0);
    WaitForSingleObject(thread, 5000);
    CloseHandle(thread);
    CloseHandle(side.pipe);
    ASSERT_EQ(side.got_len, 20u);
    ASSERT_EQ(side.got[16], 0x04);
    ASSERT_EQ(clra_connection_from_handle(NULL, &conn), CLRA_EINVAL);
    ASSERT_EQ(clra_connection_from_handle(INVALID_HANDLE_VALUE, &conn), CLRA_EINVAL);
    ASSERT_EQ(clra_connection_from_fd(3, &conn), CLRA_EINVAL);
    ASSERT(conn == NULL);
}
