/* diagnostic_port.c - a runtime reached through --diagnostic-port rather than by PID: by
 * connecting to the port it listens on, or by being the server its port connects to. */
#define _GNU_SOURCE
#include "base/diagnostic_port.h"
#include "base/cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "PATH", "PATH,listen", "PATH,connect", each optionally with ",suspend" or ",nosuspend"
 * (which the runtime's side decides; accepted and ignored, as the dotnet tools do). */
int diagnostic_port_parse(diagnostic_port_t *d, const char *verb)
{
    const char *s = d->spec, *comma = strchr(s, ',');
    size_t len = comma ? (size_t)(comma - s) : strlen(s);
    if (len == 0 || len >= sizeof d->path) {
        fprintf(stderr, "clrattach %s: --diagnostic-port wants PATH[,connect|,listen], not "
                "'%s'\n", verb, cli_vis(s));
        return -1;
    }
    snprintf(d->path, sizeof d->path, "%.*s", (int)len, s);
    d->listen = 1;
    for (const char *p = comma; p; p = strchr(p + 1, ',')) {
        size_t n = strcspn(p + 1, ",");
        if (n == 7 && strncmp(p + 1, "connect", 7) == 0)
            d->listen = 0;
        else if (!(n == 6 && strncmp(p + 1, "listen", 6) == 0) &&
                 !(n == 7 && strncmp(p + 1, "suspend", 7) == 0) &&
                 !(n == 9 && strncmp(p + 1, "nosuspend", 9) == 0)) {
            fprintf(stderr, "clrattach %s: --diagnostic-port: '%.*s' is not connect, listen, "
                    "suspend or nosuspend\n", verb, (int)(n < 40 ? n : 40), p + 1);
            return -1;
        }
    }
    return 0;
}

/* Connect mode: the runtime's answer to ProcessInfo says whose port it is. */
static int open_connect(diagnostic_port_t *d, long long timeout_ms, clra_status_t *st)
{
    clra_target_t t = clra_target_socket(d->path);
    clra_process_info_t info;
    int rc = clra_process_info_get(&t, (int)timeout_ms, &info, st);
    if (rc)
        return rc;
    d->pid = (int)info.pid;
    clra_process_info_free(&info);
    return 0;
}

int diagnostic_port_open(diagnostic_port_t *d, long long timeout_ms, clra_status_t *st)
{
    if (!d->listen)
        return open_connect(d, timeout_ms, st);
    clra_advertise_t ad;
    int rc = clra_reverse_server_listen(d->path, &d->server, st);
    if (rc == 0)
        fprintf(stderr, "waiting up to %lld s for a runtime started with "
                "DOTNET_DiagnosticPorts=%s to connect...\n", (timeout_ms + 999) / 1000,
                d->path);
    if (rc == 0)
        rc = clra_reverse_server_wait(d->server, NULL, (int)timeout_ms, &ad, st);
    if (rc)
        return rc;
    d->cookie = ad.cookie;
    d->pid = (int)ad.pid;
    return 0;
}

int diagnostic_port_target(diagnostic_port_t *d, long long timeout_ms, clra_target_t *t,
                           clra_status_t *st)
{
    if (!d->listen) {
        *t = clra_target_socket(d->path);
        return 0;
    }
    clra_advertise_t ad;
    clra_connection_t *c = NULL;
    int rc = clra_reverse_server_wait(d->server, &d->cookie, (int)timeout_ms, &ad, st);
    if (rc == 0)
        rc = clra_reverse_server_accept(d->server, &d->cookie, &c);
    if (rc)
        return rc;
    *t = clra_target_connection(c);
    return 0;
}

int diagnostic_port_next_target(diagnostic_port_t *d, int pid, long long timeout_ms,
                                clra_target_t *t, clra_status_t *st)
{
    if (d->spec)
        return diagnostic_port_target(d, timeout_ms, t, st);
    *t = clra_target_pid(pid);
    return 0;
}

int diagnostic_port_resume(diagnostic_port_t *d, long long timeout_ms, clra_status_t *st)
{
    if (!d->spec)
        return 0; /* a target by PID: no port to answer */
    clra_target_t t;
    int rc = diagnostic_port_target(d, timeout_ms, &t, st);
    return rc ? rc : clra_runtime_resume(&t, (int)timeout_ms, st);
}

void diagnostic_port_close(diagnostic_port_t *d)
{
    if (d->server)
        clra_reverse_server_close(d->server);
    d->server = NULL;
}
