/* reverse_server.c - listen where DOTNET_DiagnosticPorts tells runtimes to connect, keep the
 * latest advertised connection per runtime, and hand each out for one command. */
#define _GNU_SOURCE
#include "proto/advertise.h"
#include "ipc/request.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_HELD 16
#define ADVERTISE_READ_MS 1000

typedef struct held {
    clra_advertise_t ad;
    int fd; /* -1 when the slot is free */
    uint64_t seq;
} held_t;

struct clra_reverse_server {
    int listen_fd;
    char path[CLRA_PATH_MAX];
    held_t held[MAX_HELD];
    uint64_t seq;
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
    for (int i = 0; i < MAX_HELD; i++)
        s->held[i].fd = -1;
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

/* A held connection is dead once the runtime hung up or (never expected) sent something. */
static int is_alive(int fd)
{
    struct pollfd p = {fd, POLLIN | POLLRDHUP, 0};
    return poll(&p, 1, 0) == 0;
}

static held_t *find_held(clra_reverse_server_t *s, const clra_guid_t *cookie)
{
    held_t *best = NULL;
    for (int i = 0; i < MAX_HELD; i++) {
        held_t *h = &s->held[i];
        if (h->fd < 0 || (cookie && memcmp(&h->ad.cookie, cookie, sizeof *cookie) != 0))
            continue;
        if (!is_alive(h->fd)) {
            close(h->fd);
            h->fd = -1;
        } else if (!best || h->seq > best->seq) {
            best = h;
        }
    }
    return best;
}

/* Keeps the newest connection per cookie; when full, the oldest slot makes room. */
static void hold(clra_reverse_server_t *s, int fd, const clra_advertise_t *ad)
{
    held_t *slot = NULL;
    for (int i = 0; i < MAX_HELD; i++) {
        held_t *h = &s->held[i];
        if (h->fd >= 0 && memcmp(&h->ad.cookie, &ad->cookie, sizeof ad->cookie) == 0) {
            close(h->fd);
            h->fd = -1;
        }
        if (h->fd < 0 && !slot)
            slot = h;
    }
    if (!slot) {
        slot = &s->held[0];
        for (int i = 1; i < MAX_HELD; i++)
            if (s->held[i].seq < slot->seq)
                slot = &s->held[i];
    }
    if (slot->fd >= 0)
        close(slot->fd);
    slot->fd = fd;
    slot->ad = *ad;
    slot->seq = ++s->seq;
}

/* Accepts one connection and reads its advertise; a peer that sends garbage or nothing within
 * a second is dropped, so it cannot stall the server. */
static int accept_one(clra_reverse_server_t *s, const clra__deadline_t *d, clra_status_t *st)
{
    struct pollfd p = {s->listen_fd, POLLIN, 0};
    uint8_t bytes[CLRA__ADVERTISE_SIZE];
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
    clra__deadline_t read_by = clra__deadline_in(ADVERTISE_READ_MS);
    if (clra__deadline_left_ms(d) >= 0 && clra__deadline_left_ms(d) < ADVERTISE_READ_MS)
        read_by = *d;
    if (clra__recv_exact(&c, bytes, sizeof bytes, &read_by) != 0 ||
        clra__parse_advertise(bytes, &ad) != 0) {
        clra__detail(st, "dropped a connection to %s that did not advertise a runtime", s->path);
        clra__close(&c);
        return 0;
    }
    hold(s, c.fd, &ad);
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
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    for (;;) {
        held_t *h = find_held(s, cookie);
        if (h) {
            if (ad)
                *ad = h->ad;
            return 0;
        }
        int rc = accept_one(s, &d, st);
        if (rc == CLRA_ETIMEDOUT)
            clra__detail(st, "no runtime%s connected to %s within %d ms",
                         cookie ? " with that cookie" : "", s->path, timeout_ms);
        if (rc)
            return rc;
    }
}

int clra_reverse_server_accept(clra_reverse_server_t *s, const clra_guid_t *cookie,
                               clra_connection_t **out)
{
    if (!s || !out)
        return CLRA_EINVAL;
    *out = NULL;
    held_t *h = find_held(s, cookie);
    if (!h)
        return CLRA_ENOENDPOINT;
    clra_connection_t *c = malloc(sizeof *c);
    if (!c)
        return CLRA_ENOMEM;
    c->fd = h->fd;
    c->ns_pid = (int)h->ad.pid;
    h->fd = -1;
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
    for (int i = 0; i < MAX_HELD; i++)
        if (s->held[i].fd >= 0)
            close(s->held[i].fd);
    close(s->listen_fd);
    unlink(s->path);
    free(s);
}
