/* output_file_unix.c - creating an output file by output_file.h's rules, in the directory the
 * walk (output_path_unix.c) reached: exclusively when the name is free, by renaming a new file
 * over an old one of ours, or by writing into a FIFO or device root or we own. */
#define _GNU_SOURCE
#include "base/output_file.h"
#include "base/output_path.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_MODE 0644

/* A new file beside name, under a name of our own, made exclusively; its descriptor or -1. */
static int create_beside(int dir, const char *name, char tmp[OUT_NAME_CAP + 32])
{
    static unsigned serial;
    for (int tries = 0; tries < 100; tries++) {
        snprintf(tmp, OUT_NAME_CAP + 32, ".%.200s.%d-%u.part", name, (int)getpid(), serial++);
        int fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

/* Our own regular file at name gives way to a new one with its permissions, renamed over it:
 * the old file is never written, so no hard link to someone's file can be emptied through it.
 * Another user's file is refused. 0, or -1 after saying why. */
static int replace_ours(out_path_t *w, out_file_t *f, const char *name, const struct stat *old)
{
    char tmp[OUT_NAME_CAP + 32];
    if (old->st_uid != geteuid())
        return out_path_refuse(w, "it exists and is owned by uid %u, not by us",
                               (unsigned)old->st_uid);
    f->fd = create_beside(w->dir, name, tmp);
    if (f->fd < 0)
        return out_path_fail(w, errno);
    if (fchmod(f->fd, old->st_mode & 0777) != 0 || renameat(w->dir, tmp, w->dir, name) != 0) {
        int err = errno;
        unlinkat(w->dir, tmp, 0);
        close(f->fd);
        f->fd = -1;
        return out_path_fail(w, err);
    }
    return 0;
}

/* A FIFO, device or socket is written to as it is (never emptied) when root or we own it. 0, or
 * -1 after saying why. */
static int open_special(out_path_t *w, out_file_t *f, const char *name)
{
    struct stat sb;
    f->fd = openat(w->dir, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (f->fd < 0)
        return out_path_fail(w, errno);
    if (fstat(f->fd, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode) &&
        (sb.st_uid == 0 || sb.st_uid == geteuid()))
        return 0;
    close(f->fd);
    f->fd = -1;
    if (S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode))
        return out_path_refuse(w, "it was replaced while we opened it");
    return out_path_refuse(w, "it exists (mode %06o) and is owned by uid %u, not by us",
                           (unsigned)sb.st_mode, (unsigned)sb.st_uid);
}

/* The last step, in the directory the walk reached: 0 opened, 1 name was a trusted link whose
 * text is now the rest to walk, -1 after saying why. */
static int open_last(out_path_t *w, out_file_t *f, const char *name)
{
    for (int tries = 0; tries < 3; tries++) {
        struct stat sb;
        f->fd = openat(w->dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                       FILE_MODE);
        if (f->fd >= 0)
            return f->created = 1, 0;
        if (errno != EEXIST)
            return out_path_fail(w, errno);
        if (fstatat(w->dir, name, &sb, AT_SYMLINK_NOFOLLOW) != 0) {
            if (errno == ENOENT)
                continue; /* removed since: create it after all */
            return out_path_fail(w, errno);
        }
        if (S_ISDIR(sb.st_mode))
            return out_path_fail(w, EISDIR);
        if (S_ISREG(sb.st_mode))
            return replace_ours(w, f, name, &sb);
        if (!S_ISLNK(sb.st_mode))
            return open_special(w, f, name);
        int kernel;
        if (out_path_follow(w, name, &kernel) != 0)
            return -1;
        if (!kernel)
            return 1;
        f->fd = openat(w->dir, name, O_WRONLY | O_CLOEXEC); /* /proc/self/fd/N: our own */
        return f->fd >= 0 ? 0 : out_path_fail(w, errno);
    }
    return out_path_fail(w, EAGAIN);
}

int out_file_open(out_file_t *f, const char *path, const char *flag, const char *who)
{
    out_path_t w;
    char name[OUT_NAME_CAP];
    memset(f, 0, sizeof *f);
    f->fd = f->dir = -1;
    f->path = path;
    int rc = out_path_begin(&w, path, flag, who);
    while (rc == 0 && (rc = out_path_last(&w, name)) == 0 && (rc = open_last(&w, f, name)) == 1)
        rc = 0;
    if (rc != 0) {
        out_path_end(&w);
        return -1;
    }
    struct stat sb;
    if (fstat(f->fd, &sb) == 0)
        f->dev = (unsigned long long)sb.st_dev, f->ino = (unsigned long long)sb.st_ino;
    f->dir = w.dir;
    snprintf(f->name, sizeof f->name, "%s", name);
    return 0;
}

void out_file_discard(out_file_t *f)
{
    struct stat sb;
    if (f->created && f->dir >= 0 && fstatat(f->dir, f->name, &sb, AT_SYMLINK_NOFOLLOW) == 0 &&
        (unsigned long long)sb.st_dev == f->dev && (unsigned long long)sb.st_ino == f->ino)
        unlinkat(f->dir, f->name, 0);
    out_file_close(f);
}
