/* output_file.c - what output_file.h's files share on every platform: closing, and a stdio
 * stream for the writers that take one. */
#define _GNU_SOURCE
#include "base/output_file.h"

#include <errno.h>
#include <unistd.h>

int out_file_close(out_file_t *f)
{
    int rc = 0;
    if (f->fd >= 0)
        rc = close(f->fd);
    if (f->dir >= 0)
        close(f->dir);
    f->fd = f->dir = -1;
    return rc;
}

FILE *out_file_fopen(const char *path, const char *flag, const char *who)
{
    out_file_t f;
    if (out_file_open(&f, path, flag, who) != 0)
        return NULL;
    FILE *s = fdopen(f.fd, "wb");
    if (!s) {
        int err = errno;
        out_file_discard(&f);
        fprintf(stderr, "%s: cannot write %s: out of memory\n", who, path);
        errno = err;
        return NULL;
    }
    f.fd = -1; /* the stream owns it now */
    out_file_close(&f);
    return s;
}
