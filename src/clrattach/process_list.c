/* process_list.c - every .NET process this user can see (ps).
 *
 * /proc is walked once; each process is classified by the same discovery clra_endpoint_find
 * uses (its TMPDIR, NSpid, /proc/PID/root, start-time key), so ps and attach never disagree
 * about where a socket is. Each process with a socket is asked ProcessInfo under a short
 * deadline: a wedged runtime costs one probe, not the scan. Socket files in the searched
 * directories that no listed process owns are reported as stale, never as processes.
 */
#define _GNU_SOURCE
#include "target/endpoint.h"
#include "target/user_name.h"
#include "util/small_libc.h"
#include "process_list.h"
#include "ipc/request.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define USER_CACHE 32

/* One scan in progress. */
typedef struct scan {
    const char *proc;
    clra__deadline_t all;
    int probe_ms;
    clra__discovery_t *disc;
    clra_process_list_t *out;
    size_t cap;
    char **dirs; /* every directory searched, for the stale-socket pass */
    size_t ndirs, dirs_cap;
    clra__sockdirs_t cache; /* each directory read once, under the scan's deadline */
    struct {
        uint32_t uid;
        char name[64];
    } users[USER_CACHE];
    int nusers;
} scan_t;

int clra__is_diagnostic_socket_name(const char *name)
{
    static const char prefix[] = "dotnet-diagnostic-";
    if (strncmp(name, prefix, sizeof prefix - 1) != 0)
        return 0;
    const char *p = name + sizeof prefix - 1;
    char *end;
    if (!isdigit((unsigned char)*p))
        return 0;
    long pid = strtol(p, &end, 10);
    return *end == '-' && pid > 0 && pid <= 0x7fffffff && clra__socket_name_matches(name, (int)pid);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The user name for uid (re-entrant lookup, cached for the scan), or the uid in decimal. */
static void user_name(scan_t *s, uint32_t uid, char *out, size_t cap)
{
    for (int i = 0; i < s->nusers; i++)
        if (s->users[i].uid == uid) {
            snprintf(out, cap, "%s", s->users[i].name);
            return;
        }
    if (!clra__user_name(uid, out, cap))
        snprintf(out, cap, "%u", (unsigned)uid);
    if (s->nusers < USER_CACHE) {
        s->users[s->nusers].uid = uid;
        snprintf(s->users[s->nusers++].name, sizeof s->users[0].name, "%s", out);
    }
}

/* A new zeroed entry at the end of the list, or NULL when out of memory. */
static clra_process_entry_t *add_entry(scan_t *s, int pid)
{
    clra_process_list_t *out = s->out;
    if (out->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        clra_process_entry_t *grown = realloc(out->entries, cap * sizeof *grown);
        if (!grown)
            return NULL;
        out->entries = grown;
        s->cap = cap;
    }
    clra_process_entry_t *e = &out->entries[out->count++];
    memset(e, 0, sizeof *e);
    e->pid = pid;
    e->ns_pid = s->disc->ns_pid;
    e->other_mount_ns = s->disc->other_mount_ns;
    clra__proc_status_t ps;
    clra__procfs_status(s->proc, pid, &ps);
    e->uid = ps.have_uid ? (uint32_t)ps.uid[1] : UINT32_MAX; /* the effective uid owns the socket */
    if (ps.have_uid)
        user_name(s, e->uid, e->user, sizeof e->user);
    else
        snprintf(e->user, sizeof e->user, "?");
    return e;
}

/* Remembers the directories discovery searched, for the stale-socket pass. */
static void remember_dirs(scan_t *s)
{
    for (int i = 0; i < s->disc->ndirs; i++) {
        const char *dir = s->disc->dirs[i];
        size_t j = 0;
        while (j < s->ndirs && strcmp(s->dirs[j], dir) != 0)
            j++;
        if (j < s->ndirs)
            continue;
        if (s->ndirs == s->dirs_cap) {
            size_t cap = s->dirs_cap ? 2 * s->dirs_cap : 8;
            char **grown = realloc(s->dirs, cap * sizeof *grown);
            if (!grown)
                return;
            s->dirs = grown;
            s->dirs_cap = cap;
        }
        if ((s->dirs[s->ndirs] = strdup(dir)) != NULL)
            s->ndirs++;
    }
}

/* Formats the entry's reason; long details are cut, never overflow. */
static void set_reason(clra_process_entry_t *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void set_reason(clra_process_entry_t *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->reason, sizeof e->reason, fmt, ap);
    va_end(ap);
}

/* Says why a probe failed, in one line: the runtime's refusal by name, else the detail (which
 * names the path and the cause), else the code's message. */
static void probe_reason(clra_process_entry_t *e, int rc, const clra_status_t *st)
{
    if (rc == CLRA_ERUNTIME)
        set_reason(e, "the runtime refused ProcessInfo: %s (0x%08X)",
                   clra_hresult_name(st->hresult), (unsigned)st->hresult);
    else
        set_reason(e, "%s", st->detail[0] ? st->detail : clra_strerror(rc));
}

/* Milliseconds for one probe: the per-process bound, cut to what is left of the scan. */
static int probe_budget(const scan_t *s)
{
    int left = clra__deadline_left_ms(&s->all);
    if (left < 0)
        return s->probe_ms;
    if (s->probe_ms < 0 || s->probe_ms > left)
        return left;
    return s->probe_ms;
}

/* Asks the runtime behind ep; a refused connection to a process that is not .NET means the
 * socket file is stale (a reused pid), and such a process is not listed. */
static int probe(scan_t *s, int pid, const clra_endpoint_t *ep)
{
    clra_process_info_t info;
    clra_status_t st;
    int budget = probe_budget(s), rc = CLRA_ETIMEDOUT;
    memset(&st, 0, sizeof st);
    if (budget == 0)
        clra__detail(&st, "not asked: the scan's deadline passed before its turn");
    else
        rc = clra__process_info_at(ep, budget, &info, &st);
    if ((rc == CLRA_ECONNREFUSED || rc == CLRA_ENOENDPOINT) && clra__maps_dotnet(s->proc, pid) != 1)
        return 0;
    clra_process_entry_t *e = add_entry(s, pid);
    if (!e) {
        if (rc == 0)
            clra_process_info_free(&info);
        return CLRA_ENOMEM;
    }
    e->endpoint = strdup(ep->path);
    if (rc == 0 && info.pid != (uint64_t)e->ns_pid) {
        set_reason(e, "the socket %s answered for pid %llu, not %d", ep->path,
                   (unsigned long long)info.pid, e->ns_pid);
        clra_process_info_free(&info);
        rc = CLRA_EPROTO;
    }
    e->reach = rc;
    e->hresult = rc == CLRA_ERUNTIME ? st.hresult : 0;
    if (rc == 0) {
        e->info = info;
        e->command_line = info.command_line ? strdup(info.command_line) : NULL;
    } else if (!e->reason[0]) {
        probe_reason(e, rc, &st);
    }
    if (!e->command_line)
        e->command_line = clra__procfs_cmdline(s->proc, pid);
    return 0;
}

/* A .NET process without a socket: listed, saying why it cannot be reached. */
static int list_unreachable(scan_t *s, int pid)
{
    clra_process_entry_t *e = add_entry(s, pid);
    if (!e)
        return CLRA_ENOMEM;
    e->reach = CLRA_ENOENDPOINT;
    e->command_line = clra__procfs_cmdline(s->proc, pid);
    if (s->disc->diagnostics_off) {
        set_reason(e, "no endpoint: its diagnostics server is disabled "
                   "(DOTNET_EnableDiagnostics=0 or DOTNET_EnableDiagnostics_IPC=0)");
        return 0;
    }
    int n = snprintf(e->reason, sizeof e->reason, "no endpoint: no dotnet-diagnostic-%d-*-socket "
                     "in", s->disc->ns_pid);
    for (int i = 0; i < s->disc->ndirs && n > 0 && (size_t)n < sizeof e->reason; i++)
        n += snprintf(e->reason + n, sizeof e->reason - (size_t)n, "%s %s", i ? "," : "",
                      s->disc->dirs[i]);
    return 0;
}

/* A .NET process whose directory the deadline cut short: listed as not asked in time. */
static int list_cut_short(scan_t *s, int pid, const clra_status_t *st)
{
    clra_process_entry_t *e = add_entry(s, pid);
    if (!e)
        return CLRA_ENOMEM;
    e->reach = CLRA_ETIMEDOUT;
    e->command_line = clra__procfs_cmdline(s->proc, pid);
    set_reason(e, "%s", st->detail);
    return 0;
}

/* Decides whether pid is a .NET process, and lists it if so. */
static int classify(scan_t *s, int pid)
{
    clra_endpoint_t ep;
    clra_status_t st;
    memset(&st, 0, sizeof st);
    if (!clra__procfs_is_live_user(s->proc, pid))
        return 0;
    int rc = clra__endpoint_discover_with(s->proc, pid, &ep, s->disc, &s->cache, &st);
    if (rc != CLRA_ENOPROC && rc != CLRA_EINVAL)
        remember_dirs(s);
    if (rc == CLRA_EACCES) {
        s->out->unreadable++;
        return 0;
    }
    if (rc == CLRA_ENOENDPOINT)
        return s->disc->dotnet == 1 ? list_unreachable(s, pid) : 0;
    if (rc == CLRA_ETIMEDOUT)
        return s->disc->dotnet == 1 ? list_cut_short(s, pid, &st) : 0;
    if (rc != 0)
        return 0; /* gone, or not .NET */
    /* A socket named with another start time is an earlier process's with the same pid,
     * unless this one runs a runtime too: in a PID namespace that kept the host's /proc the
     * runtime reads /proc/<its own pid>/stat, another process's start time (seen on .NET 10
     * under unshare --pid: key 24, host pid 1's), and a time namespace shifts it too. */
    if (!s->disc->exact && s->disc->key >= 0 && clra__maps_dotnet(s->proc, pid) == 0)
        return 0;
    /* The socket checks (owner, listener's pid) consult the real /proc; a test's fake process
     * tree has no such processes, so there the socket is taken as an explicit path. */
    if (strcmp(s->proc, CLRA__PROC) != 0)
        ep.pid = 0;
    return probe(s, pid, &ep);
}

/* Whether (dev, ino) is the socket of a listed process. */
static int owned_by_listed(const clra_process_list_t *out, const struct stat *sb)
{
    for (size_t i = 0; i < out->count; i++) {
        struct stat eb;
        const char *path = out->entries[i].endpoint;
        if (path && stat(path, &eb) == 0 && eb.st_dev == sb->st_dev && eb.st_ino == sb->st_ino)
            return 1;
    }
    return 0;
}

static int add_stale(clra_process_list_t *out, const char *path)
{
    char **grown = realloc(out->stale, (out->stale_count + 1) * sizeof *grown);
    if (!grown)
        return CLRA_ENOMEM;
    out->stale = grown;
    if (!(out->stale[out->stale_count] = strdup(path)))
        return CLRA_ENOMEM;
    out->stale_count++;
    return 0;
}

/* Socket files in the searched directories that no listed process owns. The same file seen
 * through two paths (a shared /tmp under /proc/PID/root) counts once. */
static int find_stale(scan_t *s)
{
    struct stat *seen = NULL;
    size_t nseen = 0;
    int rc = 0;
    for (size_t i = 0; i < s->ndirs && rc == 0; i++) {
        const clra__sockdir_t *d = clra__sockdirs_get(&s->cache, s->dirs[i]);
        for (size_t k = 0; d && rc == 0 && k < d->n; k++) {
            char path[CLRA_PATH_MAX];
            const struct stat sb = d->ents[k].sb;
            if (!clra__is_diagnostic_socket_name(d->ents[k].name))
                continue;
            int n = snprintf(path, sizeof path, "%s/%s", s->dirs[i], d->ents[k].name);
            if (n < 0 || (size_t)n >= sizeof path || owned_by_listed(s->out, &sb))
                continue;
            size_t j = 0;
            while (j < nseen && !(seen[j].st_dev == sb.st_dev && seen[j].st_ino == sb.st_ino))
                j++;
            if (j < nseen)
                continue;
            struct stat *grown = realloc(seen, (nseen + 1) * sizeof *seen);
            if (!grown) {
                rc = CLRA_ENOMEM;
                break;
            }
            seen = grown;
            seen[nseen++] = sb;
            rc = add_stale(s->out, path);
        }
    }
    free(seen);
    if (s->out->stale_count > 1)
        clra__sort(s->out->stale, s->out->stale_count, sizeof *s->out->stale, cmp_str);
    return rc;
}

void clra_process_list_free(clra_process_list_t *list)
{
    if (!list)
        return;
    for (size_t i = 0; i < list->count; i++) {
        free(list->entries[i].command_line);
        free(list->entries[i].endpoint);
        clra_process_info_free(&list->entries[i].info);
    }
    for (size_t i = 0; i < list->stale_count; i++)
        free(list->stale[i]);
    free(list->entries);
    free(list->stale);
    memset(list, 0, sizeof *list);
}

int clra__process_list_in(const char *proc, int timeout_ms, int probe_timeout_ms,
                          clra_process_list_t *out, clra_status_t *st)
{
    clra_status_t local;
    int *pids = NULL;
    size_t npids = 0;
    st = clra__status_begin(st, &local);
    if (!out)
        return CLRA_EINVAL;
    memset(out, 0, sizeof *out);
    scan_t s = {.proc = proc, .all = clra__deadline_in(timeout_ms), .probe_ms = probe_timeout_ms,
                .out = out};
    s.cache.deadline = &s.all;
    s.disc = malloc(sizeof *s.disc);
    int rc = s.disc ? clra__procfs_pids(proc, &pids, &npids, st) : CLRA_ENOMEM;
    for (size_t i = 0; rc == 0 && i < npids; i++)
        rc = classify(&s, pids[i]);
    if (rc == 0)
        rc = find_stale(&s);
    for (size_t i = 0; i < s.ndirs; i++)
        free(s.dirs[i]);
    free(s.dirs);
    clra__sockdirs_free(&s.cache);
    free(s.disc);
    free(pids);
    if (rc == CLRA_ENOMEM)
        clra__detail(st, "out of memory while listing processes");
    if (rc)
        clra_process_list_free(out);
    return rc;
}

int clra_process_list(int timeout_ms, int probe_timeout_ms, clra_process_list_t *out,
                      clra_status_t *st)
{
    return clra__process_list_in(CLRA__PROC, timeout_ms, probe_timeout_ms, out, st);
}

int clra_process_is_alive(int pid)
{
    return pid > 0 && clra__procfs_is_live_user(CLRA__PROC, pid);
}

int clra_process_owner_get(int pid, uint32_t *uid, clra_status_t *st)
{
    clra_status_t local;
    clra__proc_status_t ps;
    st = clra__status_begin(st, &local);
    if (pid <= 0 || !uid)
        return CLRA_EINVAL;
    clra__procfs_status(CLRA__PROC, pid, &ps); /* a missing Gid line does not matter here */
    if (!ps.have_uid) {
        clra__detail(st, "no process %d (or its /proc/%d/status has no Uid line)", pid, pid);
        return CLRA_ENOPROC;
    }
    *uid = (uint32_t)ps.uid[1];
    return 0;
}
