/* control_pipe_win.c - the SDK's control pipe through the Win32 API (see control_pipe_win.h):
 * overlapped connect, read and write, each ended early by the stop event or its timeout. */
#include "control_pipe_win.h"
#include "common/shared_names.h" /* CONTROL_PIPE_FORMAT */

#include <stdint.h>
#include <stdio.h>
#include <windows.h>
#include <sddl.h>

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

void *clrprof__pipe_create(int slots, char *path, size_t cap)
{
    SECURITY_ATTRIBUTES sa = {sizeof sa, NULL, FALSE};
    /* Protected DACL: generic all for the owner (OW) and SYSTEM, nobody else. */
    if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(L"D:P(A;;GA;;;OW)(A;;GA;;;SY)",
                                                              SDDL_REVISION_1,
                                                              &sa.lpSecurityDescriptor, NULL))
        return NULL;
    HANDLE h = INVALID_HANDLE_VALUE;
    for (int slot = 0; slot < slots && h == INVALID_HANDLE_VALUE; slot++) {
        snprintf(path, cap, CONTROL_PIPE_FORMAT, (int)GetCurrentProcessId(), slot);
        h = CreateNamedPipeA(path, PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED |
                             FILE_FLAG_FIRST_PIPE_INSTANCE,
                             PIPE_TYPE_BYTE | PIPE_REJECT_REMOTE_CLIENTS, 1, 512, 512, 0, &sa);
    }
    LocalFree(sa.lpSecurityDescriptor);
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

int clrprof__pipe_accept(void *pipe, void *stop)
{
    DWORD n;
    return io(pipe, 0, NULL, 0, stop, INFINITE, &n) &&
           WaitForSingleObject(stop, 0) != WAIT_OBJECT_0;
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

void clrprof__pipe_reply(void *pipe, void *stop, const char *text, unsigned timeout_ms)
{
    DWORD n, len = 0;
    while (text[len])
        len++;
    io(pipe, 2, (void *)text, len, stop, timeout_ms, &n);
    FlushFileBuffers(pipe);
    DisconnectNamedPipe(pipe);
}
