/* request.h - one diagnostics command on a fresh connection: connect, send, read the reply
 * (internal). Every command module builds its request with the wire writer and hands it here,
 * so connection errors read the same for every verb. */
#ifndef CLRA_REQUEST_H
#define CLRA_REQUEST_H

#include "ipc/transport.h"

/* Where one command goes: a socket (found for a pid, or given) or a reverse connection. */
typedef struct clra__endpoint {
    clra_endpoint_t at; /* at.pid > 0: the socket is checked as that process's */
    int fd;             /* a connection spent by the first clra__open; -1 when none */
    void *pipe; /* the same on Windows: a reverse connection's pipe HANDLE; NULL when none,
                 * always on Unix */
} clra__endpoint_t;

/* A connection for one command (clrattach.h): a reverse server's, or the caller's own. */
struct clra_connection {
    int fd;
    int ns_pid; /* the advertised pid, 0 when unknown */
    void *pipe; /* Windows: the connected pipe's HANDLE (overlapped), fd then -1; Unix: NULL */
};

/* Closes a connection the command did not spend (an argument check failed first): the socket,
 * or on Windows the pipe (ipc/request_unix.c, ipc/request_win.c). */
void clra__endpoint_done(clra__endpoint_t *e);

/* Opens a connection to ep: its reverse connection (taken: ep->fd becomes -1), or a new one to
 * its path (a refused permission is explained with the socket's owner). Every command starts
 * here. */
int clra__open(clra__endpoint_t *ep, const clra__deadline_t *d, clra__conn_t *c,
               clra_status_t *st);

/* Sends req to ep and reads the first reply message before the deadline. With keep non-NULL
 * the connection stays open in *keep for a continuation or a stream (the caller closes it);
 * otherwise it is closed. On failure st->detail says what happened and nothing is left open. */
int clra__request(clra__endpoint_t *ep, const uint8_t *req, size_t req_len,
                  const clra__deadline_t *d, clra__reply_t *reply, clra__conn_t *keep,
                  clra_status_t *st);


/* clra__request that passes descriptor pass_fd (SCM_RIGHTS) right after the request, before
 * reading the reply; pass_fd -1 passes none. */
int clra__request_passing(clra__endpoint_t *ep, const uint8_t *req, size_t req_len, int pass_fd,
                          const clra__deadline_t *d, clra__reply_t *reply, clra__conn_t *keep,
                          clra_status_t *st);

/* The whole exchange for commands answered with an int32 HRESULT (OK or Error). */
int clra__request_hresult(clra__endpoint_t *ep, const uint8_t *req, size_t req_len,
                          const clra__deadline_t *d, clra_status_t *st);

/* Builds the request with build(w, arg) into a 64 KiB buffer, explains a build failure, then
 * runs clra__request_hresult within timeout_ms. For the many commands with a plain reply. */
typedef int (*clra__build_fn)(clra__writer_t *w, const void *arg);
int clra__command_hresult(clra__endpoint_t *ep, clra__build_fn build, const void *arg,
                          int timeout_ms, clra_status_t *st);

#endif
