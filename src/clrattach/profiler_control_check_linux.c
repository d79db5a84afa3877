/* profiler_control_check_linux.c - before a command loads a profiler it must then control
 * (`profile`, `stack`, `attach --hold`): would the profiler's libclrprof control endpoint be
 * made, and would it admit us? Loading first and finding out after leaves a profiler running
 * unattended, its library mapped for good (issue 29 #5). */
#define _GNU_SOURCE
#include "clrattach.h"
#include "common/shared_names.h" /* CONTROL_NAME_PREFIX, CLSID_TEXT_LEN */
#include "ipc/transport.h"
#include "target/endpoint.h"
#include "target/identity.h"
#include "target/procfs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>


/* The SDK names its socket <TMPDIR>/clrprof-<pid>-<clsid>.sock as the target sees the path
 * (src/clrprof/control.c), beside the runtime's socket; it makes none when that does not fit
 * a socket address. */
static int socket_path_fits(const clra_endpoint_t *ep, const clra__discovery_t *v,
                            clra_status_t *st)
{
    const char *start = ep->path, *slash = strrchr(ep->path, '/');
    size_t root = strlen(v->root), cap = sizeof ((struct sockaddr_un *)0)->sun_path;
    if (root && strncmp(start, v->root, root) == 0 && start[root] == '/')
        start += root; /* the path as the target sees it */
    if (!slash || slash < start)
        return 0;
    char tail[64];
    int n = snprintf(tail, sizeof tail, "/" CONTROL_NAME_PREFIX "%d-", ep->ns_pid);
    size_t dir = (size_t)(slash - start);
    size_t len = dir + (size_t)n + CLSID_TEXT_LEN + sizeof CONTROL_SOCKET_SUFFIX - 1;
    if (len < cap)
        return 0;
    clra__detail(st, "a libclrprof profiler in process %d could open no control endpoint: its "
                 "socket in %.*s would need a %zu-byte path, and a socket address holds %zu; "
                 "start the process with a shorter TMPDIR", ep->pid, (int)dir, start, len,
                 cap - 1);
    return CLRA_ENOENDPOINT;
}

/* The uid our connect will carry: root presents itself as the socket's owner (clra__connect_as)
 * when the kernel lets it, which is tried here and undone at once. */
static uid_t connecting_uid(const struct stat *sock)
{
    clra__identity_t id;
    uid_t me = geteuid();
    if (me == 0 && clra__identity_present_ids(sock->st_uid, sock->st_gid, &id)) {
        clra__identity_restore(&id);
        return sock->st_uid;
    }
    return me;
}

/* The SDK admits a peer whose uid, as its own user namespace sees it, is 0 or its euid. */
static int peer_admitted(int pid, const clra_endpoint_t *ep, clra_status_t *st)
{
    struct stat sock;
    clra__owner_t owner;
    uid_t inside = 0;
    if (stat(ep->path, &sock) != 0 || clra__process_owner(CLRA__PROC, pid, &owner) != 0)
        return 0; /* the attach itself will say what is wrong */
    uid_t me = connecting_uid(&sock);
    /* Unreadable namespaces (mapped < 0) cannot be judged here: the command goes on, as before
     * this check existed. */
    int mapped = clra__procfs_uid_inside(CLRA__PROC, pid, me, &inside);
    if (mapped < 0 || me == owner.uid[1] || (mapped == 1 && inside == 0))
        return 0;
    char who[96], runs_as[96];
    clra__describe_uid(me, who, sizeof who);
    clra__describe_uid(owner.uid[1], runs_as, sizeof runs_as);
    if (mapped == 0)
        clra__detail(st, "a libclrprof profiler in process %d would refuse this command's "
                     "control connections: it admits only its owner (%s) and root of its user "
                     "namespace, where %s has no mapping (a rootless container)%s", pid,
                     runs_as, who, geteuid() == 0 ? ", and root here lacks CAP_SETUID to "
                     "connect as the owner; run clrattach as the owner, or as root with "
                     "CAP_SETUID" : "; run clrattach as the owner, or as root");
    else
        clra__detail(st, "a libclrprof profiler in process %d would refuse this command's "
                     "control connections: it admits only its owner (%s) and root of its user "
                     "namespace, not %s (uid %u there); run clrattach as the owner, or as root",
                     pid, runs_as, who, (unsigned)inside);
    return CLRA_EACCES;
}

int clra_profiler_control_check(int pid, clra_status_t *st)
{
    clra_endpoint_t ep;
    clra__discovery_t *v = calloc(1, sizeof *v);
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (!v)
        return CLRA_ENOMEM;
    memset(&ep, 0, sizeof ep);
    /* Without an endpoint there is no attach either, and the attach says why. */
    int found = clra__endpoint_discover(CLRA__PROC, pid, &ep, v, st) == 0;
    int err = found ? socket_path_fits(&ep, v, st) : 0;
    free(v);
    if (found && !err)
        err = peer_admitted(pid, &ep, st);
    if (!err)
        memset(st, 0, sizeof *st);
    return err;
}
