/* endpoint.h - locating a process's diagnostics socket (internal). */
#ifndef CLRA_ENDPOINT_H
#define CLRA_ENDPOINT_H

#include "clrattach.h"

#include <stddef.h>

/* clra_endpoint_find with /proc at proc_root, so tests can build fake process trees. */
int clra__endpoint_find_in(const char *proc_root, int pid, clra_endpoint_t *ep,
                           clra_status_t *st);
/* The last value of the NSpid: line in a /proc/PID/status text, or -1 when absent/malformed. */
int clra__parse_nspid(const char *status_text);
/* Copies TMPDIR's value out of a NUL-separated environ block. 1 found, 0 absent, -1 too long. */
int clra__environ_get(const char *environ, size_t len, const char *name, char *out, size_t cap);
/* Field 22 (starttime) of a /proc/PID/stat text, parsed after the last ')'. -1 on failure. */
long long clra__parse_starttime(const char *stat_text);
/* Whether name is dotnet-diagnostic-<pid>-<digits>-socket for this pid. */
int clra__socket_name_matches(const char *name, int ns_pid);

#endif
