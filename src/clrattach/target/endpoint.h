/* endpoint.h - locating a process's diagnostics socket (internal). */
#ifndef CLRA_ENDPOINT_H
#define CLRA_ENDPOINT_H

#include "clrattach.h"

#include <stddef.h>

/* Everything discovery learnt about one process, for callers that classify processes rather
 * than fail on them (ps). */
typedef struct clra__discovery {
    int ns_pid;                   /* innermost NSpid, or the pid */
    long long key;                /* start time, the socket name's key; -1 unknown */
    int exact;                    /* the socket found carries that key */
    int other_mount_ns;           /* searched below root */
    char root[64];                /* "" or "<proc>/<pid>/root" when its mount namespace differs */
    char tmpdir[CLRA_PATH_MAX];   /* its TMPDIR ("" when its environment is unreadable) */
    int environ_errno;            /* why its environment could not be read, 0 if it was */
    int diagnostics_off;          /* DOTNET_EnableDiagnostics(_IPC)=0 in its environment */
    int dotnet;                   /* 1 libcoreclr mapped, 0 not, -1 not looked at or unreadable */
    int ndirs;
    char dirs[4][CLRA_PATH_MAX];  /* the directories searched, as seen from here */
} clra__discovery_t;

/* clra__endpoint_find_in that also fills *v (whatever the outcome, once the process exists). */
int clra__endpoint_discover(const char *proc_root, int pid, clra_endpoint_t *ep,
                            clra__discovery_t *v, clra_status_t *st);
/* What /proc says about pid (NSpid, start time, mount namespace, TMPDIR, diagnostics
 * switches) without looking for its socket: for callers that need its file tree, not its
 * server. */
void clra__discovery_view(const char *proc_root, int pid, clra__discovery_t *v);
/* Reads a small file (a /proc entry) into buf, NUL-terminated. Its length, or -errno. */
long clra__read_small_file(const char *path, char *buf, size_t cap);
/* Whether <proc_root>/<pid>/maps names a .NET runtime: 1, 0, or -errno when unreadable. */
int clra__maps_dotnet(const char *proc_root, int pid);
/* Field number field (1-based, as in proc(5)) of a /proc/PID/stat text, counted after the
 * last ')'; only fields 3 onwards, only non-negative integers. -1 on failure. */
long long clra__stat_field(const char *stat_text, int field);

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
