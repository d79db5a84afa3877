/* stage.c - copying a profiler library into a target's file tree (a container's /tmp), and
 * removing the copies once the runtime has unloaded them.
 *
 * Everything below the target's root is reached through descriptors resolved inside that root
 * (target_root.h), and, when we are root, created and removed with the target owner's
 * file-system ids (identity.h). A stage directory is flock()ed while clra_stage_create's caller
 * attaches, so a concurrent sweep never removes a copy that is about to be mapped. */
#define _GNU_SOURCE
#include "target/identity.h"
#include "util/status.h"
#include "stage/stage.h"
#include "common/mono_clock.h"
#include "target/target_root.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define COPY_CHUNK (256 * 1024)

/* Opens the library to copy: a regular file only (O_NONBLOCK so a FIFO cannot hang us). */
static int open_source(const char *path, int *fd, clra_status_t *st)
{
    struct stat sb;
    *fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (*fd < 0) {
        int e = errno;
        clra__detail(st, "cannot read the profiler library %s: %s", path, strerror(e));
        return e == EACCES ? CLRA_EACCES : CLRA_EINVAL;
    }
    if (fstat(*fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        clra__detail(st, "%s is not a regular file; stage the profiler library itself", path);
        close(*fd);
        *fd = -1;
        return CLRA_EINVAL;
    }
    return 0;
}

static void random_suffix(char out[CLRA__STAGE_SUFFIX_LEN + 1])
{
    static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    unsigned char b[CLRA__STAGE_SUFFIX_LEN];
    if (getrandom(b, sizeof b, GRND_NONBLOCK) != (ssize_t)sizeof b) {
        unsigned long long x = mono__ns() * 2654435761u ^ (unsigned)getpid();
        for (size_t i = 0; i < sizeof b; i++, x >>= 7)
            b[i] = (unsigned char)(x ^ (x >> 29));
    }
    for (size_t i = 0; i < sizeof b; i++)
        out[i] = set[b[i] % (sizeof set - 1)];
    out[CLRA__STAGE_SUFFIX_LEN] = '\0';
}

/* Creates and locks a fresh directory under parent. A sweep may remove the empty directory
 * between our mkdir and our lock; its link count of 0 shows that, and another name is tried.
 * 0 or -errno. */
static int make_dir(int parent, const char *owner, clra_stage_t *s)
{
    for (int tries = 0; tries < 64; tries++) {
        char sfx[CLRA__STAGE_SUFFIX_LEN + 1];
        struct stat sb;
        random_suffix(sfx);
        snprintf(s->dir_name, sizeof s->dir_name, CLRA__STAGE_PREFIX "%s-%s", owner, sfx);
        if (mkdirat(parent, s->dir_name, 0700) != 0) {
            if (errno == EEXIST)
                continue;
            return -errno;
        }
        int fd = openat(parent, s->dir_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0 && errno == ENOENT)
            continue; /* swept already */
        if (fd < 0) { /* out of descriptors, say: nothing made may stay behind */
            int e = errno;
            unlinkat(parent, s->dir_name, AT_REMOVEDIR);
            return -e;
        }
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            close(fd);
            if (e == EWOULDBLOCK)
                continue; /* a sweep holds it and will remove it */
            unlinkat(parent, s->dir_name, AT_REMOVEDIR); /* no locks here (NFS?): give up */
            return -e;
        }
        if (fstat(fd, &sb) != 0 || sb.st_nlink == 0) {
            close(fd); /* removed by a sweep between our mkdir and our lock */
            continue;
        }
        if (fchmod(fd, 0700) != 0) { /* whatever the umask took away */
            int e = errno;
            unlinkat(parent, s->dir_name, AT_REMOVEDIR);
            close(fd);
            return -e;
        }
        s->dir_fd = fd;
        return 0;
    }
    return -EEXIST;
}

/* Writes all of buf to fd. 0 or -errno. */
static int write_all(int fd, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, buf, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? -errno : -EIO;
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Copies src into a new file in s's directory. O_EXCL and O_NOFOLLOW: nothing that exists
 * there (a planted link) is ever written through. Mode 0500: read and execute for the owner. */
static int copy_file(int src, const char *src_path, const char *tmpdir, clra_stage_t *s,
                     clra_status_t *st)
{
    int out = openat(s->dir_fd, s->file_name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
                                                  O_CLOEXEC, 0500);
    int err = out < 0 ? errno : 0, reading = 0; /* before malloc can change errno */
    char *buf = malloc(COPY_CHUNK);
    if (!err && !buf)
        err = ENOMEM;
    while (!err) {
        ssize_t n = read(src, buf, COPY_CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            err = n < 0 ? errno : 0;
            reading = n < 0;
            break;
        }
        err = -write_all(out, buf, (size_t)n);
    }
    if (!err && fchmod(out, 0500) != 0)
        err = errno;
    if (out >= 0 && close(out) != 0 && !err)
        err = errno;
    free(buf);
    if (!err)
        return 0;
    if (reading)
        clra__detail(st, "cannot read %s: %s", src_path, strerror(err));
    else
        clra__detail(st, "cannot write %s/%s/%s inside process %d: %s", tmpdir, s->dir_name,
                     s->file_name, s->pid, strerror(err));
    if (st)
        st->sys_errno = err;
    return clra__stage_errno(err);
}

/* Removes the copy and its directory through the held descriptors. 0 or errno. */
static int remove_stage(clra_stage_t *s)
{
    int err = 0;
    if (s->file_name[0] && unlinkat(s->dir_fd, s->file_name, 0) != 0 && errno != ENOENT)
        err = errno;
    if (!err && unlinkat(s->parent_fd, s->dir_name, AT_REMOVEDIR) != 0 && errno != ENOENT)
        err = errno;
    return err;
}

/* The part of clra_stage_create done as the target's owner: the directory and the copy. */
static int stage_as_owner(int root, const clra__stage_place_t *pl, int src, const char *src_path,
                          clra_stage_t *s, clra_status_t *st)
{
    const char *tmp = pl->tmpdir[0] ? pl->tmpdir : "/";
    s->parent_fd = clra__root_openat(root, tmp, O_PATH | O_DIRECTORY, 0);
    int e = s->parent_fd < 0 ? -s->parent_fd : -make_dir(s->parent_fd, pl->owner, s);
    if (e) {
        if (st)
            st->sys_errno = e;
        clra__detail(st, "cannot create a private directory in %s, the temp directory of "
                     "process %d (resolved inside its file tree): %s", tmp, s->pid, strerror(e));
        return clra__stage_errno(e);
    }
    int rc = copy_file(src, src_path, pl->tmpdir, s, st);
    if (rc)
        remove_stage(s);
    return rc;
}

/* As root, the copy must end up the owner's even when the kernel refused us its file-system ids
 * (no CAP_SETUID): a root-owned 0500 file is unreadable to the target's runtime. */
static int give_to_owner(clra_stage_t *s, clra_status_t *st)
{
    clra__owner_t owner;
    if (geteuid() != 0 || clra__process_owner(CLRA__PROC, s->pid, &owner) != 0)
        return 0;
    uid_t uid = owner.uid[1];
    gid_t gid = owner.gid[1];
    if (fchown(s->dir_fd, uid, gid) == 0 &&
        fchownat(s->dir_fd, s->file_name, uid, gid, AT_SYMLINK_NOFOLLOW) == 0)
        return 0;
    int e = errno;
    if (st)
        st->sys_errno = e;
    clra__detail(st, "cannot give the staged copy to uid %u of process %d: %s (root here has "
                 "neither CAP_SETUID nor CAP_CHOWN)", (unsigned)uid, s->pid, strerror(e));
    return CLRA_EACCES;
}

/* Lets go of the directory (its lock ends with the descriptor); the copy stays. */
static void close_dirs(clra_stage_t *s)
{
    if (s->dir_fd >= 0)
        close(s->dir_fd);
    if (s->parent_fd >= 0)
        close(s->parent_fd);
    s->dir_fd = s->parent_fd = -1;
}

/* Marks the copy as owed when the runtime has not mapped it yet: a request that timed out is
 * still read and served once the target runs again, and must find its file. */
static void mark_if_owed(const clra_stage_t *s)
{
    struct stat sb;
    if (s->dir_fd < 0 || fstatat(s->dir_fd, s->file_name, &sb, AT_SYMLINK_NOFOLLOW) != 0)
        return;
    if (clra__procfs_inode_mapped(CLRA__PROC, s->pid, (uint64_t)sb.st_ino) == 1)
        return;
    int fd = openat(s->dir_fd, CLRA__STAGE_OWED, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC,
                    0600);
    if (fd >= 0)
        close(fd);
}

void clra_stage_release(clra_stage_t *s)
{
    if (!s)
        return;
    mark_if_owed(s);
    close_dirs(s);
    free(s);
}

const char *clra_stage_target_path(const clra_stage_t *s)
{
    return s ? s->target_path : NULL;
}

const char *clra_stage_local_path(const clra_stage_t *s)
{
    return s ? s->local_path : NULL;
}

/* Fills target_path and local_path: CLRA_EINVAL when they do not fit, CLRA_ENOPROC when the
 * process has gone. Called once before anything is created, to check the lengths. */
static int name_paths(const clra__stage_place_t *pl, clra_stage_t *s, clra_status_t *st)
{
    int other, n = snprintf(s->target_path, sizeof s->target_path, "%s/%s/%s", pl->tmpdir,
                            s->dir_name, s->file_name);
    int rc = n < 0 || (size_t)n >= sizeof s->target_path
                 ? CLRA_EINVAL
                 : clra_target_path_resolve(s->pid, s->target_path, s->local_path,
                                    sizeof s->local_path, &other);
    if (rc == CLRA_ENOPROC)
        clra__detail(st, "process %d exited while its profiler was being staged", s->pid);
    else if (rc)
        clra__detail(st, "the staged path in %s would exceed %d bytes", pl->tmpdir,
                     CLRA_PATH_MAX);
    return rc;
}

/* Fills s: everything clra_stage_create does but the allocation. */
static int stage_fill(int pid, const char *library_path, clra_stage_t *s, clra_status_t *st)
{
    clra__stage_place_t pl;
    int src = -1, root = -1;
    s->dir_fd = s->parent_fd = -1;
    s->pid = pid;
    const char *base = library_path ? strrchr(library_path, '/') : NULL;
    base = base ? base + 1 : library_path;
    if (pid <= 0 || !base || !*base || !strcmp(base, ".") || !strcmp(base, "..") ||
        strlen(base) >= sizeof s->file_name) {
        clra__detail(st, "a pid and the path of a profiler library file are required");
        return CLRA_EINVAL;
    }
    snprintf(s->file_name, sizeof s->file_name, "%s", base);
    int rc = open_source(library_path, &src, st);
    if (!rc)
        rc = clra__stage_place(pid, &pl, st);
    if (!rc) {
        clra_stage_sweep(pid, NULL, NULL);
        snprintf(s->dir_name, sizeof s->dir_name, CLRA__STAGE_PREFIX "%s-XXXXXX", pl.owner);
        rc = name_paths(&pl, s, st);
    }
    if (!rc)
        rc = clra__root_open(pid, &root, st);
    if (!rc) {
        clra__identity_t id;
        rc = clra__identity_assume(pid, &id, st);
        if (!rc)
            rc = stage_as_owner(root, &pl, src, library_path, s, st);
        if (!rc && (rc = give_to_owner(s, st)) != 0)
            remove_stage(s);
        clra__identity_restore(&id);
    }
    if (!rc && (rc = name_paths(&pl, s, st)) != 0)
        remove_stage(s);
    if (rc)
        close_dirs(s);
    if (root >= 0)
        close(root);
    if (src >= 0)
        close(src);
    return rc;
}

int clra_stage_create(int pid, const char *library_path, clra_stage_t **out, clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (!out)
        return CLRA_EINVAL;
    *out = NULL;
    clra_stage_t *s = calloc(1, sizeof *s);
    if (!s)
        return CLRA_ENOMEM;
    int rc = stage_fill(pid, library_path, s, st);
    if (rc)
        free(s);
    else
        *out = s;
    return rc;
}

int clra_stage_remove(clra_stage_t *s, clra_status_t *st)
{
    clra_status_t local, ignored;
    clra__identity_t id;
    st = clra__status_begin(st, &local);
    if (!s)
        return 0;
    if (s->dir_fd < 0) {
        free(s);
        return 0;
    }
    /* A target that has exited has no owner to read; then we remove as ourselves. */
    if (clra__identity_assume(s->pid, &id, &ignored) != 0)
        memset(&id, 0, sizeof id);
    int err = remove_stage(s);
    clra__identity_restore(&id);
    if (err) {
        st->sys_errno = err;
        clra__detail(st, "cannot remove the staged copy %s: %s", s->local_path, strerror(err));
    }
    close_dirs(s);
    free(s);
    return err ? clra__stage_errno(err) : 0;
}
