/* stream_unix.c - a stream on a Unix socket: wait for bytes on several sockets at once (poll)
 * and read what has come without blocking (MSG_DONTWAIT). */
#define _GNU_SOURCE
#include "ipc/transport.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>

/* poll over the connections given; EINTR is "nothing ready" so signals stay prompt. */
int clra__wait_readable(clra__conn_t *const *cs, int n, int wait_ms, unsigned *ready,
                        clra_status_t *st)
{
    struct pollfd p[8];
    *ready = 0;
    if (n < 0 || n > 8)
        return CLRA_EINVAL;
    for (int i = 0; i < n; i++)
        p[i] = (struct pollfd){cs[i] ? cs[i]->fd : -1, POLLIN, 0};
    int k = poll(p, (nfds_t)n, wait_ms);
    if (k < 0 && errno != EINTR) {
        st->sys_errno = errno;
        clra__detail(st, "waiting for the stream: %s", strerror(errno));
        return CLRA_EIO;
    }
    for (int i = 0; k > 0 && i < n; i++)
        if (p[i].revents)
            *ready |= 1u << i;
    return 0;
}

/* One non-blocking recv; a reset is the peer's end like EOF (the runtime ended the session). */
int clra__recv_now(clra__conn_t *c, void *buf, size_t cap, size_t *got, clra_status_t *st)
{
    *got = 0;
    for (;;) {
        ssize_t k = recv(c->fd, buf, cap, MSG_DONTWAIT);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return 0;
        if (k == 0 || (k < 0 && errno == ECONNRESET))
            return CLRA_ECONNLOST;
        if (k < 0) {
            st->sys_errno = errno;
            clra__detail(st, "reading the stream: %s", strerror(errno));
            return CLRA_EIO;
        }
        *got = (size_t)k;
        return 0;
    }
}

/* The socket is the whole connection. */
void clra__conn_store(const clra__conn_t *c, int *fd, void **aux)
{
    *fd = c->fd;
    *aux = NULL;
}

void clra__conn_load(clra__conn_t *c, int fd, void *aux)
{
    (void)aux;
    c->fd = fd;
}
