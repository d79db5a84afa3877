/* transport.h - one connection to a diagnostics server, every call under one deadline. */
#ifndef CLRA_TRANSPORT_H
#define CLRA_TRANSPORT_H

#include "proto/message.h"
#include "util/deadline.h"
#include "util/status.h"

#include <stdint.h>

typedef struct clra__conn {
    int fd;      /* the Unix socket; -1 on Windows, where the pipe is below */
#ifdef _WIN32 /* the named pipe's HANDLEs: no Unix type can hold them, no Unix code uses them */
    void *pipe;  /* HANDLE of the named pipe (overlapped), NULL when closed */
    void *event; /* HANDLE of the event its overlapped reads and writes complete on */
#endif
} clra__conn_t;

/* Connects to a Unix socket path of any length (long paths go through an O_PATH directory
 * descriptor), or on Windows to a named pipe (\\.\pipe\NAME). Fails with CLRA_ENOENDPOINT, CLRA_ECONNREFUSED, CLRA_EACCES, CLRA_ETIMEDOUT or
 * CLRA_EIO, with st->sys_errno and st->detail set. */
int clra__connect(const char *path, const clra__deadline_t *d, clra__conn_t *c,
                  clra_status_t *st);
/* Sends all n bytes (the server blocks everyone on a partial message, so never stop early
 * without closing). CLRA_ETIMEDOUT, CLRA_ECONNLOST or CLRA_EIO. */
int clra__send_all(clra__conn_t *c, const void *buf, size_t n, const clra__deadline_t *d);
/* Passes descriptor fd to the peer (SCM_RIGHTS) with one data byte, as the runtime's
 * ds_ipc_stream_read_fd reads it: one recvmsg of a 1-byte buffer. CLRA_ETIMEDOUT,
 * CLRA_ECONNLOST or CLRA_EIO. */
int clra__send_fd(clra__conn_t *c, int fd, const clra__deadline_t *d);
/* Receives exactly n bytes. EOF before that is CLRA_ECONNLOST. */
int clra__recv_exact(clra__conn_t *c, void *buf, size_t n, const clra__deadline_t *d);
/* Receives one whole message: header, then exactly size - 20 payload bytes into payload
 * (capacity CLRA__MAX_MESSAGE - 20 is always enough). */
int clra__recv_message(clra__conn_t *c, clra__header_t *h, uint8_t *payload, size_t cap,
                       size_t *payload_len, const clra__deadline_t *d);
void clra__close(clra__conn_t *c);
/* Whether an idle connection is still open with nothing to read (a held reverse connection
 * is dead once the runtime hung up or, never expected, sent something). */
int clra__conn_quiet(const clra__conn_t *c);

/* Streams (a trace session's connection), ipc/stream_unix.c and ipc/stream_win.c. */
/* Waits up to wait_ms until one of the n connections (NULL entries are skipped) has bytes to
 * read or has ended; bit i of *ready is set for each such cs[i]. 0 also when nothing is ready
 * (time up, or on Unix a signal cut the wait short, so a Ctrl-C flag is seen at once);
 * CLRA_EIO with st->detail when the wait itself failed. */
int clra__wait_readable(clra__conn_t *const *cs, int n, int wait_ms, unsigned *ready,
                        clra_status_t *st);
/* Reads what is there now, without waiting: *got bytes, 0 when nothing yet. CLRA_ECONNLOST
 * when the peer ended the stream; CLRA_EIO with st->detail on a failed read. */
int clra__recv_now(clra__conn_t *c, void *buf, size_t cap, size_t *got, clra_status_t *st);
/* A connection kept in public fields (clra_trace_session_t's fd and one reserved pointer) and
 * back: the socket on Unix; on Windows the pipe's HANDLE value (handles fit 32 bits) and its
 * event. */
void clra__conn_store(const clra__conn_t *c, int *fd, void **aux);
void clra__conn_load(clra__conn_t *c, int fd, void *aux);
/* Takes over pipe, a connected overlapped pipe HANDLE (a reverse connection on Windows), as c:
 * c owns it from here even on failure. 0 or CLRA_EIO (no event for its overlapped I/O); on
 * Unix, where there are no pipe HANDLEs (always NULL), CLRA_EINVAL. */
int clra__conn_from_pipe(void *pipe, clra__conn_t *c);
/* Platform-only calls: ipc/transport_unix.h (connect as a socket's owner), ipc/transport_win.h
 * (Windows error details, the pipe server's pid). */


#endif
