/* transport_unix.c - Unix domain socket transport; connect, send and receive share a deadline. */
#define _GNU_SOURCE
#include "ipc/transport_unix.h"
#include "target/identity.h"
#include "target/procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* Waits for fd to be ready for events before the deadline: 0, CLRA_ETIMEDOUT or CLRA_EIO. */
static int wait_fd(int fd, short events, const clra__deadline_t *d)
{
    for (;;) {
        struct pollfd p = {fd, events, 0};
        int left = clra__deadline_left_ms(d);
        if (left == 0)
            return CLRA_ETIMEDOUT;
        int n = poll(&p, 1, left);
        if (n > 0)
            return 0;
        if (n == 0)
            return CLRA_ETIMEDOUT;
        if (errno != EINTR)
            return CLRA_EIO;
    }
}

/* sun_path holds 108 bytes; a longer path is reached through /proc/self/fd/N of its directory,
 * which the kernel resolves like any path (no chdir, so this stays re-entrant). */
static int fill_address(const char *path, struct sockaddr_un *sa, int *dirfd)
{
    memset(sa, 0, sizeof *sa);
    sa->sun_family = AF_UNIX;
    *dirfd = -1;
    size_t len = strlen(path);
    if (len < sizeof sa->sun_path) {
        memcpy(sa->sun_path, path, len + 1);
        return 0;
    }
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return CLRA_EINVAL;
    char dir[CLRA_PATH_MAX];
    size_t dlen = (size_t)(slash - path);
    if (dlen >= sizeof dir)
        return CLRA_EINVAL;
    memcpy(dir, path, dlen);
    dir[dlen] = '\0';
    *dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (*dirfd < 0)
        return errno == EACCES ? CLRA_EACCES : CLRA_ENOENDPOINT;
    return clra__procfs_fd_path(*dirfd, slash + 1, sa->sun_path, sizeof sa->sun_path);
}

static int connect_error(int err)
{
    switch (err) {
    case ENOENT:
    case ENOTDIR:
        return CLRA_ENOENDPOINT;
    case ECONNREFUSED:
        return CLRA_ECONNREFUSED;
    case EACCES:
    case EPERM:
        return CLRA_EACCES;
    default:
        return CLRA_EIO;
    }
}

/* A full listen backlog makes a non-blocking Unix connect fail with EAGAIN (not EINPROGRESS),
 * so it is retried until the deadline rather than polled. path is what the kernel resolves,
 * shown what the messages name (they differ when path goes through /proc/self/fd). */
static int connect_named(const char *path, const char *shown, const clra__deadline_t *d,
                         clra__conn_t *c, clra_status_t *st)
{
    struct sockaddr_un sa;
    int dirfd, rc = fill_address(path, &sa, &dirfd);
    c->fd = -1;
    if (rc == 0) {
        c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        rc = c->fd < 0 ? CLRA_EIO : 0;
    }
    if (rc != 0) { /* the path could not be reached, or no socket could be made */
        if (st)
            st->sys_errno = errno;
        clra__detail(st, "connect(%s): %s", shown, rc == CLRA_EINVAL ? "the path is too long "
                     "for a socket address" : strerror(errno));
    }
    while (rc == 0 && connect(c->fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN && clra__deadline_left_ms(d) != 0) {
            usleep(5000);
            continue;
        }
        if (st)
            st->sys_errno = errno;
        rc = errno == EAGAIN ? CLRA_ETIMEDOUT : connect_error(errno);
        clra__detail(st, "connect(%s): %s", shown, strerror(errno));
    }
    if (dirfd >= 0)
        close(dirfd);
    if (rc != 0)
        clra__close(c);
    return rc;
}

int clra__connect(const char *path, const clra__deadline_t *d, clra__conn_t *c,
                  clra_status_t *st)
{
    return connect_named(path, path, d, c, st);
}

/* The directory is opened as we are (root, with all its capabilities, as the /proc/PID/root
 * way into a container wants), and only the socket itself is connected to as its owner, so the
 * listener sees the owner. When the ids cannot be presented (no CAP_SETUID), the file-system
 * ids alone still make the kernel check the socket's permissions as the owner would. */
int clra__connect_as(const char *path, uid_t uid, gid_t gid, const clra__deadline_t *d,
                     clra__conn_t *c, clra_status_t *st)
{
    clra__identity_t id;
    char at[108], dir[CLRA_PATH_MAX]; /* at: the size of sun_path */
    const char *slash = strrchr(path, '/');
    int rc, dirfd = -1;
    size_t dlen = slash ? (size_t)(slash - path) : 0;
    if (geteuid() == 0 && uid != 0 && dlen > 0 && dlen < sizeof dir) {
        memcpy(dir, path, dlen);
        dir[dlen] = '\0';
        dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    }
    if (dirfd >= 0 && clra__procfs_fd_path(dirfd, slash + 1, at, sizeof at) == 0 &&
        clra__identity_present_ids(uid, gid, &id)) {
        rc = connect_named(at, path, d, c, st);
    } else {
        clra__identity_assume_ids(uid, gid, &id);
        rc = connect_named(path, path, d, c, st);
    }
    clra__identity_restore(&id);
    if (dirfd >= 0)
        close(dirfd);
    return rc;
}

int clra__send_all(clra__conn_t *c, const void *buf, size_t n, const clra__deadline_t *d)
{
    const uint8_t *p = buf;
    while (n > 0) {
        int rc = wait_fd(c->fd, POLLOUT, d);
        if (rc)
            return rc;
        ssize_t k = send(c->fd, p, n, MSG_NOSIGNAL);
        if (k < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            return (errno == EPIPE || errno == ECONNRESET) ? CLRA_ECONNLOST : CLRA_EIO;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

/* The byte's value is unused by the runtime; a descriptor cannot travel without data on a
 * stream socket. */
int clra__send_fd(clra__conn_t *c, int fd, const clra__deadline_t *d)
{
    char byte = 0;
    union {
        struct cmsghdr align;
        char bytes[CMSG_SPACE(sizeof(int))];
    } control;
    struct iovec io = {&byte, 1};
    struct msghdr m = {0};
    memset(&control, 0, sizeof control);
    m.msg_iov = &io;
    m.msg_iovlen = 1;
    m.msg_control = control.bytes;
    m.msg_controllen = sizeof control.bytes;
    struct cmsghdr *h = CMSG_FIRSTHDR(&m);
    h->cmsg_level = SOL_SOCKET;
    h->cmsg_type = SCM_RIGHTS;
    h->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(h), &fd, sizeof fd);
    for (;;) {
        int rc = wait_fd(c->fd, POLLOUT, d);
        if (rc)
            return rc;
        ssize_t k = sendmsg(c->fd, &m, MSG_NOSIGNAL);
        if (k == 1)
            return 0;
        if (k < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        return (errno == EPIPE || errno == ECONNRESET) ? CLRA_ECONNLOST : CLRA_EIO;
    }
}

int clra__recv_exact(clra__conn_t *c, void *buf, size_t n, const clra__deadline_t *d)
{
    uint8_t *p = buf;
    while (n > 0) {
        int rc = wait_fd(c->fd, POLLIN, d);
        if (rc)
            return rc;
        ssize_t k = recv(c->fd, p, n, 0);
        if (k == 0)
            return CLRA_ECONNLOST;
        if (k < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            return errno == ECONNRESET ? CLRA_ECONNLOST : CLRA_EIO;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

int clra__conn_quiet(const clra__conn_t *c)
{
    struct pollfd p = {c->fd, POLLIN | POLLRDHUP, 0};
    return c->fd >= 0 && poll(&p, 1, 0) == 0;
}

void clra__close(clra__conn_t *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}

/* Unix has no pipe HANDLEs: an endpoint's pipe is always NULL, so this is never reached. */
int clra__conn_from_pipe(void *pipe, clra__conn_t *c)
{
    (void)pipe;
    c->fd = -1;
    return CLRA_EINVAL;
}
