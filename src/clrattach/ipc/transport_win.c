/* transport_win.c - named-pipe transport (Windows); connect, write and read share a deadline.
 *
 * The runtime's diagnostics server on Windows listens on \\.\pipe\dotnet-diagnostic-<pid>
 * (docs/windows.md). Every wait is bounded by the command's deadline: a busy pipe is waited for
 * in slices with WaitNamedPipe, reads and writes are overlapped and cancelled (CancelIoEx) when
 * the deadline passes. */
#include "ipc/transport_win.h"

#include <stdio.h>
#include <string.h>
#include <windows.h>

/* The longest a single WaitNamedPipe may block, so the deadline is re-read often. */
#define BUSY_SLICE_MS 50

/* Maps a Win32 error to the library's codes, as the Unix errnos are mapped. */
static int win_error(DWORD err)
{
    switch (err) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_BAD_PATHNAME:
    case ERROR_INVALID_NAME:
        return CLRA_ENOENDPOINT;
    case ERROR_ACCESS_DENIED:
    case ERROR_PRIVILEGE_NOT_HELD:
        return CLRA_EACCES;
    case ERROR_SEM_TIMEOUT:
    case ERROR_TIMEOUT:
        return CLRA_ETIMEDOUT;
    case ERROR_BROKEN_PIPE:
    case ERROR_PIPE_NOT_CONNECTED:
    case ERROR_NO_DATA:
    case ERROR_NETNAME_DELETED:
        return CLRA_ECONNLOST;
    default:
        return CLRA_EIO;
    }
}

/* The system's own sentence for err, without its trailing period and line end. */
void clra__win_detail(clra_status_t *st, const char *what, const char *path, unsigned long err)
{
    char msg[256] = "";
    DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL,
                             err, 0, msg, sizeof msg, NULL);
    while (n > 0 && (msg[n - 1] == '\n' || msg[n - 1] == '\r' || msg[n - 1] == '.'))
        msg[--n] = '\0';
    if (st)
        st->sys_errno = (int)err;
    clra__detail(st, "%s(%s): %s (Windows error %lu)", what, path, n ? msg : "error",
                 (unsigned long)err);
}

/* UTF-8 path -> UTF-16 for the W functions; 0 or CLRA_EINVAL. */
static int wide_path(const char *path, wchar_t *out, int cap)
{
    return MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, out, cap) > 0
               ? 0
               : CLRA_EINVAL;
}

/* Opens the pipe, retrying while every instance is busy (the server makes a new one after each
 * accept); other failures are final. */
static int open_pipe(const wchar_t *wpath, const char *path, const clra__deadline_t *d,
                     HANDLE *out, clra_status_t *st)
{
    for (;;) {
        HANDLE h = CreateFileW(wpath, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING,
                               FILE_FLAG_OVERLAPPED, NULL);
        if (h != INVALID_HANDLE_VALUE) {
            *out = h;
            return 0;
        }
        DWORD err = GetLastError();
        int left = clra__deadline_left_ms(d);
        if (err != ERROR_PIPE_BUSY || left == 0) {
            clra__win_detail(st, "CreateFile", path, err);
            return err == ERROR_PIPE_BUSY ? CLRA_ETIMEDOUT : win_error(err);
        }
        DWORD slice = left < 0 || left > BUSY_SLICE_MS ? BUSY_SLICE_MS : (DWORD)left;
        if (!WaitNamedPipeW(wpath, slice) && GetLastError() != ERROR_SEM_TIMEOUT &&
            GetLastError() != ERROR_PIPE_BUSY) {
            err = GetLastError();
            clra__win_detail(st, "WaitNamedPipe", path, err);
            return win_error(err);
        }
    }
}

int clra__connect(const char *path, const clra__deadline_t *d, clra__conn_t *c,
                  clra_status_t *st)
{
    wchar_t wpath[CLRA_PATH_MAX];
    c->fd = -1;
    c->pipe = NULL;
    c->event = NULL;
    if (wide_path(path, wpath, CLRA_PATH_MAX) != 0) {
        clra__detail(st, "the pipe name %s is not valid UTF-8 or too long", path);
        return CLRA_EINVAL;
    }
    HANDLE h = NULL;
    int rc = open_pipe(wpath, path, d, &h, st);
    if (rc)
        return rc;
    c->pipe = h;
    c->event = CreateEventW(NULL, TRUE, FALSE, NULL);
    if (!c->event) {
        clra__win_detail(st, "CreateEvent", path, GetLastError());
        clra__close(c);
        return CLRA_EIO;
    }
    return 0;
}

/* Completes one overlapped operation before the deadline, or cancels it: 0 with *n set,
 * CLRA_ETIMEDOUT, CLRA_ECONNLOST or CLRA_EIO. */
static int finish_io(clra__conn_t *c, OVERLAPPED *ov, BOOL started, DWORD *n,
                     const clra__deadline_t *d)
{
    if (!started && GetLastError() != ERROR_IO_PENDING)
        return GetLastError() == ERROR_MORE_DATA ? 0 : win_error(GetLastError());
    int left = clra__deadline_left_ms(d);
    DWORD w = WaitForSingleObject(c->event, left < 0 ? INFINITE : (DWORD)left);
    if (w != WAIT_OBJECT_0) {
        CancelIoEx(c->pipe, ov);
        GetOverlappedResult(c->pipe, ov, n, TRUE); /* the buffer is ours again after this */
        return CLRA_ETIMEDOUT;
    }
    if (GetOverlappedResult(c->pipe, ov, n, FALSE) || GetLastError() == ERROR_MORE_DATA)
        return 0;
    return win_error(GetLastError());
}

/* One overlapped ReadFile (write 0) or WriteFile (write 1) of at most n bytes. */
static int pipe_io(clra__conn_t *c, int write, void *buf, size_t n, DWORD *done,
                   const clra__deadline_t *d)
{
    OVERLAPPED ov;
    memset(&ov, 0, sizeof ov);
    ov.hEvent = c->event;
    ResetEvent(c->event);
    DWORD chunk = n > 0x10000 ? 0x10000 : (DWORD)n;
    *done = 0;
    BOOL ok = write ? WriteFile(c->pipe, buf, chunk, NULL, &ov)
                    : ReadFile(c->pipe, buf, chunk, NULL, &ov);
    return finish_io(c, &ov, ok, done, d);
}

int clra__send_all(clra__conn_t *c, const void *buf, size_t n, const clra__deadline_t *d)
{
    const uint8_t *p = buf;
    while (n > 0) {
        DWORD k;
        int rc = pipe_io(c, 1, (void *)p, n, &k, d);
        if (rc)
            return rc;
        if (k == 0)
            return CLRA_ECONNLOST;
        p += k;
        n -= k;
    }
    return 0;
}

int clra__recv_exact(clra__conn_t *c, void *buf, size_t n, const clra__deadline_t *d)
{
    uint8_t *p = buf;
    while (n > 0) {
        DWORD k;
        int rc = pipe_io(c, 0, p, n, &k, d);
        if (rc)
            return rc;
        if (k == 0)
            return CLRA_ECONNLOST;
        p += k;
        n -= k;
    }
    return 0;
}

int clra__pipe_server_check(clra__conn_t *c, const char *path, int pid, clra_status_t *st)
{
    ULONG server = 0;
    if (!GetNamedPipeServerProcessId(c->pipe, &server)) {
        clra__win_detail(st, "GetNamedPipeServerProcessId", path, GetLastError());
        return CLRA_EUNSAFE;
    }
    if ((int)server != pid) {
        clra__detail(st, "%s is served by process %lu, not by process %d: refused", path,
                     (unsigned long)server, pid);
        return CLRA_EUNSAFE;
    }
    return 0;
}

int clra__conn_quiet(const clra__conn_t *c)
{
    DWORD avail = 0;
    return c->pipe && PeekNamedPipe(c->pipe, NULL, 0, NULL, &avail, NULL) && avail == 0;
}

void clra__close(clra__conn_t *c)
{
    if (c->pipe)
        CloseHandle(c->pipe);
    if (c->event)
        CloseHandle(c->event);
    c->pipe = NULL;
    c->event = NULL;
    c->fd = -1;
}

/* user_events sessions pass a Linux descriptor (SCM_RIGHTS); a named pipe has no such thing,
 * and no Windows runtime offers user_events, so the request layer learns it cannot be done. */
int clra__send_fd(clra__conn_t *c, int fd, const clra__deadline_t *d)
{
    (void)c;
    (void)fd;
    (void)d;
    return CLRA_EINVAL;
}

int clra__conn_from_pipe(void *pipe, clra__conn_t *c)
{
    c->fd = -1;
    c->pipe = pipe;
    c->event = CreateEventW(NULL, TRUE, FALSE, NULL);
    if (c->event)
        return 0;
    clra__close(c);
    return CLRA_EIO;
}

void clra__pipe_close(void *pipe)
{
    if (pipe)
        CloseHandle(pipe);
}
