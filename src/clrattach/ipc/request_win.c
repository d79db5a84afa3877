/* request_win.c - request_platform.h on Windows: a pid's pipe is checked to be its own. */
#include "ipc/request_platform.h"
#include "ipc/transport_win.h"

#include <unistd.h>

/* A pipe found by a pid's name must be served by that pid (a squatter could create the name
 * first); the owner checks of Unix have no twin yet (docs/windows.md). */
int clra__connect_checked(const clra_endpoint_t *ep, const clra__deadline_t *d, clra__conn_t *c,
                          clra_status_t *st)
{
    int rc = clra__connect(ep->path, d, c, st);
    if (rc == 0 && (rc = clra__pipe_server_check(c, ep->path, ep->pid, st)) != 0)
        clra__close(c);
    return rc;
}

/* Windows says only "access denied"; the usual cause is another user or elevation. */
void clra__explain_access(const char *path, clra_status_t *st)
{
    clra__detail(st, "access to %s denied: the runtime's pipe admits its own user (and "
                 "administrators); run clrattach as that user or elevated", path);
}

/* The pipe of a reverse connection, closed with the Win32 call (fd stays -1 on Windows). */
void clra__endpoint_done(clra__endpoint_t *e)
{
    if (e->fd >= 0)
        close(e->fd);
    e->fd = -1;
    clra__pipe_close(e->pipe);
    e->pipe = NULL;
}
