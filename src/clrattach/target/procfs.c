/* procfs.c - reading /proc: small files, status, stat, environ, cmdline, the pid list and
 * file trees. The only file (with procfs_maps.c) that opens anything below /proc. */
#define _GNU_SOURCE
#include "target/procfs.h"
#include "util/small_libc.h"
#include "util/status.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads a small /proc file into buf (NUL-terminated). Returns its length or -errno. */
long clra__read_small_file(const char *path, char *buf, size_t cap)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    size_t len = 0;
    while (len + 1 < cap) {
        ssize_t k = read(fd, buf + len, cap - 1 - len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            int e = errno;
            close(fd);
            return -e;
        }
        if (k == 0)
            break;
        len += (size_t)k;
    }
    close(fd);
    buf[len] = '\0';
    return (long)len;
}

int clra__procfs_path(const char *proc, int pid, const char *entry, char *out, size_t cap)
{
    int n = entry && entry[0] ? snprintf(out, cap, "%s/%d/%s", proc, pid, entry)
                              : snprintf(out, cap, "%s/%d", proc, pid);
    return n >= 0 && (size_t)n < cap ? 0 : CLRA_EINVAL;
}

long clra__procfs_read(const char *proc, int pid, const char *entry, char *buf, size_t cap)
{
    char path[CLRA_PATH_MAX];
    if (clra__procfs_path(proc, pid, entry, path, sizeof path) != 0)
        return -ENAMETOOLONG;
    return clra__read_small_file(path, buf, cap);
}

int clra__procfs_exists(const char *proc, int pid)
{
    char path[CLRA_PATH_MAX];
    struct stat sb;
    return pid > 0 && clra__procfs_path(proc, pid, "", path, sizeof path) == 0 &&
           stat(path, &sb) == 0;
}

int clra__procfs_status(const char *proc, int pid, clra__proc_status_t *out)
{
    char text[4096];
    if (clra__procfs_read(proc, pid, "status", text, sizeof text) <= 0) {
        out->ns_pid = -1;
        out->have_uid = out->have_gid = 0;
        return CLRA_ENOPROC;
    }
    return clra__parse_status(text, out);
}

long long clra__procfs_start_time(const char *proc, int pid)
{
    char text[4096];
    if (clra__procfs_read(proc, pid, "stat", text, sizeof text) <= 0)
        return -1;
    return clra__parse_starttime(text);
}

long long clra__procfs_started_at(const char *proc, int pid)
{
    char path[CLRA_PATH_MAX], text[16384];
    long long ticks = clra__procfs_start_time(proc, pid), btime = 0;
    unsigned long hz = getauxval(AT_CLKTCK); /* sysconf's table would cost the static command */
    if (ticks < 0 || hz == 0 ||
        (size_t)snprintf(path, sizeof path, "%s/stat", proc) >= sizeof path ||
        clra__read_small_file(path, text, sizeof text) <= 0)
        return -1;
    const char *b = clra__strfind(text, "\nbtime ");
    for (b = b ? b + 7 : NULL; b && *b >= '0' && *b <= '9' && btime < (1LL << 40); b++)
        btime = btime * 10 + (*b - '0');
    return btime > 0 ? btime + ticks / (long long)hz : -1;
}

#define PF_KTHREAD_FLAG 0x00200000ll /* include/linux/sched.h; stat field 9 */

/* Kernel threads have no runtime and zombies no longer run one; both are skipped unread. */
int clra__procfs_is_live_user(const char *proc, int pid)
{
    char text[1024];
    if (clra__procfs_read(proc, pid, "stat", text, sizeof text) <= 0)
        return 0;
    const char *paren = strrchr(text, ')');
    if (!paren || paren[1] != ' ' || paren[2] == 'Z' || paren[2] == 'X')
        return 0;
    long long flags = clra__stat_field(text, 9);
    return !(flags >= 0 && (flags & PF_KTHREAD_FLAG));
}

/* The kernel lets arguments and environment take a quarter of the stack limit, so several
 * MiB are real; the read grows from 64 KiB to this bound instead of stopping at the first MiB. */
#define ENVIRON_FIRST (64 * 1024)
#define ENVIRON_MAX (64 * 1024 * 1024)

long clra__procfs_environ(const char *proc, int pid, char **out)
{
    long len = -ENOMEM;
    *out = NULL;
    for (size_t cap = ENVIRON_FIRST; cap <= ENVIRON_MAX; cap *= 2) {
        free(*out);
        *out = malloc(cap);
        len = *out ? clra__procfs_read(proc, pid, "environ", *out, cap) : -ENOMEM;
        if (len < 0 || (size_t)len + 1 < cap)
            break; /* an error, or all of it with room to spare */
    }
    if (len < 0) {
        free(*out);
        *out = NULL;
    }
    return len;
}

#define CMDLINE_MAX (64 * 1024)

char *clra__procfs_cmdline(const char *proc, int pid)
{
    char *buf = malloc(CMDLINE_MAX);
    long n = buf ? clra__procfs_read(proc, pid, "cmdline", buf, CMDLINE_MAX) : -ENOMEM;
    if (n <= 0) {
        free(buf);
        return NULL;
    }
    while (n > 0 && buf[n - 1] == '\0')
        n--;
    for (long i = 0; i < n; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    buf[n] = '\0';
    return buf;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Ascending, so the listing reads like ps(1). */
int clra__procfs_pids(const char *proc, int **pids, size_t *n, clra_status_t *st)
{
    DIR *d = opendir(proc);
    size_t cap = 256;
    struct dirent *e;
    *n = 0;
    *pids = malloc(cap * sizeof **pids);
    if (!d || !*pids) {
        clra__detail(st, "cannot list %s: %s", proc, strerror(d ? ENOMEM : errno));
        if (d)
            closedir(d);
        return d ? CLRA_ENOMEM : CLRA_EIO;
    }
    while ((e = readdir(d)) != NULL) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        if (*end || pid <= 0 || pid > 0x7fffffff || !isdigit((unsigned char)e->d_name[0]))
            continue;
        if (*n == cap) {
            int *grown = realloc(*pids, 2 * cap * sizeof **pids);
            if (!grown)
                break;
            *pids = grown;
            cap *= 2;
        }
        (*pids)[(*n)++] = (int)pid;
    }
    closedir(d);
    clra__sort(*pids, *n, sizeof **pids, cmp_int);
    return 0;
}

/* Reads a symlink below proc; -1 when it cannot be read. */
static int read_proc_link(const char *proc, const char *rest, char *out, size_t cap)
{
    char path[CLRA_PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", proc, rest) >= sizeof path)
        return -1;
    ssize_t n = readlink(path, out, cap - 1);
    if (n < 0)
        return -1;
    out[n] = '\0';
    return 0;
}

int clra__procfs_other_tree(const char *proc, int pid, char *root, size_t cap)
{
    char rest[64], ours[128], theirs[CLRA_PATH_MAX];
    int other = 0;
    snprintf(rest, sizeof rest, "%d/ns/mnt", pid);
    if (read_proc_link(proc, "self/ns/mnt", ours, sizeof ours) == 0 &&
        read_proc_link(proc, rest, theirs, sizeof theirs) == 0)
        other = strcmp(ours, theirs) != 0;
    snprintf(rest, sizeof rest, "%d/root", pid);
    if (!other && read_proc_link(proc, rest, theirs, sizeof theirs) == 0)
        other = strcmp(theirs, "/") != 0;
    root[0] = '\0';
    if (other && clra__procfs_path(proc, pid, "root", root, cap) != 0)
        root[0] = '\0';
    return other;
}

int clra__procfs_uid_inside(const char *proc, int pid, uid_t uid, uid_t *inside)
{
    char rest[64], ours[128], theirs[128], map[4096];
    snprintf(rest, sizeof rest, "%d/ns/user", pid);
    if (read_proc_link(proc, "self/ns/user", ours, sizeof ours) != 0 ||
        read_proc_link(proc, rest, theirs, sizeof theirs) != 0)
        return -1;
    if (strcmp(ours, theirs) == 0) {
        *inside = uid;
        return 1;
    }
    /* Read by a process of another namespace, uid_map's second column is in the reader's ids. */
    if (clra__procfs_read(proc, pid, "uid_map", map, sizeof map) < 0)
        return -1;
    uint32_t in;
    if (!clra__parse_id_map(map, (uint32_t)uid, &in))
        return 0;
    *inside = (uid_t)in;
    return 1;
}

int clra__procfs_cwd(const char *proc, int pid, char *out, size_t cap)
{
    char rest[64];
    snprintf(rest, sizeof rest, "%d/cwd", pid);
    return read_proc_link(proc, rest, out, cap) == 0 && out[0] == '/' ? 0 : -1;
}

int clra__procfs_fd_path(int dir_fd, const char *name, char *out, size_t cap)
{
    int n = snprintf(out, cap, CLRA__PROC "/self/fd/%d/%s", dir_fd, name);
    return n >= 0 && (size_t)n < cap ? 0 : CLRA_EINVAL;
}
