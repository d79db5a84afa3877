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
/* clra__endpoint_done (ipc/request.h) closes a connection the command did not spend. */

/* One command's work once its target is resolved: e is open or ready to connect, d the
 * command's deadline, ctx the command's own arguments. */
typedef int (*clra__target_fn)(clra__endpoint_t *e, const clra__deadline_t *d, void *ctx,
                               clra_status_t *st);
/* Resolves t within timeout_ms, runs fn there, and releases what the target held: the body
 * shared by every command that needs nothing between finding the target and talking to it. */
int clra__target_run(const clra_target_t *t, int timeout_ms, clra__target_fn fn, void *ctx,
                     clra_status_t *st);

#endif
