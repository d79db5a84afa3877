/* output_path_unix.c - the walk to an output file's directory (output_file.h): one directory
 * at a time, each opened from the one before it without following links, and a link followed
 * only when root or we own it, by reading it and walking on from its text. */
#define _GNU_SOURCE
#include "base/output_path.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#define PROC_FS_MAGIC 0x9fa0 /* <linux/magic.h>'s PROC_SUPER_MAGIC */
#define MAX_LINKS 40         /* the kernel's own bound */

int out_path_refuse(const out_path_t *w, const char *fmt, ...)
{
    char why[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s: refusing to write %s: %s\n  what to do: remove it, or pick another path "
            "with %s\n", w->who, cli_vis(w->path), why, w->flag);
    errno = EPERM;
    return -1;
}

int out_path_fail(const out_path_t *w, int err)
{
    fprintf(stderr, "%s: cannot write %s: %s\n  what to do: pick a writable path with %s\n",
            w->who, cli_vis(w->path), strerror(err), w->flag);
    errno = err;
    return -1;
}

/* Starts over at "/" for an absolute rest (the user's path, or a link's absolute text). */
static int restart_at_root(out_path_t *w)
{
    size_t skip = strspn(w->rest, "/");
    if (skip == 0)
        return 0;
    int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (root < 0)
        return out_path_fail(w, errno);
    if (w->dir >= 0)
        close(w->dir);
    w->dir = root;
    memmove(w->rest, w->rest + skip, strlen(w->rest + skip) + 1);
    return 0;
}

int out_path_begin(out_path_t *w, const char *path, const char *flag, const char *who)
{
    w->path = path, w->flag = flag, w->who = who, w->links = 0, w->dir = -1;
    if (!path[0])
        return out_path_fail(w, ENOENT);
    if (strlen(path) >= sizeof w->rest)
        return out_path_fail(w, ENAMETOOLONG);
    snprintf(w->rest, sizeof w->rest, "%s", path);
    if (path[0] == '/')
        return restart_at_root(w);
    w->dir = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
    return w->dir >= 0 ? 0 : out_path_fail(w, errno);
}

void out_path_end(out_path_t *w)
{
    if (w->dir >= 0)
        close(w->dir);
    w->dir = -1;
}

/* Takes the first component off rest into comp: 1 when more follow (comp is a directory), 0
 * when it was the last, -1 after saying why. */
static int pop(out_path_t *w, char comp[OUT_NAME_CAP])
{
    if (restart_at_root(w) != 0)
        return -1;
    size_t n = strcspn(w->rest, "/");
    if (n >= OUT_NAME_CAP)
        return out_path_fail(w, ENAMETOOLONG);
    memcpy(comp, w->rest, n);
    comp[n] = '\0';
    size_t skip = n + strspn(w->rest + n, "/");
    int more = w->rest[skip] != '\0';
    if (n == 0 || (!more && w->rest[n] == '/')) /* "dir/": names a directory */
        return out_path_fail(w, EISDIR);
    memmove(w->rest, w->rest + skip, strlen(w->rest + skip) + 1);
    return more;
}

/* The link comp (in w->dir) replaces itself in rest by its text, when root or we own it; a link
 * inside /proc (/dev/stdout's /proc/self/fd/1) has no path for text and is left to the kernel:
 * *kernel is set. 0, or -1 after saying why. */
int out_path_follow(out_path_t *w, const char *comp, int *kernel)
{
    struct stat sb;
    struct statfs fs;
    char text[CLRA_PATH_MAX], joined[sizeof w->rest];
    *kernel = 0;
    int lfd = openat(w->dir, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (lfd < 0 || fstat(lfd, &sb) != 0) {
        int err = errno;
        if (lfd >= 0)
            close(lfd);
        return out_path_fail(w, err);
    }
    if (sb.st_uid != 0 && sb.st_uid != geteuid()) {
        close(lfd);
        return out_path_refuse(w, "'%s' is a symbolic link owned by uid %u, who could "
                               "point it at any file", cli_vis(comp), (unsigned)sb.st_uid);
    }
    *kernel = fstatfs(lfd, &fs) == 0 && fs.f_type == PROC_FS_MAGIC;
    ssize_t n = *kernel ? 0 : readlinkat(lfd, "", text, sizeof text - 1);
    int err = errno;
    close(lfd);
    if (*kernel)
        return 0;
    if (n <= 0 || ++w->links > MAX_LINKS)
        return out_path_fail(w, n <= 0 ? err : ELOOP);
    text[n] = '\0';
    if ((size_t)snprintf(joined, sizeof joined, "%s%s%s", text, w->rest[0] ? "/" : "", w->rest) >=
        sizeof joined)
        return out_path_fail(w, ENAMETOOLONG);
    memcpy(w->rest, joined, sizeof joined);
    return 0;
}

/* Enters the directory comp: itself when it is one, through the link when it is a trusted
 * one. 0, or -1 after saying why. */
static int enter(out_path_t *w, const char *comp)
{
    int next = openat(w->dir, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (next < 0 && (errno == ELOOP || errno == ENOTDIR)) {
        struct stat sb;
        if (fstatat(w->dir, comp, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(sb.st_mode))
            return out_path_fail(w, ENOTDIR);
        int kernel;
        if (out_path_follow(w, comp, &kernel) != 0)
            return -1;
        if (!kernel)
            return 0; /* rest now starts with the link's text */
        next = openat(w->dir, comp, O_PATH | O_DIRECTORY | O_CLOEXEC);
    }
    if (next < 0)
        return out_path_fail(w, errno);
    close(w->dir);
    w->dir = next;
    return 0;
}

int out_path_last(out_path_t *w, char name[OUT_NAME_CAP])
{
    for (;;) {
        int more = pop(w, name);
        if (more <= 0)
            return more;
        if (strcmp(name, ".") != 0 && enter(w, name) != 0)
            return -1;
    }
}
