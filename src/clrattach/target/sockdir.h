/* sockdir.h - the diagnostics sockets of a directory, read once under a deadline and shared by
 * every process that uses that directory (internal; ps). */
#ifndef CLRA_TARGET_SOCKDIR_H
#define CLRA_TARGET_SOCKDIR_H

#include "clrattach.h"
#include "util/deadline.h"

#include <stddef.h>
#include <sys/stat.h>

typedef struct clra__sockent {
    char name[80];   /* dotnet-diagnostic-...-socket */
    struct stat sb;  /* its lstat, a socket */
} clra__sockent_t;

typedef struct clra__sockdir {
    char path[CLRA_PATH_MAX];
    int err;                 /* 0 read whole; an errno when unreadable; ETIMEDOUT when the
                              * deadline cut the read short (ents then holds what was seen) */
    size_t entries_read;     /* every name read, sockets or not */
    size_t n, cap;
    clra__sockent_t *ents;
} clra__sockdir_t;

typedef struct clra__sockdirs {
    const clra__deadline_t *deadline; /* NULL: unbounded */
    clra__sockdir_t **dirs;
    size_t n, cap;
} clra__sockdirs_t;

/* The directory's sockets, read on first use (later calls share that read); NULL only when out
 * of memory. Once the deadline has passed, a directory not read yet is not read at all. */
const clra__sockdir_t *clra__sockdirs_get(clra__sockdirs_t *c, const char *dir);
void clra__sockdirs_free(clra__sockdirs_t *c);

#endif
