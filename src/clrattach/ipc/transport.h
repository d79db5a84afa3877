/* transport.h - one connection to a diagnostics server, every call under one deadline. */
#ifndef CLRA_TRANSPORT_H
#define CLRA_TRANSPORT_H

#include "proto/message.h"
#include "util/deadline.h"
#include "util/status.h"

#include <stdint.h>

typedef struct clra__conn {
    int fd;      /* the Unix socket; -1 on Windows, where the pipe is below */
#ifdef _WIN32
    void *pipe;  /* HANDLE of the named pipe (overlapped), NULL when closed */
    void *event; /* HANDLE of the event its overlapped reads and writes complete on */
#endif
} clra__conn_t;

/* Connects to a Unix socket path of any length (long paths go through an O_PATH directory
 * descriptor), or on Windows to a named pipe (\\.\pipe\NAME). Fails with CLRA_ENOENDPOINT, CLRA_ECONNREFUSED, CLRA_EACCES, CLRA_ETIMEDOUT or
 * CLRA_EIO, with st->sys_errno and st->detail set. */
int clra__connect(const char *path, const clra__deadline_t *d, clra__conn_t *c,
                  clra_status_t *st);
#ifndef _WIN32
#include <sys/types.h>
/* clra__connect as uid and gid (a socket's owner) when we are root and uid is not 0: the
 * kernel checks the socket's permissions as the owner's, and the listener's SO_PEERCRED shows
 * the owner (a libclrprof control endpoint admits only its process's owner or root, as its
 * user namespace sees them; host root is unmapped, the overflow uid, in a rootless
 * container). Otherwise a plain clra__connect. */
int clra__connect_as(const char *path, uid_t uid, gid_t gid, const clra__deadline_t *d,
                     clra__conn_t *c, clra_status_t *st);
#endif
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
#ifdef _WIN32
/* Writes "what(path): <system message> (Windows error N)" into st's detail and err into its
 * sys_errno. */
void clra__win_detail(clra_status_t *st, const char *what, const char *path, unsigned long err);
/* The pid of the process that created the pipe's server end (GetNamedPipeServerProcessId), so
 * a pipe found by name is checked to be the target's; 0 or CLRA_EUNSAFE with st->detail. */
int clra__pipe_server_check(clra__conn_t *c, const char *path, int pid, clra_status_t *st);
/* Takes over pipe, a connected overlapped pipe HANDLE (a reverse connection), as c: c owns it
 * from here even on failure. 0 or CLRA_EIO (no event for its overlapped I/O). */
int clra__conn_from_pipe(void *pipe, clra__conn_t *c);
/* Closes a pipe HANDLE no connection took over (NULL is a no-op). */
void clra__pipe_close(void *pipe);
#endif


#endif
