/* process_list.h - process discovery over a given /proc (internal, unit-tested with fake trees). */
#ifndef CLRA_PROCESS_LIST_H
#define CLRA_PROCESS_LIST_H

#include "clrattach.h"

/* clra_process_list with /proc at proc_root. */
int clra__process_list_in(const char *proc_root, int timeout_ms, int probe_timeout_ms,
                          clra_process_list_t *out, clra_status_t *st);
/* clra_process_info_get at an endpoint discovery found (checked as ep->pid's socket when
 * ep->pid > 0); st is filled, not cleared. */
int clra__process_info_at(const clra_endpoint_t *ep, int timeout_ms, clra_process_info_t *out,
                          clra_status_t *st);
/* Whether name is dotnet-diagnostic-<digits>-<digits>-socket (any pid, any key). */
int clra__is_diagnostic_socket_name(const char *name);

#endif
