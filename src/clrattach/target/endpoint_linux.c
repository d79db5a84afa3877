/* endpoint_linux.c - pid -> diagnostics socket path (docs/protocol.md 1.1, 1.2).
 *
 * The runtime names its socket <TMPDIR>/dotnet-diagnostic-<pid>-<key>-socket with TMPDIR and
 * pid as the target itself sees them, and key its start time in clock ticks. So we read the
 * target's environment and status, look through /proc/PID/root when it lives in another mount
 * namespace, and prefer the exact key over older (stale) files of a reused pid.
 */
#define _GNU_SOURCE
#include "target/endpoint.h"
#include "target/identity.h"
#include "target/procfs.h"
#include "util/status.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int clra__socket_name_matches(const char *name, int ns_pid)
{
    char prefix[64];
    int n = snprintf(prefix, sizeof prefix, "dotnet-diagnostic-%d-", ns_pid);
    if (strncmp(name, prefix, (size_t)n) != 0)
        return 0;
    const char *p = name + n;
    if (*p < '0' || *p > '9')
        return 0;
    while (*p >= '0' && *p <= '9')
        p++;
    return strcmp(p, "-socket") == 0;
}

/* A relative TMPDIR ("." or "sub"): the runtime made its socket relative to its working
 * directory, so the directory is joined to /proc/PID/cwd (the cwd of now: the best there is). */
static void resolve_relative_tmpdir(const char *proc, int pid, clra__discovery_t *v)
{
    char cwd[CLRA_PATH_MAX], joined[CLRA_PATH_MAX];
    if (v->tmpdir[0] == '/' || clra__procfs_cwd(proc, pid, cwd, sizeof cwd) != 0)
        return;
    if ((size_t)snprintf(joined, sizeof joined, "%s/%s", cwd, v->tmpdir) < sizeof joined)
        snprintf(v->tmpdir, sizeof v->tmpdir, "%s", joined);
}

/* Reads the target's TMPDIR (default /tmp, as the runtime's GetTempPathA) and diagnostics
 * switches; when its environment is unreadable the caller falls back to likely directories. */
static void view_environ(const char *proc, int pid, clra__discovery_t *v)
{
    char *env, val[16];
    long len = clra__procfs_environ(proc, pid, &env);
    v->tmpdir[0] = '\0';
    v->environ_errno = len < 0 ? (int)-len : 0;
    if (len < 0)
        return;
    if (clra__environ_get(env, (size_t)len, "TMPDIR", v->tmpdir, sizeof v->tmpdir) != 1 ||
        v->tmpdir[0] == '\0')
        strcpy(v->tmpdir, "/tmp");
    resolve_relative_tmpdir(proc, pid, v);
    static const char *const switches[] = {"DOTNET_EnableDiagnostics", "COMPlus_EnableDiagnostics",
                                           "DOTNET_EnableDiagnostics_IPC"};
    for (size_t i = 0; i < sizeof switches / sizeof switches[0]; i++)
        if (clra__environ_get(env, (size_t)len, switches[i], val, sizeof val) == 1 &&
            strcmp(val, "0") == 0)
            v->diagnostics_off = 1;
    free(env);
}

void clra__discovery_view(const char *proc, int pid, clra__discovery_t *v)
{
    clra__proc_status_t ps;
    memset(v, 0, sizeof *v);
    v->dotnet = -1;
    v->pid = pid;
    clra__procfs_status(proc, pid, &ps);
    v->ns_pid = ps.ns_pid > 0 ? ps.ns_pid : pid;
    v->key = clra__procfs_start_time(proc, pid);
    v->other_mount_ns = clra__procfs_other_tree(proc, pid, v->root, sizeof v->root);
    view_environ(proc, pid, v);
}

/* Whether a socket without our key was made before the process started, so belongs to a
 * dead process that had the same pid (pid reuse; a SIGKILLed runtime leaves its socket).
 * A second of slack: btime is whole seconds. */
static int older_than_process(const char *proc, const struct stat *sb, clra__discovery_t *v)
{
    if (v->started_at == 0)
        v->started_at = clra__procfs_started_at(proc, v->pid);
    int stale = v->started_at > 0 && (long long)sb->st_mtim.tv_sec < v->started_at - 1;
    v->stale += stale;
    return stale;
}

/* Weighs one socket of ours: the exact key wins; otherwise the newest made since the start. */
static int consider(const char *proc, const char *dir, const char *name, const struct stat *sb,
                    const char *want, clra__discovery_t *v, char *best, size_t cap,
                    struct timespec *best_mtime, int *exact)
{
    int is_exact = v->key >= 0 && strcmp(name, want) == 0;
    int newer = sb->st_mtim.tv_sec > best_mtime->tv_sec ||
                (sb->st_mtim.tv_sec == best_mtime->tv_sec && sb->st_mtim.tv_nsec > best_mtime->tv_nsec);
    if (!((is_exact && !*exact) || (!*exact && newer)) ||
        (!is_exact && older_than_process(proc, sb, v)) ||
        (size_t)snprintf(best, cap, "%s/%s", dir, name) >= cap)
        return 0;
    *best_mtime = sb->st_mtim;
    *exact = is_exact;
    return 1;
}

/* Best candidate in one directory, from the shared read in cache when there is one (ps), else
 * read here. A read the deadline cut short marks v->dirs_cut. */
static int search_dir(const char *proc, const char *dir, clra__discovery_t *v,
                      clra__sockdirs_t *cache, char *best, size_t cap,
                      struct timespec *best_mtime, int *exact)
{
    int found = 0;
    char want[96];
    snprintf(want, sizeof want, "dotnet-diagnostic-%d-%lld-socket", v->ns_pid, v->key);
    if (cache) {
        const clra__sockdir_t *sd = clra__sockdirs_get(cache, dir);
        if (!sd)
            return -ENOMEM;
        for (size_t i = 0; i < sd->n; i++)
            if (clra__socket_name_matches(sd->ents[i].name, v->ns_pid))
                found |= consider(proc, dir, sd->ents[i].name, &sd->ents[i].sb, want, v, best, cap,
                                  best_mtime, exact);
        if (sd->err == ETIMEDOUT && !found)
            snprintf(v->cut_dir, sizeof v->cut_dir, "%s", dir);
        return sd->err && !found ? -sd->err : found;
    }
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d)
        return -errno;
    while ((e = readdir(d)) != NULL) {
        struct stat sb;
        char full[CLRA_PATH_MAX];
        if (!clra__socket_name_matches(e->d_name, v->ns_pid) ||
            (size_t)snprintf(full, sizeof full, "%s/%s", dir, e->d_name) >= sizeof full ||
            lstat(full, &sb) != 0 || !S_ISSOCK(sb.st_mode))
            continue;
        found |= consider(proc, dir, e->d_name, &sb, want, v, best, cap, best_mtime, exact);
    }
    closedir(d);
    return found;
}

/* The socket with our key in the first directory that has it, by name: one lstat each
 * instead of listing a temp directory of thousands of files. What the listing would have
 * chosen, since the exact key wins wherever it is. */
static int exact_socket(const clra__discovery_t *v, char *out, size_t cap)
{
    struct stat sb;
    for (int i = 0; v->key >= 0 && i < v->ndirs; i++)
        if ((size_t)snprintf(out, cap, "%s/dotnet-diagnostic-%d-%lld-socket", v->dirs[i],
                             v->ns_pid, v->key) < cap &&
            lstat(out, &sb) == 0 && S_ISSOCK(sb.st_mode))
            return 1;
    out[0] = '\0';
    return 0;
}

/* Appends dir (below the target's root) to the list unless already there. */
static void add_dir(char dirs[][CLRA_PATH_MAX], int *n, const char *root, const char *dir)
{
    char full[CLRA_PATH_MAX];
    size_t len = (size_t)snprintf(full, sizeof full, "%s%s", root, dir);
    while (len > 1 && full[len - 1] == '/')
        full[--len] = '\0';
    if (len >= sizeof full || dir[0] != '/')
        return;
    for (int i = 0; i < *n; i++)
        if (strcmp(dirs[i], full) == 0)
            return;
    strcpy(dirs[(*n)++], full);
}

/* The environment of another user's process is closed to us: name that user and how to become
 * them, since that is the fix. */
static void explain_unreadable(const char *proc, int pid, const char *searched, clra_status_t *st)
{
    clra__owner_t owner;
    char who[96], user[48], sudo[96] = "";
    if (clra__process_owner(proc, pid, &owner) == 0) {
        clra__describe_uid(owner.uid[1], who, sizeof who);
        clra__sudo_user(owner.uid[1], user, sizeof user);
        snprintf(sudo, sizeof sudo, " (e.g. sudo -u %s clrattach ...)", user);
    } else {
        snprintf(who, sizeof who, "another user");
    }
    if (geteuid() == 0) /* root refused: becoming root again cannot help */
        clra__detail(st, "process %d runs as %s: even root cannot read /proc/%d/environ (%s; "
                     "non-dumpable, another user namespace, or a security module), so its "
                     "TMPDIR is unknown; searched %s", pid, who, pid, strerror(EACCES), searched);
    else
        clra__detail(st, "process %d runs as %s: cannot read /proc/%d/environ (%s), so its "
                     "TMPDIR is unknown; searched %s; run as that user%s or as root", pid, who,
                     pid, strerror(EACCES), searched, sudo);
}

/* Says why nothing was found, naming each directory searched and the likely cause; records
 * in v whether the process is .NET after all. */
static int explain_missing(const char *proc, int pid, clra__discovery_t *v, clra_status_t *st)
{
    char list[400] = "";
    for (int i = 0; i < v->ndirs; i++) {
        size_t used = strlen(list);
        if (snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", v->dirs[i]) < 0)
            break;
    }
    int maps = clra__maps_dotnet(proc, pid);
    v->dotnet = maps < 0 ? -1 : maps;
    if (v->cut_dir[0] && maps != 0) {
        clra__detail(st, "not searched in full: the deadline passed while reading %s (a "
                     "directory of many files); raise --timeout or empty that directory",
                     v->cut_dir);
        return CLRA_ETIMEDOUT;
    }
    if (v->diagnostics_off) {
        clra__detail(st, "process %d disabled its diagnostics server (DOTNET_EnableDiagnostics=0 "
                     "or DOTNET_EnableDiagnostics_IPC=0 in its environment); searched %s", pid, list);
        return CLRA_ENOENDPOINT;
    }
    if (maps == 0) {
        clra__detail(st, "process %d is not a .NET process (no libcoreclr.so mapped; a "
                     "single-file or NativeAOT app looks alike); searched %s", pid, list);
        return CLRA_ENOTDOTNET;
    }
    if (v->environ_errno == EACCES || maps == -EACCES) {
        if (st)
            st->sys_errno = EACCES;
        explain_unreadable(proc, pid, list, st);
        return CLRA_EACCES;
    }
    if (v->stale)
        clra__detail(st, "no dotnet-diagnostic-%d-*-socket for process %d in %s (%d left by an "
                     "earlier process with the same pid ignored: made before this one started)",
                     v->ns_pid, pid, list, v->stale);
    else
        clra__detail(st, "no dotnet-diagnostic-%d-*-socket for process %d in %s", v->ns_pid, pid,
                     list);
    return CLRA_ENOENDPOINT;
}

int clra__endpoint_discover(const char *proc, int pid, clra_endpoint_t *ep, clra__discovery_t *v,
                            clra_status_t *st)
{
    return clra__endpoint_discover_with(proc, pid, ep, v, NULL, st);
}

int clra__endpoint_discover_with(const char *proc, int pid, clra_endpoint_t *ep,
                                 clra__discovery_t *v, clra__sockdirs_t *cache, clra_status_t *st)
{
    int found = 0;
    struct timespec newest = {0, 0};

    if (pid <= 0) {
        clra__detail(st, "pid %d is not a process id", pid);
        return CLRA_EINVAL;
    }
    if (!clra__procfs_exists(proc, pid)) {
        clra__detail(st, "no process %d (%s/%d missing)", pid, proc, pid);
        return CLRA_ENOPROC;
    }
    clra__discovery_view(proc, pid, v);
    if (v->tmpdir[0])
        add_dir(v->dirs, &v->ndirs, v->root, v->tmpdir);
    const char *own = getenv("TMPDIR");
    if (!v->root[0] && own && own[0])
        add_dir(v->dirs, &v->ndirs, "", own);
    add_dir(v->dirs, &v->ndirs, v->root, "/tmp");
    found = v->exact = !cache && exact_socket(v, ep->path, sizeof ep->path);
    for (int i = 0; i < v->ndirs && !v->exact; i++)
        found |= search_dir(proc, v->dirs[i], v, cache, ep->path, sizeof ep->path, &newest,
                            &v->exact) > 0;
    if (!found)
        return explain_missing(proc, pid, v, st);
    ep->pid = pid;
    ep->ns_pid = v->ns_pid;
    return 0;
}

int clra__endpoint_find_in(const char *proc, int pid, clra_endpoint_t *ep, clra_status_t *st)
{
    clra__discovery_t *v = malloc(sizeof *v);
    if (!v)
        return CLRA_ENOMEM;
    int rc = clra__endpoint_discover(proc, pid, ep, v, st);
    free(v);
    return rc;
}

int clra_endpoint_find(int pid, clra_endpoint_t *ep, clra_status_t *st)
{
    if (!ep)
        return CLRA_EINVAL;
    memset(ep, 0, sizeof *ep); /* its reserved members too */
    if (st)
        memset(st, 0, sizeof *st);
    return clra__endpoint_find_in(CLRA__PROC, pid, ep, st);
}
