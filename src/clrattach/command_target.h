/* command_target.h - from a public clra_target_t to where a command goes (internal). Every
 * diagnostics command starts here, so the three target forms behave the same for all. */
#ifndef CLRA_COMMAND_TARGET_H
#define CLRA_COMMAND_TARGET_H

#include "ipc/request.h"

/* Resolves a public target to where its command goes, within d: a pid's socket is found (and
 * ETIMEDOUT when that used up the deadline), a socket path taken as given, a connection taken
 * over (and freed: the caller's target no longer owns it, whatever happens next). */
int clra__target_resolve(const clra_target_t *t, const clra__deadline_t *d, clra__endpoint_t *e,
                         clra_status_t *st);
/* Spends a connection target without resolving it: for a call refused on its arguments. */
void clra__target_discard(const clra_target_t *t);
/* Closes a connection the command did not spend (an argument check failed first). */
void clra__endpoint_done(clra__endpoint_t *e);

#endif
