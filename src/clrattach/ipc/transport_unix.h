/* transport_unix.h - what the Unix transport (ipc/transport_unix.c) offers beyond
 * ipc/transport.h: connecting as a socket's owner. */
#ifndef CLRA_TRANSPORT_UNIX_H
#define CLRA_TRANSPORT_UNIX_H

#include "ipc/transport.h"

#include <sys/types.h>
/* clra__connect as uid and gid (a socket's owner) when we are root and uid is not 0: the
 * kernel checks the socket's permissions as the owner's, and the listener's SO_PEERCRED shows
 * the owner (a libclrprof control endpoint admits only its process's owner or root, as its
 * user namespace sees them; host root is unmapped, the overflow uid, in a rootless
 * container). Otherwise a plain clra__connect. */
int clra__connect_as(const char *path, uid_t uid, gid_t gid, const clra__deadline_t *d,
                     clra__conn_t *c, clra_status_t *st);

#endif
