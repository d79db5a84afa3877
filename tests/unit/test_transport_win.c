/* test_transport_win.c - the named-pipe transport against an in-process pipe server that
 * answers, stays silent, hangs up or keeps every instance busy (Windows build, run under wine).
 * The faults are ones a real runtime will not produce on demand. */
#include "clrattach.h"
#include "ipc/transport_win.h"
#include "test.h"

#include <stdio.h>
#include <string.h>
#include <windows.h>

typedef enum { ANSWER_OK, SILENT, HANG_UP } behaviour_t;

typedef struct server {
    wchar_t wname[96];
    char name[96];
    HANDLE pipe;
    HANDLE thread;
    HANDLE release; /* set by the test when a SILENT server may go */
    behaviour_t how;
    uint8_t got[64]; /* the request's first bytes, as the server read them */
    DWORD got_len;
} server_t;

/* A reply the library takes as "OK, HRESULT 0": the IPC header (set 0xFF, id 0x00) + 4 bytes. */
static void ok_reply(uint8_t out[24])
{
    memset(out, 0, 24);
    memcpy(out, "DOTNET_IPC_V1", 14);
    out[14] = 24;
    out[16] = 0xFF;
}

static DWORD WINAPI serve(void *arg)
{
    server_t *s = arg;
    if (!ConnectNamedPipe(s->pipe, NULL) && GetLastError() != ERROR_PIPE_CONNECTED)
        return 1;
    ReadFile(s->pipe, s->got, sizeof s->got, &s->got_len, NULL);
    if (s->how == ANSWER_OK) {
        uint8_t reply[24];
        DWORD n;
        ok_reply(reply);
        WriteFile(s->pipe, reply, sizeof reply, &n, NULL);
        FlushFileBuffers(s->pipe);
    } else if (s->how == SILENT) {
        WaitForSingleObject(s->release, 10000);
    }
    DisconnectNamedPipe(s->pipe);
    return 0;
}

/* Creates \\.\pipe\clra-test-<pid>-<tag> (one instance) and a thread that serves one client. */
static void server_start(server_t *s, const char *tag, behaviour_t how)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "\\\\.\\pipe\\clra-test-%lu-%s",
             (unsigned long)GetCurrentProcessId(), tag);
    MultiByteToWideChar(CP_UTF8, 0, s->name, -1, s->wname, 96);
    s->how = how;
    s->pipe = CreateNamedPipeW(s->wname, PIPE_ACCESS_DUPLEX, PIPE_TYPE_BYTE | PIPE_WAIT, 1, 4096,
                               4096, 0, NULL);
    ASSERT_MSG(s->pipe != INVALID_HANDLE_VALUE, "CreateNamedPipe: %lu",
               (unsigned long)GetLastError());
    s->release = CreateEventW(NULL, TRUE, FALSE, NULL);
    s->thread = CreateThread(NULL, 0, serve, s, 0, NULL);
    ASSERT(s->thread != NULL);
}

static void server_stop(server_t *s)
{
    SetEvent(s->release);
    WaitForSingleObject(s->thread, 10000);
    CloseHandle(s->thread);
    CloseHandle(s->pipe);
    CloseHandle(s->release);
}

TEST(pipe_missing_is_no_endpoint)
{
    clra__conn_t c;
    clra_status_t st;
    memset(&st, 0, sizeof st);
    clra__deadline_t d = clra__deadline_in(1000);
    ASSERT_EQ(clra__connect("\\\\.\\pipe\\clra-test-nobody-here", &d, &c, &st), CLRA_ENOENDPOINT);
    ASSERT_EQ(st.sys_errno, ERROR_FILE_NOT_FOUND);
    ASSERT_CONTAINS(st.detail, "clra-test-nobody-here");
}

/* A whole command over the pipe through the public API: the request arrives intact. */
TEST(pipe_command_roundtrip)
{
    server_t s;
    clra_status_t st;
    server_start(&s, "ok", ANSWER_OK);
    clra_target_t t = clra_target_socket(s.name);
    ASSERT_EQ(clra_runtime_resume(&t, 5000, &st), 0);
    server_stop(&s);
    ASSERT_EQ(s.got_len, 20u); /* ResumeRuntime: a bare header */
    ASSERT_MEMEQ(s.got, "DOTNET_IPC_V1", 14);
    ASSERT_EQ(s.got[16], 0x04); /* the Process command set */
}

TEST(pipe_silent_server_times_out_on_time)
{
    server_t s;
    clra_status_t st;
    server_start(&s, "silent", SILENT);
    clra_target_t t = clra_target_socket(s.name);
    ULONGLONG t0 = GetTickCount64();
    ASSERT_EQ(clra_runtime_resume(&t, 300, &st), CLRA_ETIMEDOUT);
    ULONGLONG took = GetTickCount64() - t0;
    server_stop(&s);
    ASSERT_MSG(took >= 250 && took < 5000, "the 300 ms deadline ended the read after %llu ms",
               (unsigned long long)took);
}

TEST(pipe_hang_up_is_connection_lost)
{
    server_t s;
    clra_status_t st;
    server_start(&s, "hangup", HANG_UP);
    clra_target_t t = clra_target_socket(s.name);
    ASSERT_EQ(clra_runtime_resume(&t, 5000, &st), CLRA_ECONNLOST);
    server_stop(&s);
}

/* Every instance taken: ERROR_PIPE_BUSY is waited out until the deadline, then ETIMEDOUT. */
TEST(pipe_busy_is_retried_until_the_deadline)
{
    server_t s;
    clra_status_t st;
    memset(&st, 0, sizeof st);
    server_start(&s, "busy", SILENT);
    HANDLE first = CreateFileW(s.wname, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING, 0,
                               NULL);
    ASSERT(first != INVALID_HANDLE_VALUE);
    clra__conn_t c;
    ULONGLONG t0 = GetTickCount64();
    clra__deadline_t d = clra__deadline_in(300);
    int rc = clra__connect(s.name, &d, &c, &st);
    ULONGLONG took = GetTickCount64() - t0;
    CloseHandle(first);
    server_stop(&s);
    ASSERT_EQ(rc, CLRA_ETIMEDOUT);
    ASSERT_EQ(st.sys_errno, ERROR_PIPE_BUSY);
    ASSERT_MSG(took >= 250 && took < 5000, "busy wait ended after %llu ms",
               (unsigned long long)took);
}

/* A pipe found by a pid's name must be served by that pid. */
TEST(pipe_server_pid_is_checked)
{
    server_t s;
    clra_status_t st;
    memset(&st, 0, sizeof st);
    server_start(&s, "pid", SILENT);
    clra__conn_t c;
    clra__deadline_t d = clra__deadline_in(2000);
    ASSERT_EQ(clra__connect(s.name, &d, &c, &st), 0);
    int me = (int)GetCurrentProcessId();
    ASSERT_EQ(clra__pipe_server_check(&c, s.name, me, &st), 0);
    ASSERT_EQ(clra__pipe_server_check(&c, s.name, me + 4, &st), CLRA_EUNSAFE);
    ASSERT_CONTAINS(st.detail, "not by process");
    clra__close(&c);
    server_stop(&s);
}

/* A pid with no process: discovery says so before looking for a pipe. */
TEST(endpoint_find_no_process)
{
    clra_endpoint_t ep;
    clra_status_t st;
    ASSERT_EQ(clra_endpoint_find(0x7FFFFFF0, &ep, &st), CLRA_ENOPROC);
}

/* A live process without a runtime (this test) has no pipe: not .NET, or no endpoint. */
TEST(endpoint_find_not_dotnet)
{
    clra_endpoint_t ep;
    clra_status_t st;
    int rc = clra_endpoint_find((int)GetCurrentProcessId(), &ep, &st);
    ASSERT_MSG(rc == CLRA_ENOTDOTNET, "rc=%d detail=%s", rc, st.detail);
}
