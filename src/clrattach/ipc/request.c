/* request.c - connect, send one request, read its first reply; shared by every command. */
#include "ipc/request.h"
#include "ipc/request_platform.h"

#include <stdlib.h>
#include <string.h>

/* One message over either transport (socket or named pipe): the header says how much follows,
 * and a size past the caller's buffer is a protocol error, never a partial read. */
int clra__recv_message(clra__conn_t *c, clra__header_t *h, uint8_t *payload, size_t cap,
                       size_t *payload_len, const clra__deadline_t *d)
{
    uint8_t head[CLRA__HEADER_SIZE];
    int rc = clra__recv_exact(c, head, sizeof head, d);
    if (rc == 0)
        rc = clra__parse_header(head, h);
    if (rc)
        return rc;
    *payload_len = (size_t)h->size - CLRA__HEADER_SIZE;
    if (*payload_len > cap)
        return CLRA_EPROTO;
    return clra__recv_exact(c, payload, *payload_len, d);
}

/* Says in the detail which step failed, since the codes alone look alike to a user. */
static void explain_exchange(int rc, const char *path, clra_status_t *st)
{
    if (!path[0])
        path = "the reverse connection";
    if (rc == CLRA_EPROTO)
        clra__detail(st, "the reply from %s does not start with a valid IPC header", path);
    else if (rc == CLRA_ETIMEDOUT)
        clra__detail(st, "no complete reply from %s before the deadline; the runtime may still "
                     "finish the request", path);
    else if (rc == CLRA_ECONNLOST)
        clra__detail(st, "%s closed the connection before replying (the process may have exited)",
                     path);
}

int clra__open(clra__endpoint_t *ep, const clra__deadline_t *d, clra__conn_t *c,
               clra_status_t *st)
{
    /* A reverse connection is already open and is spent by this one command. */
    if (ep->fd >= 0) {
        c->fd = ep->fd;
        ep->fd = -1;
        return 0;
    }
    if (ep->pipe) { /* Windows: a reverse connection's pipe, spent the same way */
        void *pipe = ep->pipe;
        ep->pipe = NULL;
        return clra__conn_from_pipe(pipe, c);
    }
    if (!ep->at.path[0]) {
        clra__detail(st, "the connection was spent by an earlier command (one per connection)");
        return CLRA_ENOENDPOINT;
    }
    /* An explicit path (pid 0) is the caller's own choice and is taken as given. */
    int rc = ep->at.pid > 0 ? clra__connect_checked(&ep->at, d, c, st)
                            : clra__connect(ep->at.path, d, c, st);
    if (rc == CLRA_EACCES)
        clra__explain_access(ep->at.path, st);
    return rc;
}

int clra__request(clra__endpoint_t *ep, const uint8_t *req, size_t req_len,
                  const clra__deadline_t *d, clra__reply_t *reply, clra__conn_t *keep,
                  clra_status_t *st)
{
    return clra__request_passing(ep, req, req_len, -1, d, reply, keep, st);
}

int clra__request_passing(clra__endpoint_t *ep, const uint8_t *req, size_t req_len, int pass_fd,
                          const clra__deadline_t *d, clra__reply_t *reply, clra__conn_t *keep,
                          clra_status_t *st)
{
    clra__conn_t c;
    size_t cap = CLRA__MAX_MESSAGE - CLRA__HEADER_SIZE;
    memset(reply, 0, sizeof *reply);
    int rc = clra__open(ep, d, &c, st);
    if (rc)
        return rc;
    /* On the heap: callers may be agents' threads with small stacks. */
    reply->payload = malloc(cap);
    rc = reply->payload ? clra__send_all(&c, req, req_len, d) : CLRA_ENOMEM;
    /* A runtime that refuses the request (one before .NET 10 does not know CollectTracing5)
     * answers and closes before it reads the descriptor: its reply is still there to read. */
    int fd_rc = rc == 0 && pass_fd >= 0 ? clra__send_fd(&c, pass_fd, d) : 0;
    if (fd_rc && fd_rc != CLRA_ECONNLOST)
        rc = fd_rc;
    if (rc == 0)
        rc = clra__recv_message(&c, &reply->h, reply->payload, cap, &reply->len, d);
    if (fd_rc && rc)
        clra__detail(st, "passing the descriptor after the request: %s", clra_strerror(fd_rc));
    if (rc) {
        explain_exchange(rc, ep->at.path, st);
        clra__reply_free(reply);
    }
    if (rc == 0 && keep)
        *keep = c;
    else
        clra__close(&c);
    return rc;
}

int clra__request_hresult(clra__endpoint_t *ep, const uint8_t *req, size_t req_len,
                          const clra__deadline_t *d, clra_status_t *st)
{
    clra__reply_t reply;
    int rc = clra__request(ep, req, req_len, d, &reply, NULL, st);
    if (rc)
        return rc;
    rc = clra__parse_hresult_exact(&reply.h, reply.payload, reply.len, &st->hresult, st);
    clra__reply_free(&reply);
    return rc;
}

int clra__command_hresult(clra__endpoint_t *ep, clra__build_fn build, const void *arg,
                          int timeout_ms, clra_status_t *st)
{
    clra__writer_t w;
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    uint8_t *req = malloc(CLRA__MAX_MESSAGE);
    if (!req)
        return CLRA_ENOMEM;
    clra__writer_init(&w, req, CLRA__MAX_MESSAGE);
    int rc = build(&w, arg);
    if (rc == CLRA_ETOOBIG)
        clra__detail(st, "the request exceeds the protocol's 65535-byte message limit");
    else if (rc == CLRA_EENCODING)
        clra__detail(st, "a text argument is not valid UTF-8");
    else if (rc == 0)
        rc = clra__request_hresult(ep, req, w.len, &d, st);
    free(req);
    return rc;
}
