/* stream_win.c - a stream on a named pipe: Windows cannot wait on a pipe for "readable", so the
 * connections are peeked (PeekNamedPipe, which never blocks) in short slices until bytes are
 * there or a pipe has ended, and the bytes peeked are then read with the transport's
 * overlapped read, which completes at once. */
#include "ipc/transport.h"

#include <stdint.h>
#include <windows.h>

#define PEEK_SLICE_MS 10 /* how late a stream's bytes may be seen; a wineserver call each */

/* The peer closed its end: what PeekNamedPipe and ReadFile say then. */
static int pipe_ended(DWORD err)
{
    return err == ERROR_BROKEN_PIPE || err == ERROR_PIPE_NOT_CONNECTED || err == ERROR_NO_DATA;
}

/* Bytes waiting in the pipe now; 1 when it has ended (0 bytes), -1 with GetLastError. */
static int peek(clra__conn_t *c, DWORD *avail)
{
    *avail = 0;
    if (PeekNamedPipe(c->pipe, NULL, 0, NULL, avail, NULL))
        return 0;
    return pipe_ended(GetLastError()) ? 1 : -1;
}

/* Peeks every connection each slice until one is ready or wait_ms has passed. */
int clra__wait_readable(clra__conn_t *const *cs, int n, int wait_ms, unsigned *ready,
                        clra_status_t *st)
{
    clra__deadline_t d = clra__deadline_in(wait_ms);
    *ready = 0;
    if (n < 0 || n > 8)
        return CLRA_EINVAL;
    for (;;) {
        for (int i = 0; i < n; i++) {
            DWORD avail;
            if (!cs[i])
                continue;
            int p = peek(cs[i], &avail);
            if (p < 0) {
                st->sys_errno = (int)GetLastError();
                clra__detail(st, "waiting for the stream: PeekNamedPipe failed (Windows error "
                             "%lu)", (unsigned long)GetLastError());
                return CLRA_EIO;
            }
            if (p > 0 || avail > 0)
                *ready |= 1u << i;
        }
        int left = clra__deadline_left_ms(&d);
        if (*ready || left == 0)
            return 0;
        Sleep(left < 0 || left > PEEK_SLICE_MS ? PEEK_SLICE_MS : (DWORD)left);
    }
}

/* Reads at most what the peek promised, so the read never waits for more. */
int clra__recv_now(clra__conn_t *c, void *buf, size_t cap, size_t *got, clra_status_t *st)
{
    DWORD avail;
    *got = 0;
    int p = peek(c, &avail);
    if (p > 0)
        return CLRA_ECONNLOST;
    if (p < 0) {
        st->sys_errno = (int)GetLastError();
        clra__detail(st, "reading the stream: PeekNamedPipe failed (Windows error %lu)",
                     (unsigned long)GetLastError());
        return CLRA_EIO;
    }
    if (avail == 0)
        return 0;
    size_t n = avail < cap ? avail : cap;
    clra__deadline_t d = clra__deadline_in(5000); /* the bytes are there: this is a guard */
    int rc = clra__recv_exact(c, buf, n, &d);
    if (rc == CLRA_ECONNLOST)
        return rc;
    if (rc) {
        clra__detail(st, "reading %zu bytes the pipe held: %s", n, clra_strerror(rc));
        return rc;
    }
    *got = n;
    return 0;
}

/* The pipe's HANDLE value goes into the int (Windows keeps handles within 32 bits so that 32-
 * and 64-bit processes can share them), its overlapped event into the pointer. */
void clra__conn_store(const clra__conn_t *c, int *fd, void **aux)
{
    *fd = c->pipe ? (int)(intptr_t)c->pipe : -1;
    *aux = c->event;
}

void clra__conn_load(clra__conn_t *c, int fd, void *aux)
{
    c->fd = -1;
    c->pipe = fd >= 0 ? (void *)(intptr_t)fd : NULL;
    c->event = aux;
}
