/* endpoint.h - locating a process's diagnostics socket (internal). */
#ifndef CLRA_ENDPOINT_H
#define CLRA_ENDPOINT_H

#include "clrattach.h"
#include "target/procfs.h"
#include "target/sockdir.h"

#include <stddef.h>

/* Everything discovery learnt about one process, for callers that classify processes rather
 * than fail on them (ps). */
typedef struct clra__discovery {
    int pid;                      /* the pid as seen from here */
    int ns_pid;                   /* innermost NSpid, or the pid */
    long long key;                /* start time, the socket name's key; -1 unknown */
    int exact;                    /* the socket found carries that key */
    long long started_at;         /* start, s since the epoch; -1 unknown, 0 not yet read */
    int stale;                    /* sockets of an earlier process with this pid, ignored */
    int other_mount_ns;           /* another file tree (mount ns or chroot): search root */
    char root[64];                /* "" or "<proc>/<pid>/root" when its mount namespace differs */
    char tmpdir[CLRA_PATH_MAX];   /* its TMPDIR ("" when its environment is unreadable) */
    int environ_errno;            /* why its environment could not be read, 0 if it was */
    int diagnostics_off;          /* DOTNET_EnableDiagnostics(_IPC)=0 in its environment */
    int dotnet;                   /* 1 libcoreclr mapped, 0 not, -1 not looked at or unreadable */
    int ndirs;
    char dirs[4][CLRA_PATH_MAX];  /* the directories searched, as seen from here */
    char cut_dir[CLRA_PATH_MAX];  /* a directory whose shared read the deadline cut short */
} clra__discovery_t;

/* clra__endpoint_find_in that also fills *v (whatever the outcome, once the process exists). */
int clra__endpoint_discover(const char *proc_root, int pid, clra_endpoint_t *ep,
                            clra__discovery_t *v, clra_status_t *st);
/* clra__endpoint_discover reading each directory through cache (one bounded read per
 * directory, shared by every process using it); an unfound socket in a directory the deadline
 * cut short is CLRA_ETIMEDOUT. cache may be NULL. */
int clra__endpoint_discover_with(const char *proc, int pid, clra_endpoint_t *ep,
                                 clra__discovery_t *v, clra__sockdirs_t *cache, clra_status_t *st);
/* What /proc says about pid (NSpid, start time, mount namespace, TMPDIR, diagnostics
 * switches) without looking for its socket: for callers that need its file tree, not its
 * server. */
void clra__discovery_view(const char *proc_root, int pid, clra__discovery_t *v);

/* clra_endpoint_find with /proc at proc_root, so tests can build fake process trees. */
int clra__endpoint_find_in(const char *proc_root, int pid, clra_endpoint_t *ep,
                           clra_status_t *st);
/* Whether name is dotnet-diagnostic-<pid>-<digits>-socket for this pid. */
int clra__socket_name_matches(const char *name, int ns_pid);

#endif
