/* procfs_maps.c - walking /proc/PID/maps: one iterator for every question asked of it (is the
 * runtime loaded, is this library still mapped, which stage copies are in use). */
#define _GNU_SOURCE
#include "target/procfs.h"
#include "util/small_libc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A line holds five short fields and a path of at most PATH_MAX bytes: this fits any real one. */
#define LINE_MAX_BYTES (CLRA_PATH_MAX + 256)

/* The fifth field (the inode), 0 when it is not a number: by hand, since sscanf would pull the
 * whole scanf family (12 KB) into the static command for this one line. */
static unsigned long long inode_field(const char *line)
{
    const char *p = line;
    for (int i = 0; i < 4; i++) {
        p += strspn(p, " \t");
        p += strcspn(p, " \t");
    }
    p += strspn(p, " \t");
    return *p >= '0' && *p <= '9' ? strtoull(p, NULL, 10) : 0;
}

/* Splits one line read by fgets into *out; the rest of a cut line is consumed from f. */
static void split_line(char *line, FILE *f, clra__maps_line_t *out)
{
    char *nl = strchr(line, '\n');
    out->cut = !nl && !feof(f);
    if (nl)
        *nl = '\0';
    if (out->cut)
        for (int ch; (ch = fgetc(f)) != EOF && ch != '\n';)
            ;
    out->inode = inode_field(line);
    const char *path = clra__maps_path_start(line);
    out->path = path ? path : "";
    out->text = line;
}

int clra__procfs_maps_each(const char *proc, int pid, clra__maps_fn fn, void *ctx)
{
    char path[CLRA_PATH_MAX];
    if (clra__procfs_path(proc, pid, "maps", path, sizeof path) != 0)
        return -ENAMETOOLONG;
    char *line = malloc(LINE_MAX_BYTES);
    FILE *f = line ? fopen(path, "re") : NULL;
    int rc = !line ? -ENOMEM : !f ? -errno : 0;
    while (rc == 0 && fgets(line, LINE_MAX_BYTES, f)) {
        clra__maps_line_t m;
        split_line(line, f, &m);
        if (fn(ctx, &m))
            rc = 1;
    }
    /* A read that failed midway proves nothing: "not mapped" would be a false answer. */
    if (rc == 0 && ferror(f))
        rc = errno ? -errno : -EIO;
    if (f)
        fclose(f);
    free(line);
    return rc;
}

/* A runtime library: CoreCLR, or Mono (which speaks the same diagnostics protocol). */
static int is_runtime_line(void *ctx, const clra__maps_line_t *m)
{
    (void)ctx;
    return clra__strfind(m->text, "libcoreclr.so") || clra__strfind(m->text, "libmonosgen");
}

int clra__maps_dotnet(const char *proc, int pid)
{
    return clra__procfs_maps_each(proc, pid, is_runtime_line, NULL);
}

/* Stops at the first mapping of the inode ctx points at. */
static int has_inode(void *ctx, const clra__maps_line_t *m)
{
    return m->inode == *(const uint64_t *)ctx;
}

int clra__procfs_inode_mapped(const char *proc, int pid, uint64_t inode)
{
    return clra__procfs_maps_each(proc, pid, has_inode, &inode);
}
