/* nettrace_file.c - a .nettrace file through the streaming decoder, one 1 MiB piece at a time.
 *
 * The decoder itself (proto/) never touches files; this is the thin layer that reads one, so
 * a gigabyte trace costs a megabyte of buffer plus the decoder's one block.
 */
#define _GNU_SOURCE
#include "util/file_io.h"
#include "util/status.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PIECE (1u << 20)

/* Reads fd to its end into the decoder; 0, or the failing code (st says why). */
static int pour(int fd, const char *path, clra_nettrace_decoder_t *d, clra_status_t *st)
{
    uint8_t *buf = malloc(PIECE);
    if (!buf)
        return CLRA_ENOMEM;
    int rc = 0;
    for (;;) {
        ssize_t n = read(fd, buf, PIECE);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            st->sys_errno = errno;
            clra__detail(st, "cannot read %s: %s", path, strerror(errno));
            rc = CLRA_EIO;
        }
        if (n <= 0)
            break;
        rc = clra_nettrace_decoder_feed(d, buf, (size_t)n, st);
        if (rc == CLRA_EPROTO)
            rc = 0; /* the verdict, with its offset, comes from decoder_end */
        if (rc)
            break;
    }
    free(buf);
    return rc;
}

int clra_nettrace_decode_file(const char *path, const clra_nettrace_callbacks_t *cb, void *ctx,
                              clra_nettrace_info_t *info, clra_status_t *st)
{
    clra_status_t local;
    clra_nettrace_decoder_t *d;
    st = clra__status_begin(st, &local);
    if (info)
        memset(info, 0, sizeof *info);
    if (!path || !cb)
        return CLRA_EINVAL;
    if (info)
        info->state = CLRA_NETTRACE_INCOMPLETE;
    int fd = open(path, O_RDONLY | CLRA_O_BINARY | CLRA_O_CLOEXEC);
    if (fd < 0) {
        st->sys_errno = errno;
        clra__detail(st, "cannot open %s: %s", path, strerror(errno));
        return errno == EACCES ? CLRA_EACCES : CLRA_EIO;
    }
    int rc = clra_nettrace_decoder_new(cb, ctx, &d);
    if (rc == 0)
        rc = pour(fd, path, d, st);
    close(fd);
    if (rc == 0 || rc == CLRA_EPROTO)
        rc = clra_nettrace_decoder_end(d, info, st);
    clra_nettrace_decoder_free(d);
    return rc;
}
