/* target_root.c - files inside a target's file tree, resolved as the target resolves them.
 *
 * Going through /proc/PID/root by path is not enough: an absolute symlink met on the way (a
 * container's /tmp -> /var/tmp, or one planted by the container's owner) would be followed in
 * OUR tree. openat2's RESOLVE_IN_ROOT keeps every jump inside the target's root. */
#define _GNU_SOURCE
#include "target/target_root.h"
#include "target/procfs.h"
#include "util/status.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int clra__root_open(int pid, int *fd, clra_status_t *st)
{
    char path[64];
    clra__procfs_path(CLRA__PROC, pid, "root", path, sizeof path);
    *fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (*fd >= 0)
        return 0;
    int e = errno;
    if (st)
        st->sys_errno = e;
    if (e == ENOENT || e == ESRCH) {
        clra__detail(st, "no process %d (%s is gone)", pid, path);
        return CLRA_ENOPROC;
    }
    clra__detail(st, "cannot open %s, the root of process %d's file tree: %s%s", path, pid,
                 strerror(e), e == EACCES || e == EPERM ? "; run as its owner or root" : "");
    return e == EACCES || e == EPERM ? CLRA_EACCES : CLRA_EIO;
}

int clra__root_walk_openat(int root_fd, const char *path, int flags, mode_t mode)
{
    char comp[256];
    int dir = dup(root_fd);
    while (dir >= 0) {
        while (*path == '/')
            path++;
        size_t len = strcspn(path, "/");
        const char *rest = path + len;
        while (*rest == '/')
            rest++;
        if (len >= sizeof comp || (len == 2 && path[0] == '.' && path[1] == '.')) {
            close(dir);
            return len >= sizeof comp ? -ENAMETOOLONG : -ELOOP;
        }
        snprintf(comp, sizeof comp, "%.*s", (int)len, len ? path : ".");
        int last = *rest == '\0';
        int next = last ? openat(dir, comp, flags | O_NOFOLLOW | O_CLOEXEC, mode)
                        : openat(dir, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int e = errno;
        close(dir);
        if (next < 0)
            return e == ENOTDIR && !last ? -ELOOP : -e;
        if (last)
            return next;
        dir = next;
        path = rest;
    }
    return -errno;
}

int clra__root_openat(int root_fd, const char *path, int flags, mode_t mode)
{
    struct open_how how = {
        .flags = (uint64_t)(flags | O_CLOEXEC),
        .mode = (flags & O_CREAT) ? mode : 0,
        .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
    };
    while (*path == '/')
        path++;
    if (!*path)
        path = ".";
    long fd = syscall(SYS_openat2, root_fd, path, &how, sizeof how);
    if (fd >= 0)
        return (int)fd;
    if (errno != ENOSYS)
        return -errno;
    return clra__root_walk_openat(root_fd, path, flags, mode);
}

int clra__target_file_check(int pid, const char *profiler_path, clra_status_t *st)
{
    char local[CLRA_PATH_MAX];
    int other = 0, root;
    if (clra_target_path_resolve(pid, profiler_path, local, sizeof local, &other) != 0 || !other)
        return 0;
    if (clra__root_open(pid, &root, NULL) != 0)
        return 0; /* the connect will say what is wrong with the process */
    int fd = clra__root_openat(root, profiler_path, O_PATH, 0);
    close(root);
    if (fd >= 0) {
        close(fd);
        return 0;
    }
    if (fd != -ENOENT)
        return 0;
    if (st)
        st->sys_errno = ENOENT;
    clra__detail(st, "%s is not in process %d's file tree (its mount namespace is not ours; "
                 "looked for %s); stage a copy (clra_stage_create, attach --stage) or pass a "
                 "path that exists inside it", profiler_path, pid, local);
    return CLRA_EINVAL;
}
