/* output_file_win.c - output_file.h on Windows: no symbolic-link or owner checks here
 * (docs/windows.md); a new file is created, an existing one emptied. Binary mode, or msvcrt
 * would turn every LF byte of a trace into CR LF. */
#include "base/cli.h"
#include "base/output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <io.h>
#include <string.h>

int out_file_open(out_file_t *f, const char *path, const char *flag, const char *who)
{
    memset(f, 0, sizeof *f);
    f->dir = -1;
    f->path = path;
    f->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_BINARY | O_NOINHERIT, 0644);
    f->created = f->fd >= 0;
    if (f->fd < 0 && errno == EEXIST)
        f->fd = open(path, O_WRONLY | O_TRUNC | O_BINARY | O_NOINHERIT);
    if (f->fd < 0)
        fprintf(stderr, "%s: cannot write %s: %s\n  what to do: pick a writable path with %s\n",
                who, cli_vis(path), strerror(errno), flag);
    return f->fd < 0 ? -1 : 0;
}

void out_file_discard(out_file_t *f)
{
    int created = f->created;
    out_file_close(f);
    if (created)
        unlink(f->path);
}
