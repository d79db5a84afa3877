/* diagnostic_port.h - `--diagnostic-port PATH[,connect|,listen]`, as dotnet-trace and
 * dotnet-counters take it: connect to a runtime's listening socket at PATH (its default
 * dotnet-diagnostic-PID-...-socket, or a dotnet-dsrouter's; .NET 10 ignores listen ports in
 * DOTNET_DiagnosticPorts), or listen at PATH (the default) for runtimes told
 * DOTNET_DiagnosticPorts=PATH, and let the one that connects run once its session is up. */
#ifndef CLRA_CLI_DIAGNOSTIC_PORT_H
#define CLRA_CLI_DIAGNOSTIC_PORT_H

#include "clrattach.h"

typedef struct diagnostic_port {
    const char *spec;   /* as given; NULL when the option was not */
    char path[CLRA_PATH_MAX];
    int listen;         /* we listen (a reverse server) rather than connect */
    int pid;            /* the runtime's, once known (its own namespace's, when listening) */
    clra_reverse_server_t *server;
    clra_guid_t cookie; /* the runtime that connected to the server */
} diagnostic_port_t;

/* Splits the spec into path and mode; 0, or -1 after saying why (verb names the command). */
int diagnostic_port_parse(diagnostic_port_t *d, const char *verb);
/* Reaches the runtime: connect mode asks it who it is; listen mode listens and waits (up to
 * timeout_ms) for a runtime to connect. Fills d->pid. A CLRA_E* code with st filled. */
int diagnostic_port_open(diagnostic_port_t *d, long long timeout_ms, clra_status_t *st);
/* The target of the next command: the socket, or a connection the runtime made (one command
 * each; the runtime connects again after it). A CLRA_E* code with st filled. */
int diagnostic_port_target(diagnostic_port_t *d, long long timeout_ms, clra_target_t *t,
                           clra_status_t *st);
/* The target of a verb's next command: the process by pid when no port was given (d->spec
 * NULL), else the port's (diagnostic_port_target). A CLRA_E* code with st filled. */
int diagnostic_port_next_target(diagnostic_port_t *d, int pid, long long timeout_ms,
                                clra_target_t *t, clra_status_t *st);
/* Lets the runtime run (paused at startup by its port, or in connect mode by
 * DOTNET_DefaultDiagnosticPortSuspend): call once the session is up, so it misses no event. A
 * runtime that runs already ignores it, as under dotnet-trace. Nothing without a port (spec). */
int diagnostic_port_resume(diagnostic_port_t *d, long long timeout_ms, clra_status_t *st);
/* Closes the server, removing its socket file (and the connections it still holds). */
void diagnostic_port_close(diagnostic_port_t *d);

#endif
