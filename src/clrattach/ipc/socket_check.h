/* socket_check.h - is this socket really the target's? Checks around a connect (internal). */
#ifndef CLRA_SOCKET_CHECK_H
#define CLRA_SOCKET_CHECK_H

#include "target/identity.h"

#include <sys/stat.h>

/* Before connecting to pid's diagnostics socket at path: it must be a socket (not a symbolic
 * link), owned by one of pid's uids or root, and every symbolic link on the way must belong to
 * pid's owner or root, since anyone else's link in a shared directory could point elsewhere.
 * 0, or CLRA_EUNSAFE / CLRA_ENOENDPOINT with the reason in st->detail. */
int clra__socket_check(const char *path, int pid, const clra__owner_t *owner, struct stat *sb,
                       clra_status_t *st);

/* After connecting: the process listening on fd must be pid itself (SO_PEERCRED), which no
 * file-system race can fake. 0 or CLRA_EUNSAFE. */
int clra__peer_check(int fd, const char *path, int pid, clra_status_t *st);

#endif
