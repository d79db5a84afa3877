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
#include <unistd.h>

#define MAX_CANDIDATES 64 /* judged per sweep; the next sweep takes the rest */
#define MAX_MAPPED 64

typedef struct candidate {
    int fd; /* the directory, locked */
    char name[64];
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

/* Empties a stage directory (it holds files only) and removes it. 1 removed, 0 not. */
static int remove_dir(int parent, const candidate_t *c)
{
    int dfd = openat(c->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    struct dirent *e;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        return 0;
    }
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            unlinkat(c->fd, e->d_name, 0);
    closedir(d);
    return unlinkat(parent, c->name, AT_REMOVEDIR) == 0;
}

/* The sweep proper, as the target's owner: lock, then read the maps (a copy whose lock we
 * hold can no longer become mapped by a stager), then remove the unmapped. */
static int sweep_in(int pid, int parent, const char *owner, int *removed, clra_status_t *st)
{
    candidate_t c[MAX_CANDIDATES];
    mapped_t *m = malloc(sizeof *m);
    int n = lock_candidates(parent, owner, c, MAX_CANDIDATES), err = m ? 0 : ENOMEM;
    if (n < 0)
        err = -n;
    if (!err && n > 0)
        err = -read_mapped(pid, owner, m);
    for (int i = 0; i < n; i++) {
        int in_use = 0;
        for (int k = 0; !err && k < m->n && !in_use; k++)
            in_use = strcmp(m->names[k], c[i].name) == 0;
        /* An owed copy stays until it has been seen mapped; from then on the usual rule. */
        int owed = faccessat(c[i].fd, CLRA__STAGE_OWED, F_OK, AT_SYMLINK_NOFOLLOW) == 0;
        if (!err && in_use && owed)
            unlinkat(c[i].fd, CLRA__STAGE_OWED, 0);
        if (!err && !in_use && !owed)
            *removed += remove_dir(parent, &c[i]);
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

int clra_stage_sweep(int pid, int *removed, clra_status_t *st)
{
    clra_status_t local;
    clra__stage_place_t pl;
    int count = 0, root = -1;
    st = clra__status_begin(st, &local);
    int rc = clra__stage_place(pid, &pl, st);
    if (!rc)
        rc = clra__root_open(pid, &root, st);
    if (!rc) {
        clra__identity_t id;
        rc = clra__identity_assume(pid, &id, st);
        const char *tmp = pl.tmpdir[0] ? pl.tmpdir : "/";
        int parent = rc ? -1 : clra__root_openat(root, tmp, O_RDONLY | O_DIRECTORY, 0);
        if (!rc && parent < 0) {
            st->sys_errno = -parent;
            clra__detail(st, "cannot open %s, the temp directory of process %d: %s", tmp, pid,
                         strerror(-parent));
            rc = clra__stage_errno(-parent);
        }
        if (parent >= 0) {
            rc = sweep_in(pid, parent, pl.owner, &count, st);
            close(parent);
        }
        clra__identity_restore(&id);
        close(root);
    }
    if (removed)
        *removed = count;
    return rc;
}
