/* sockdir.c - one bounded read per directory of diagnostics sockets (issue 17 #4: a TMPDIR of
 * 200,000 files read once per process made `ps --timeout 2000` take 12 s). */
#define _GNU_SOURCE
#include "target/sockdir.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK_EVERY 512 /* names read between two looks at the clock */

/* A name that may be a runtime's socket; the exact pattern is the caller's to check. */
static int socket_like(const char *name)
{
    static const char prefix[] = "dotnet-diagnostic-", suffix[] = "-socket";
    size_t len = strlen(name);
    return len < sizeof ((clra__sockent_t *)0)->name && len > sizeof prefix + sizeof suffix &&
           strncmp(name, prefix, sizeof prefix - 1) == 0 &&
           strcmp(name + len - (sizeof suffix - 1), suffix) == 0;
}

static int add_ent(clra__sockdir_t *d, const char *name, const struct stat *sb)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 8;
        clra__sockent_t *grown = realloc(d->ents, cap * sizeof *grown);
        if (!grown)
            return -1;
        d->ents = grown;
        d->cap = cap;
    }
    size_t len = strlen(name);
    if (len >= sizeof d->ents[0].name)
        return 0; /* socket_like kept it shorter; not a runtime's name otherwise */
    memcpy(d->ents[d->n].name, name, len + 1);
    d->ents[d->n++].sb = *sb;
    return 0;
}

/* Reads dir into d, looking at the deadline every CHECK_EVERY names. */
static void read_dir(clra__sockdir_t *d, const clra__deadline_t *deadline)
{
    if (deadline && clra__deadline_left_ms(deadline) == 0) {
        d->err = ETIMEDOUT;
        return;
    }
    DIR *dir = opendir(d->path);
    if (!dir) {
        d->err = errno;
        return;
    }
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        char full[CLRA_PATH_MAX];
        struct stat sb;
        if (++d->entries_read % CHECK_EVERY == 0 && deadline &&
            clra__deadline_left_ms(deadline) == 0) {
            d->err = ETIMEDOUT;
            break;
        }
        if (!socket_like(e->d_name) ||
            (size_t)snprintf(full, sizeof full, "%s/%s", d->path, e->d_name) >= sizeof full ||
            lstat(full, &sb) != 0 || !S_ISSOCK(sb.st_mode))
            continue;
        if (add_ent(d, e->d_name, &sb) != 0) {
            d->err = ENOMEM;
            break;
        }
    }
    closedir(dir);
}

const clra__sockdir_t *clra__sockdirs_get(clra__sockdirs_t *c, const char *dir)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->dirs[i]->path, dir) == 0)
            return c->dirs[i];
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 8;
        clra__sockdir_t **grown = realloc(c->dirs, cap * sizeof *grown);
        if (!grown)
            return NULL;
        c->dirs = grown;
        c->cap = cap;
    }
    clra__sockdir_t *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    snprintf(d->path, sizeof d->path, "%s", dir);
    read_dir(d, c->deadline);
    c->dirs[c->n++] = d;
    return d;
}

void clra__sockdirs_free(clra__sockdirs_t *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->dirs[i]->ents);
        free(c->dirs[i]);
    }
    free(c->dirs);
    c->dirs = NULL;
    c->n = c->cap = 0;
}
