/* control_pipe_win.c - the SDK's control pipe through the Win32 API (see control_pipe_win.h):
 * overlapped connect, read and write, each ended early by the stop event or its timeout. */
#include "control_pipe_win.h"
#include "common/shared_names.h" /* CONTROL_PIPE_FORMAT */

#include <stdint.h>
#include <stdio.h>
#include <windows.h>
#include <sddl.h>

#define FLUSH_END_MS 2000 /* a disconnected flush normally ends at once */

void *clrprof__event_new(void) { return CreateEventW(NULL, TRUE, FALSE, NULL); }
void clrprof__event_set(void *event) { SetEvent(event); }
void clrprof__handle_close(void *handle)
{
    if (handle)
        CloseHandle(handle);
}
unsigned long clrprof__self_pid(void) { return GetCurrentProcessId(); }
unsigned long clrprof__last_error(void) { return GetLastError(); }

unsigned long long clrprof__self_base(void)
{
    HMODULE self = NULL;
    GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS |
                       GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                       (LPCSTR)(uintptr_t)clrprof__self_base, &self);
    return (unsigned long long)(uintptr_t)self;
}

/* One instance of the control pipe (the first or a later one) with its DACL: generic all for
 * the owner (OW) and SYSTEM, nobody else; local clients only. INVALID_HANDLE_VALUE on failure. */
static HANDLE instance(const char *path, DWORD first)
{
    SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, FALSE};
    if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(L"D:P(A;;GA;;;OW)(A;;GA;;;SY)",
                                                              SDDL_REVISION_1,
                                                              &sa.lpSecurityDescriptor, NULL))
        return INVALID_HANDLE_VALUE;
    HANDLE h = CreateNamedPipeA(path, PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED | first,
                                PIPE_TYPE_BYTE | PIPE_REJECT_REMOTE_CLIENTS,
                                CLRPROF__PIPE_INSTANCES, 512, 512, 0, &sa);
    LocalFree(sa.lpSecurityDescriptor);
    return h;
}

void *clrprof__pipe_create(int slots, char *path, size_t cap)
{
    HANDLE h = INVALID_HANDLE_VALUE;
    for (int slot = 0; slot < slots && h == INVALID_HANDLE_VALUE; slot++) {
        snprintf(path, cap, CONTROL_PIPE_FORMAT, (int)GetCurrentProcessId(), slot);
        h = instance(path, FILE_FLAG_FIRST_PIPE_INSTANCE);
    }
    return h == INVALID_HANDLE_VALUE ? NULL : h;
}

void *clrprof__pipe_another(const char *path)
{
    HANDLE h = instance(path, 0);
    return h == INVALID_HANDLE_VALUE ? NULL : h;
}

/* Finishes an overlapped call: 1 done, 0 when the stop event or the timeout came first. */
static int finish(HANDLE h, OVERLAPPED *ov, BOOL started, HANDLE stop, DWORD ms, DWORD *n)
{
    if (!started && GetLastError() != ERROR_IO_PENDING)
        return GetLastError() == ERROR_PIPE_CONNECTED;
    HANDLE both[2] = {ov->hEvent, stop};
    if (WaitForMultipleObjects(2, both, FALSE, ms) == WAIT_OBJECT_0)
        return GetOverlappedResult(h, ov, n, FALSE) || GetLastError() == ERROR_MORE_DATA;
    CancelIoEx(h, ov);
    GetOverlappedResult(h, ov, n, TRUE);
    return 0;
}

/* One overlapped call: 0 connect, 1 read, 2 write. */
static int io(HANDLE h, int what, void *buf, DWORD len, HANDLE stop, DWORD ms, DWORD *n)
{
    OVERLAPPED ov = {0};
    ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
    if (!ov.hEvent)
        return 0;
    *n = 0;
    BOOL ok = what == 0 ? ConnectNamedPipe(h, &ov)
              : what == 1 ? ReadFile(h, buf, len, NULL, &ov)
                          : WriteFile(h, buf, len, NULL, &ov);
    int done = finish(h, &ov, ok, stop, ms, n);
    CloseHandle(ov.hEvent);
    return done;
}

/* A client that connected and closed before ConnectNamedPipe ran leaves the instance in
 * ERROR_NO_DATA: it is disconnected and the next client awaited, so one such client cannot
 * end the serving for good. */
int clrprof__pipe_accept(void *pipe, void *stop)
{
    DWORD n;
    for (;;) {
        int connected = io(pipe, 0, NULL, 0, stop, INFINITE, &n);
        DWORD err = GetLastError();
        if (WaitForSingleObject(stop, 0) == WAIT_OBJECT_0)
            return 0;
        if (connected)
            return 1;
        if (err != ERROR_NO_DATA)
            return 0;
        DisconnectNamedPipe(pipe);
    }
}

int clrprof__pipe_read_line(void *pipe, void *stop, char *out, size_t cap, unsigned timeout_ms)
{
    size_t used = 0;
    DWORD n;
    while (used + 1 < cap && io(pipe, 1, out + used, 1, stop, timeout_ms, &n) && n == 1) {
        if (out[used] == '\n') {
            out[used] = '\0';
            return 0;
        }
        used++;
    }
    out[used] = '\0';
    return -1;
}

static DWORD WINAPI flush_main(void *pipe)
{
    FlushFileBuffers(pipe);
    return 0;
}

/* FlushFileBuffers on a pipe returns once the client has read everything, which a client that
 * stopped reading (suspended, stopped in a debugger) never does: it runs on a thread of its
 * own, and past the deadline or the stop event the instance is disconnected under it, which
 * ends the flush. Should the flush outlive that too, it is left to end on its own after
 * FLUSH_END_MS: the control thread must never hang in the target. */
int clrprof__pipe_flush(void *pipe, void *stop, unsigned timeout_ms)
{
    HANDLE t = CreateThread(NULL, 0, flush_main, pipe, 0, NULL);
    if (!t)
        return 0;
    HANDLE both[2] = {t, stop};
    int done = WaitForMultipleObjects(2, both, FALSE, timeout_ms) == WAIT_OBJECT_0;
    if (!done) {
        DisconnectNamedPipe(pipe);
        CancelSynchronousIo(t);
        WaitForSingleObject(t, FLUSH_END_MS); /* the flush has failed by now */
    }
    CloseHandle(t);
    return done;
}

/* A partial write counts: the caller goes on from there (clrprof_control_send). */
unsigned long clrprof__pipe_write(void *pipe, void *stop, const void *data, unsigned long len,
                                  unsigned timeout_ms)
{
    DWORD n;
    return io(pipe, 2, (void *)data, len, stop, timeout_ms, &n) ? n : 0;
}

void clrprof__pipe_send(void *pipe, void *stop, const char *text, unsigned timeout_ms)
{
    DWORD len = 0;
    while (text[len])
        len++;
    clrprof__pipe_write(pipe, stop, text, len, timeout_ms);
    clrprof__pipe_flush(pipe, stop, timeout_ms);
}

void clrprof__pipe_reply(void *pipe, void *stop, const char *text, unsigned timeout_ms)
{
    clrprof__pipe_send(pipe, stop, text, timeout_ms);
    DisconnectNamedPipe(pipe);
}

/* Reads (and drops) whatever the client sends until a read fails: a broken pipe is its
 * hang-up, which the stop event alone tells apart from being asked to stop. */
int clrprof__pipe_wait_hangup(void *pipe, void *stop)
{
    char buf[64];
    DWORD n;
    while (io(pipe, 1, buf, sizeof buf, stop, INFINITE, &n))
        ;
    return WaitForSingleObject(stop, 0) != WAIT_OBJECT_0;
}
