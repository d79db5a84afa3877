/* command_target.c - clra__target_resolve: the one place a pid, a socket path or a connection
 * becomes where a command goes. */
#include "command_target.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Takes the connection out of the caller's hands, so it is spent whatever the command does. */
static void take_connection(clra_connection_t *c, clra__endpoint_t *e)
{
    e->fd = c->fd;
    e->at.ns_pid = c->ns_pid;
    e->pipe = c->pipe;
    free(c);
}

/* A pid's socket is found like clra_endpoint_find does; the command gets what time is left. */
static int find_pid(int pid, const clra__deadline_t *d, clra__endpoint_t *e, clra_status_t *st)
{
    int rc = clra_endpoint_find(pid, &e->at, st);
    if (rc)
        return rc;
    if (clra__deadline_left_ms(d) == 0) {
        clra__detail(st, "the deadline passed while looking for the endpoint");
        return CLRA_ETIMEDOUT;
    }
    return 0;
}

/* Everything but the cleanup: a failed resolution leaves nothing open (see below). */
static int resolve(const clra_target_t *t, const clra__deadline_t *d, clra__endpoint_t *e,
                   clra_status_t *st)
{
    int forms = t ? (t->pid != 0) + (t->socket_path != NULL) + (t->connection != NULL) : 0;
    if (forms != 1 || (t->pid && t->pid < 0)) {
        clra__detail(st, "a target names exactly one endpoint: a pid (> 0), a socket path or "
                     "a connection");
        return CLRA_EINVAL;
    }
    if (t->pid)
        return find_pid(t->pid, d, e, st);
    if (t->socket_path && (!t->socket_path[0] || strlen(t->socket_path) >= sizeof e->at.path)) {
        clra__detail(st, "the socket path is empty or longer than %d bytes", CLRA_PATH_MAX - 1);
        return CLRA_EINVAL;
    }
    if (t->socket_path)
        strcpy(e->at.path, t->socket_path);
    return 0;
}

int clra__target_resolve(const clra_target_t *t, const clra__deadline_t *d, clra__endpoint_t *e,
                         clra_status_t *st)
{
    memset(e, 0, sizeof *e);
    e->fd = -1;
    if (t && t->connection)
        take_connection(t->connection, e);
    int rc = resolve(t, d, e, st);
    if (rc)
        clra__endpoint_done(e);
    return rc;
}

void clra__target_discard(const clra_target_t *t)
{
    if (t && t->connection)
        clra_connection_close(t->connection);
}

int clra__target_run(const clra_target_t *t, int timeout_ms, clra__target_fn fn, void *ctx,
                     clra_status_t *st)
{
    clra__endpoint_t e;
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    int rc = clra__target_resolve(t, &d, &e, st);
    if (rc == 0)
        rc = fn(&e, &d, ctx, st);
    clra__endpoint_done(&e);
    return rc;
}
