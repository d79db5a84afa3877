/* stage_sweep.c - removing a process's stage directories once nothing maps their library,
 * so copies left by a profiler that detached by itself, or by a killed trigger, go away. */
#define _GNU_SOURCE
#include "target/identity.h"
#include "stage/stage.h"
#include "target/target_root.h"
#include "util/status.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_CANDIDATES 64 /* judged per sweep; the next sweep takes the rest */
#define MAX_MAPPED 64

typedef struct candidate {
    int fd; /* the directory, locked */
    char name[64];
    char file[256]; /* the copy in it, "" when it holds no regular file */
    int fate;       /* a clra_stage_fate_t, or -1 when not judged */
    int err;        /* with CLRA_STAGE_FAILED: the removal's errno */
} candidate_t;

typedef struct mapped {
    int n;
    char names[MAX_MAPPED][64];
} mapped_t;

/* What collect_mapped needs: the owner tag to match and the set being filled. */
typedef struct mapped_scan {
    const char *owner;
    mapped_t *m;
    int err;
} mapped_scan_t;

/* Adds the stage directory a maps line's file lies in, once. A cut line is skipped: a path
 * that long is no copy of ours. */
static int collect_mapped(void *ctx, const clra__maps_line_t *line)
{
    mapped_scan_t *sc = ctx;
    char name[64];
    if (line->cut || line->path[0] != '/' ||
        !clra__stage_dir_in_path(line->path, sc->owner, name, sizeof name))
        return 0;
    for (int i = 0; i < sc->m->n; i++)
        if (strcmp(sc->m->names[i], name) == 0)
            return 0;
    if (sc->m->n == MAX_MAPPED) {
        sc->err = E2BIG;
        return 1;
    }
    snprintf(sc->m->names[sc->m->n++], sizeof sc->m->names[0], "%s", name);
    return 0;
}

/* The stage directories that pid maps a file from. 0, or -errno when its maps cannot be read
 * in full (then nothing may be removed: we cannot tell what is in use). */
static int read_mapped(int pid, const char *owner, mapped_t *m)
{
    mapped_scan_t sc = {owner, m, 0};
    m->n = 0;
    int rc = clra__procfs_maps_each(CLRA__PROC, pid, collect_mapped, &sc);
    return sc.err ? -sc.err : rc < 0 ? rc : 0;
}

/* Collects and locks pid's stage directories under parent; one that a clra_stage_create in
 * progress holds is left alone. */
static int lock_candidates(int parent, const char *owner, candidate_t *c, int max)
{
    int n = 0, dfd = openat(parent, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    struct dirent *e;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return -errno;
    }
    while (n < max && (e = readdir(d)) != NULL) {
        if (!clra__stage_name_matches(e->d_name, owner) || strlen(e->d_name) >= sizeof c->name)
            continue;
        int fd = openat(parent, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
            continue;
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            close(fd);
            continue;
        }
        c[n].fd = fd;
        memcpy(c[n].name, e->d_name, strlen(e->d_name) + 1);
        n++;
    }
    closedir(d);
    return n;
}

/* Calls fn on each entry of the directory fd but . and .. (a directory of files only, so
 * the order does not matter). 0, or the errno that kept it from being read. */
static int each_entry(int fd, void (*fn)(int dir, const char *name, void *ctx), void *ctx)
{
    int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    struct dirent *e;
    if (!d) {
        int err = errno;
        if (dfd >= 0)
            close(dfd);
        return err;
    }
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            fn(fd, e->d_name, ctx);
    closedir(d);
    return 0;
}

static void unlink_entry(int dir, const char *name, void *ctx)
{
    (void)ctx;
    unlinkat(dir, name, 0);
}

/* The copy a directory holds: its first regular file that is not the owed mark. */
static void note_copy(int dir, const char *name, void *ctx)
{
    candidate_t *c = ctx;
    struct stat sb;
    if (c->file[0] || strcmp(name, CLRA__STAGE_OWED) == 0 || strlen(name) >= sizeof c->file ||
        fstatat(dir, name, &sb, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(sb.st_mode))
        return;
    memcpy(c->file, name, strlen(name) + 1);
}

/* Empties a stage directory (it holds files only) and removes it. 0, or the errno. */
static int remove_dir(int parent, const candidate_t *c)
{
    int err = each_entry(c->fd, unlink_entry, NULL);
    if (!err && unlinkat(parent, c->name, AT_REMOVEDIR) != 0)
        err = errno;
    return err;
}

/* One locked candidate's fate: kept while mapped, or while an attach still owes it (an owed
 * copy stays until it has been seen mapped; from then on the usual rule), else removed. */
static void judge(int parent, const mapped_t *m, candidate_t *c)
{
    int in_use = 0;
    for (int k = 0; k < m->n && !in_use; k++)
        in_use = strcmp(m->names[k], c->name) == 0;
    int owed = faccessat(c->fd, CLRA__STAGE_OWED, F_OK, AT_SYMLINK_NOFOLLOW) == 0;
    each_entry(c->fd, note_copy, c);
    if (in_use && owed)
        unlinkat(c->fd, CLRA__STAGE_OWED, 0);
    if (in_use || owed) {
        c->fate = in_use ? CLRA_STAGE_IN_USE : CLRA_STAGE_OWED;
        return;
    }
    c->err = remove_dir(parent, c);
    c->fate = c->err ? CLRA_STAGE_FAILED : CLRA_STAGE_REMOVED;
}

/* The sweep proper, as the target's owner: lock, then read the maps (a copy whose lock we
 * hold can no longer become mapped by a stager), then judge each. *n: the candidates in c. */
static int sweep_in(int pid, int parent, const char *owner, candidate_t *c, int *n,
                    clra_status_t *st)
{
    mapped_t *m = malloc(sizeof *m);
    int locked = lock_candidates(parent, owner, c, MAX_CANDIDATES), err = m ? 0 : ENOMEM;
    if (locked < 0)
        err = -locked;
    *n = locked > 0 ? locked : 0;
    if (!err && *n > 0)
        err = -read_mapped(pid, owner, m);
    for (int i = 0; i < *n; i++) {
        c[i].fate = -1;
        c[i].file[0] = '\0';
        if (!err)
            judge(parent, m, &c[i]);
        close(c[i].fd);
    }
    free(m);
    if (err) {
        st->sys_errno = err;
        clra__detail(st, "cannot tell which stage directories process %d still uses: %s", pid,
                     strerror(err));
    }
    return err ? clra__stage_errno(err) : 0;
}

/* Opens the target's temp directory inside its root as its owner, and sweeps it. */
static int sweep_as_owner(int pid, const clra__stage_place_t *pl, candidate_t *c, int *n,
                          clra_status_t *st)
{
    int root = -1;
    int rc = clra__root_open(pid, &root, st);
    if (rc)
        return rc;
    clra__identity_t id;
    rc = clra__identity_assume(pid, &id, st);
    const char *tmp = pl->tmpdir[0] ? pl->tmpdir : "/";
    int parent = rc ? -1 : clra__root_openat(root, tmp, O_RDONLY | O_DIRECTORY, 0);
    if (!rc && parent < 0) {
        st->sys_errno = -parent;
        clra__detail(st, "cannot open %s, the temp directory of process %d: %s", tmp, pid,
                     strerror(-parent));
        rc = clra__stage_errno(-parent);
    }
    if (parent >= 0) {
        rc = sweep_in(pid, parent, pl->owner, c, n, st);
        close(parent);
    }
    clra__identity_restore(&id);
    close(root);
    return rc;
}

/* Tells fn what became of each judged directory, naming its copy as stage.c named it. */
static void tell(int pid, const clra__stage_place_t *pl, const candidate_t *c, int n,
                 clra_stage_swept_fn fn, void *ctx)
{
    char target[CLRA_PATH_MAX], local[CLRA_PATH_MAX];
    for (int i = 0; i < n; i++) {
        if (c[i].fate < 0)
            continue;
        int other, len = snprintf(target, sizeof target, "%s/%s%s%s", pl->tmpdir, c[i].name,
                                  c[i].file[0] ? "/" : "", c[i].file);
        if (len < 0 || (size_t)len >= sizeof target ||
            clra_target_path_resolve(pid, target, local, sizeof local, &other) != 0)
            local[0] = '\0';
        clra_stage_swept_t d = {target, local, (clra_stage_fate_t)c[i].fate, c[i].err};
        fn(ctx, &d);
    }
}

int clra_stage_sweep2(int pid, clra_stage_swept_fn fn, void *ctx, int *removed,
                      clra_status_t *st)
{
    clra_status_t local;
    clra__stage_place_t pl;
    int n = 0, count = 0;
    st = clra__status_begin(st, &local);
    candidate_t *c = malloc(MAX_CANDIDATES * sizeof *c);
    int rc = c ? clra__stage_place(pid, &pl, st) : CLRA_ENOMEM;
    if (!rc)
        rc = sweep_as_owner(pid, &pl, c, &n, st);
    for (int i = 0; i < n; i++)
        count += c[i].fate == CLRA_STAGE_REMOVED;
    if (fn)
        tell(pid, &pl, c, n, fn, ctx);
    free(c);
    if (removed)
        *removed = count;
    return rc;
}

int clra_stage_sweep(int pid, int *removed, clra_status_t *st)
{
    return clra_stage_sweep2(pid, NULL, NULL, removed, st);
}
