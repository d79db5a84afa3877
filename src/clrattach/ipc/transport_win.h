/* transport_win.h - what the Windows transport (ipc/transport_win.c) offers beyond
 * ipc/transport.h: Windows error details and the pipe server's pid. */
#ifndef CLRA_TRANSPORT_WIN_H
#define CLRA_TRANSPORT_WIN_H

#include "ipc/transport.h"

/* Writes "what(path): <system message> (Windows error N)" into st's detail and err into its
 * sys_errno. */
void clra__win_detail(clra_status_t *st, const char *what, const char *path, unsigned long err);
/* The pid of the process that created the pipe's server end (GetNamedPipeServerProcessId), so
 * a pipe found by name is checked to be the target's; 0 or CLRA_EUNSAFE with st->detail. */
int clra__pipe_server_check(clra__conn_t *c, const char *path, int pid, clra_status_t *st);
/* Closes a pipe HANDLE no connection took over (NULL is a no-op). */
void clra__pipe_close(void *pipe);
#endif
