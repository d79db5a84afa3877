/* socket_check.c - refuse sockets that are not safely the target's before and after connecting. */
#define _GNU_SOURCE
#include "ipc/socket_check.h"
#include "ipc/transport.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/* Root's files, or ones made by any of the owner's ids, cannot have been planted by a third user. */
static int trusted_uid(uid_t uid, const clra__owner_t *owner)
{
    if (uid == 0)
        return 1;
    for (int i = 0; i < 4; i++)
        if (owner->uid[i] == uid)
            return 1;
    return 0;
}

/* Every symbolic link among the directories leading to path must be trusted. */
static int check_components(const char *path, int pid, const clra__owner_t *owner,
                            clra_status_t *st)
{
    char prefix[CLRA_PATH_MAX], who[96];
    const char *last = strrchr(path, '/');
    for (const char *p = strchr(path + 1, '/'); p && p <= last; p = strchr(p + 1, '/')) {
        struct stat sb;
        size_t n = (size_t)(p - path);
        if (n >= sizeof prefix)
            return CLRA_EINVAL;
        memcpy(prefix, path, n);
        prefix[n] = '\0';
        if (lstat(prefix, &sb) != 0 || !S_ISLNK(sb.st_mode) || trusted_uid(sb.st_uid, owner))
            continue;
        clra__describe_uid(sb.st_uid, who, sizeof who);
        clra__detail(st, "refusing %s: %s on the way is a symbolic link owned by %s, who is neither "
                     "process %d's owner nor root, so it may point at someone else's socket; "
                     "point TMPDIR of the process at a directory without foreign links",
                     path, prefix, who, pid);
        return CLRA_EUNSAFE;
    }
    return 0;
}

int clra__socket_check(const char *path, int pid, const clra__owner_t *owner, struct stat *out,
                       clra_status_t *st)
{
    struct stat sb;
    char who[96], runs_as[96];
    if (lstat(path, &sb) != 0) {
        if (st)
            st->sys_errno = errno;
        clra__detail(st, "%s: %s", path, strerror(errno));
        return errno == EACCES ? CLRA_EACCES : CLRA_ENOENDPOINT;
    }
    if (S_ISLNK(sb.st_mode)) {
        clra__detail(st, "refusing %s: it is a symbolic link, not the runtime's socket (the "
                     "runtime never makes links; someone planted it)", path);
        return CLRA_EUNSAFE;
    }
    if (!S_ISSOCK(sb.st_mode)) {
        clra__detail(st, "refusing %s: it is not a socket (mode %06o)", path,
                     (unsigned)sb.st_mode);
        return CLRA_EUNSAFE;
    }
    if (!trusted_uid(sb.st_uid, owner)) {
        clra__describe_uid(sb.st_uid, who, sizeof who);
        clra__describe_uid(owner->uid[1], runs_as, sizeof runs_as);
        clra__detail(st, "refusing %s: it is owned by %s but process %d runs as %s, so the "
                     "runtime did not create it", path, who, pid, runs_as);
        return CLRA_EUNSAFE;
    }
    *out = sb;
    return check_components(path, pid, owner, st);
}

int clra__peer_check(int fd, const char *path, int pid, clra_status_t *st)
{
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || len != sizeof cred) {
        clra__detail(st, "cannot ask who listens on %s: %s", path, strerror(errno));
        return CLRA_EIO;
    }
    if (cred.pid == pid)
        return 0;
    clra__detail(st, "refusing %s: it is served by process %d, not by process %d", path,
                 (int)cred.pid, pid);
    return CLRA_EUNSAFE;
}
