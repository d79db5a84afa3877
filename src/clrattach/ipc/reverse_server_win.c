/* reverse_server_win.c - the reverse server on Windows (twin of reverse_server.c): a named pipe
 * \\.\pipe\NAME of our own that runtimes told DOTNET_DiagnosticPorts=NAME,connect connect to.
 * One instance always waits for the next runtime (overlapped ConnectNamedPipe); each connected
 * instance's advertise is read under a bound, and the latest live connection per runtime
 * cookie is held until a command takes it. */
#include "ipc/reverse_held.h"
#include "ipc/transport_win.h"

#include <stdlib.h>
#include <string.h>
#include <windows.h>
#include <sddl.h>

#define PIPE_PREFIX "\\\\.\\pipe\\"
#define PIPE_BUFFER 16384

struct clra_reverse_server {
    char path[CLRA_PATH_MAX];
    wchar_t wpath[CLRA_PATH_MAX];
    SECURITY_ATTRIBUTES sa; /* owner and SYSTEM only, for every instance */
    HANDLE pending;         /* the instance waiting for a client, NULL after a failure */
    OVERLAPPED ov;          /* its ConnectNamedPipe; ov.hEvent is set once a client is in */
    int pre_connected;      /* the client came before ConnectNamedPipe (no I/O to ask about) */
    clra__held_set_t held;
};

/* Creates an instance and starts its overlapped connect. The first one is the pipe's first
 * instance or nothing: a name someone else made first is refused, never shared. 0 or the
 * Win32 error. */
static DWORD new_instance(clra_reverse_server_t *s, int first)
{
    DWORD mode = PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED |
                 (first ? FILE_FLAG_FIRST_PIPE_INSTANCE : 0);
    HANDLE h = CreateNamedPipeW(s->wpath, mode,
                                PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT |
                                    PIPE_REJECT_REMOTE_CLIENTS,
                                PIPE_UNLIMITED_INSTANCES, PIPE_BUFFER, PIPE_BUFFER, 0, &s->sa);
    if (h == INVALID_HANDLE_VALUE)
        return GetLastError();
    s->pending = h;
    s->pre_connected = 0;
    ResetEvent(s->ov.hEvent);
    HANDLE ev = s->ov.hEvent;
    memset(&s->ov, 0, sizeof s->ov);
    s->ov.hEvent = ev;
    if (ConnectNamedPipe(h, &s->ov))
        return 0; /* the event is set: a client is in */
    DWORD err = GetLastError();
    if (err == ERROR_IO_PENDING)
        return 0;
    if (err == ERROR_PIPE_CONNECTED) { /* connected between create and connect */
        s->pre_connected = 1;
        SetEvent(s->ov.hEvent);
        return 0;
    }
    /* A client that came and went already (ERROR_NO_DATA): this instance is spent. */
    CloseHandle(h);
    s->pending = NULL;
    return err;
}

/* ERROR_ALREADY_EXISTS when a pipe of that name has an instance, else 0. Windows refuses a
 * first instance of an existing name by itself; wine 8 ignores FILE_FLAG_FIRST_PIPE_INSTANCE,
 * so the name is probed first (WaitNamedPipe takes no instance). */
static DWORD name_exists(const wchar_t *wpath)
{
    if (WaitNamedPipeW(wpath, 1))
        return ERROR_ALREADY_EXISTS;
    DWORD err = GetLastError();
    return err == ERROR_FILE_NOT_FOUND || err == ERROR_BAD_PATHNAME ? 0 : ERROR_ALREADY_EXISTS;
}

int clra_reverse_server_listen(const char *path, clra_reverse_server_t **out, clra_status_t *st)
{
    clra_status_t local;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    if (out)
        *out = NULL;
    size_t plen = strlen(PIPE_PREFIX);
    if (!path || !out || strncmp(path, PIPE_PREFIX, plen) != 0 || !path[plen] ||
        strchr(path + plen, '\\') || strlen(path) >= 256) {
        clra__detail(st, "a reverse server on Windows needs a pipe path \\\\.\\pipe\\NAME "
                     "(NAME without a backslash, under 256 characters in all)");
        return CLRA_EINVAL;
    }
    clra_reverse_server_t *s = calloc(1, sizeof *s);
    if (!s)
        return CLRA_ENOMEM;
    strcpy(s->path, path);
    if (MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, s->wpath,
                            CLRA_PATH_MAX) <= 0) {
        free(s);
        clra__detail(st, "the pipe name %s is not valid UTF-8", path);
        return CLRA_EINVAL;
    }
    s->sa.nLength = sizeof s->sa;
    s->sa.bInheritHandle = FALSE;
    /* Protected DACL: the owner (us) and SYSTEM; no other user may connect or add instances. */
    if (!ConvertStringSecurityDescriptorToSecurityDescriptorW(L"D:P(A;;GA;;;OW)(A;;GA;;;SY)",
                                                              SDDL_REVISION_1,
                                                              &s->sa.lpSecurityDescriptor,
                                                              NULL)) {
        clra__win_detail(st, "ConvertStringSecurityDescriptorToSecurityDescriptor", path,
                   GetLastError());
        free(s);
        return CLRA_EIO;
    }
    s->ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
    DWORD err = s->ov.hEvent ? name_exists(s->wpath) : GetLastError();
    if (!err)
        err = new_instance(s, 1);
    if (err) {
        clra__win_detail(st, "CreateNamedPipe", path, err);
        if (err == ERROR_ACCESS_DENIED || err == ERROR_PIPE_BUSY || err == ERROR_ALREADY_EXISTS)
            clra__detail(st, "cannot create the pipe %s: a pipe of that name exists already "
                         "(Windows error %lu); pick another name", path, (unsigned long)err);
        clra_reverse_server_close(s);
        return CLRA_EIO;
    }
    *out = s;
    return 0;
}

/* Reads and checks the advertise of a freshly connected instance (clra__read_advertise), then
 * holds the pipe. */
static void take_client(clra_reverse_server_t *s, HANDLE pipe, const clra__deadline_t *d,
                        clra_status_t *st)
{
    clra_advertise_t ad;
    clra__conn_t c;
    if (clra__conn_from_pipe(pipe, &c) != 0 || clra__read_advertise(&c, d, s->path, &ad, st) != 0)
        return;
    CloseHandle(c.event); /* the held pipe gets a fresh event when a command takes it */
    c.event = NULL;
    clra__held_add(&s->held, &c, &ad);
}

/* Waits until the deadline for a client on the pending instance; a connected one is replaced
 * by a new instance at once (a runtime finding none retries later) and its advertise read. */
static int accept_one(void *server, const clra__deadline_t *d, clra_status_t *st)
{
    clra_reverse_server_t *s = server;
    if (!s->pending) {
        DWORD err = new_instance(s, 0);
        if (err && err != ERROR_NO_DATA) {
            clra__win_detail(st, "CreateNamedPipe", s->path, err);
            return CLRA_EIO;
        }
        if (err)
            return 0;
    }
    int left = clra__deadline_left_ms(d);
    if (left == 0)
        return CLRA_ETIMEDOUT;
    if (WaitForSingleObject(s->ov.hEvent, left < 0 ? INFINITE : (DWORD)left) != WAIT_OBJECT_0)
        return CLRA_ETIMEDOUT;
    HANDLE client = s->pending;
    DWORD n;
    BOOL ok = s->pre_connected || GetOverlappedResult(client, &s->ov, &n, FALSE);
    s->pending = NULL;
    new_instance(s, 0); /* a failure is retried by the next accept_one */
    if (!ok) { /* the client gave up before we saw it: no failure */
        CloseHandle(client);
        return 0;
    }
    take_client(s, client, d, st);
    return 0;
}

int clra_reverse_server_wait(clra_reverse_server_t *s, const clra_guid_t *cookie, int timeout_ms,
                             clra_advertise_t *ad, clra_status_t *st)
{
    clra_status_t local;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    if (!s)
        return CLRA_EINVAL;
    return clra__held_wait(&s->held, accept_one, s, s->path, cookie, timeout_ms, ad, st);
}

int clra_reverse_server_accept(clra_reverse_server_t *s, const clra_guid_t *cookie,
                               clra_connection_t **out)
{
    if (!s || !out)
        return CLRA_EINVAL;
    *out = NULL;
    clra__held_t *h = clra__held_find(&s->held, cookie);
    if (!h)
        return CLRA_ENOENDPOINT;
    clra_connection_t *c = malloc(sizeof *c);
    if (!c)
        return CLRA_ENOMEM;
    c->fd = -1;
    c->ns_pid = (int)h->ad.pid;
    c->pipe = clra__held_take(h).pipe;
    *out = c;
    return 0;
}

/* No descriptors on Windows: a caller's own pipe comes in by clra_connection_from_handle. */
int clra_connection_from_fd(int fd, clra_connection_t **out)
{
    (void)fd;
    if (out)
        *out = NULL;
    return CLRA_EINVAL;
}

int clra_connection_from_handle(void *handle, clra_connection_t **out)
{
    if (!out)
        return CLRA_EINVAL;
    *out = NULL;
    if (!handle || handle == INVALID_HANDLE_VALUE)
        return CLRA_EINVAL;
    clra_connection_t *c = malloc(sizeof *c);
    if (!c)
        return CLRA_ENOMEM;
    c->fd = -1;
    c->pipe = handle;
    c->ns_pid = 0;
    *out = c;
    return 0;
}

int clra_connection_fd(const clra_connection_t *c)
{
    (void)c;
    return -1;
}

void *clra_connection_handle(const clra_connection_t *c)
{
    return c ? c->pipe : NULL;
}

void clra_connection_close(clra_connection_t *c)
{
    if (!c)
        return;
    if (c->pipe)
        CloseHandle(c->pipe);
    free(c);
}

void clra_reverse_server_close(clra_reverse_server_t *s)
{
    if (!s)
        return;
    clra__held_close_all(&s->held);
    if (s->pending) {
        CancelIoEx(s->pending, &s->ov);
        CloseHandle(s->pending);
    }
    if (s->ov.hEvent)
        CloseHandle(s->ov.hEvent);
    LocalFree(s->sa.lpSecurityDescriptor);
    free(s);
}
