/* request_unix.c - request_platform.h on Unix: a pid's socket is checked to be its own. */
#include "ipc/request_platform.h"
#include "ipc/transport_unix.h"

#include "ipc/socket_check.h"
#include "target/procfs.h"

#include <sys/stat.h>
#include <unistd.h>

/* Adds who owns the socket to an EACCES detail: the usual cause is a different user. */
void clra__explain_access(const char *path, clra_status_t *st)
{
    struct stat sb;
    char who[96], user[48];
    if (!st || stat(path, &sb) != 0)
        return;
    clra__describe_uid(sb.st_uid, who, sizeof who);
    clra__sudo_user(sb.st_uid, user, sizeof user);
    if (geteuid() == 0) /* root connects as the owner, so the owner is shut out too */
        clra__detail(st, "permission denied connecting to %s (owned by %s, mode %03o): its owner "
                     "may not open it either, so neither does root acting as them; give the "
                     "owner read and write on it", path, who, (unsigned)(sb.st_mode & 0777));
    else
        clra__detail(st, "permission denied connecting to %s (owned by %s, mode %03o); run as "
                     "that user (e.g. sudo -u %s clrattach ...) or as root", path, who,
                     (unsigned)(sb.st_mode & 0777), user);
}

/* A pid's socket is checked before the connect, connected to as the pid's owner when we are
 * root, and its listener checked after: the socket found by name must really be the target's. */
int clra__connect_checked(const clra_endpoint_t *ep, const clra__deadline_t *d, clra__conn_t *c,
                          clra_status_t *st)
{
    clra__owner_t owner;
    struct stat sb;
    if (clra__process_owner(CLRA__PROC, ep->pid, &owner) != 0) {
        clra__detail(st, "process %d is gone (no /proc/%d/status)", ep->pid, ep->pid);
        return CLRA_ENOPROC;
    }
    int rc = clra__socket_check(ep->path, ep->pid, &owner, &sb, st);
    if (rc)
        return rc;
    /* As the socket's owner (checked above to be the target's user or root): a runtime that
     * made it as root and then dropped its privileges stays reachable, and a listener that
     * checks its peer (a libclrprof control endpoint) sees its owner, in any user namespace. */
    rc = clra__connect_as(ep->path, sb.st_uid, sb.st_gid, d, c, st);
    if (rc == 0 && (rc = clra__peer_check(c->fd, ep->path, ep->pid, st)) != 0)
        clra__close(c);
    return rc;
}

/* Unix endpoints hold a socket only. */
void clra__endpoint_done(clra__endpoint_t *e)
{
    if (e->fd >= 0)
        close(e->fd);
    e->fd = -1;
}
