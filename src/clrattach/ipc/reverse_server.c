/* reverse_server.c - listen where DOTNET_DiagnosticPorts tells runtimes to connect, keep the
 * latest advertised connection per runtime, and hand each out for one command. */
#define _GNU_SOURCE
#include "ipc/reverse_held.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

struct clra_reverse_server {
    int listen_fd;
    char path[CLRA_PATH_MAX];
    clra__held_set_t held;
};

int clra_reverse_server_listen(const char *path, clra_reverse_server_t **out, clra_status_t *st)
{
    clra_status_t local;
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    if (!path || !out || strlen(path) >= sizeof sa.sun_path) {
        clra__detail(st, "a reverse server needs a socket path shorter than %zu bytes",
                     sizeof sa.sun_path);
        return CLRA_EINVAL;
    }
    clra_reverse_server_t *s = calloc(1, sizeof *s);
    if (!s)
        return CLRA_ENOMEM;
    strcpy(sa.sun_path, path);
    strcpy(s->path, path);
    s->listen_fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    /* The umask makes the socket owner-only from birth: no window where others can connect. */
    mode_t old = umask(0077);
    int rc = s->listen_fd < 0 || bind(s->listen_fd, (struct sockaddr *)&sa, sizeof sa) != 0 ||
             listen(s->listen_fd, 16) != 0;
    int err = errno;
    umask(old);
    if (rc) {
        st->sys_errno = err;
        clra__detail(st, "cannot listen on %s: %s%s", path, strerror(err),
                     err == EADDRINUSE ? " (the file exists; remove it or pick another path)" : "");
        if (s->listen_fd >= 0)
            close(s->listen_fd);
        free(s);
        return err == EACCES ? CLRA_EACCES : CLRA_EIO;
    }
    *out = s;
    return 0;
}

/* Accepts one connection and reads its advertise; a peer that sends garbage or nothing within
 * a second is dropped, so it cannot stall the server. */
static int accept_one(void *server, const clra__deadline_t *d, clra_status_t *st)
{
    clra_reverse_server_t *s = server;
    struct pollfd p = {s->listen_fd, POLLIN, 0};
    clra_advertise_t ad;
    int left = clra__deadline_left_ms(d);
    if (left == 0)
        return CLRA_ETIMEDOUT;
    int n = poll(&p, 1, left);
    if (n == 0)
        return CLRA_ETIMEDOUT;
    if (n < 0 && errno == EINTR)
        return 0;
    clra__conn_t c = {n < 0 ? -1 : accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK)};
    /* A peer that gave up is no failure; out of descriptors is, or poll would spin on it. */
    if (c.fd < 0 && n > 0 && (errno == EINTR || errno == EAGAIN || errno == ECONNABORTED))
        return 0;
    if (c.fd < 0) {
        if (st)
            st->sys_errno = errno;
        clra__detail(st, "waiting for runtimes on %s: %s: %s", s->path,
                     n < 0 ? "poll" : "accept", strerror(errno));
        return CLRA_EIO;
    }
    if (clra__read_advertise(&c, d, s->path, &ad, st) == 0)
        clra__held_add(&s->held, &c, &ad);
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
    c->ns_pid = (int)h->ad.pid;
    c->fd = clra__held_take(h).fd;
    c->pipe = NULL;
    *out = c;
    return 0;
}

/* The caller's own descriptor becomes a connection like a reverse server's. */
int clra_connection_from_fd(int fd, clra_connection_t **out)
{
    if (!out)
        return CLRA_EINVAL;
    *out = NULL;
    if (fd < 0)
        return CLRA_EINVAL;
    clra_connection_t *c = malloc(sizeof *c);
    if (!c)
        return CLRA_ENOMEM;
    c->fd = fd;
    c->ns_pid = 0;
    c->pipe = NULL;
    *out = c;
    return 0;
}

int clra_connection_fd(const clra_connection_t *c)
{
    return c ? c->fd : -1;
}

void clra_connection_close(clra_connection_t *c)
{
    if (!c)
        return;
    if (c->fd >= 0)
        close(c->fd);
    free(c);
}

void clra_reverse_server_close(clra_reverse_server_t *s)
{
    if (!s)
        return;
    clra__held_close_all(&s->held);
    close(s->listen_fd);
    unlink(s->path);
    free(s);
}
