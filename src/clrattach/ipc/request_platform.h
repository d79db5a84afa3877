/* request_platform.h - how clra__open reaches a pid's endpoint safely, per platform
 * (ipc/request_unix.c: the socket's owner and listener; ipc/request_win.c: the pipe's server
 * process), and how it explains a refused permission. */
#ifndef CLRA_REQUEST_PLATFORM_H
#define CLRA_REQUEST_PLATFORM_H

#include "ipc/request.h"

/* Connects to ep (found for ep->pid) after checking it is that process's own; 0 or a CLRA_E*
 * code with st's detail, nothing left open. */
int clra__connect_checked(const clra_endpoint_t *ep, const clra__deadline_t *d, clra__conn_t *c,
                          clra_status_t *st);
/* Puts the likely cause of an EACCES connecting to path into st's detail. */
void clra__explain_access(const char *path, clra_status_t *st);

#endif
