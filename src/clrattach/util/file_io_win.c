/* file_io_win.c - the Windows side of util/file_io.h, for mingw's C runtime (msvcrt). */
#include "util/file_io.h"

#include <io.h>
#include <stdlib.h>
#include <unistd.h>

const int clra__o_cloexec = O_NOINHERIT;
const int clra__o_nonblock = 0; /* no FIFOs to hang on */
const int clra__o_binary = O_BINARY; /* msvcrt opens in text mode otherwise (CRLF, ^Z) */

/* No pread: a seek and a read (callers own the descriptor alone), at most 1 GiB at once. */
long long clra__pread(int fd, void *buf, size_t n, uint64_t off)
{
    if (_lseeki64(fd, (long long)off, SEEK_SET) < 0)
        return -1;
    return read(fd, buf, n > 0x40000000u ? 0x40000000u : (unsigned)n);
}

/* A drive letter, colon and (back)slash, or two (back)slashes (UNC and device paths). */
int clra__path_is_absolute(const char *p)
{
    if (!p)
        return 0;
    if ((p[0] == '\\' || p[0] == '/') && (p[1] == '\\' || p[1] == '/'))
        return 1;
    return ((p[0] | 0x20) >= 'a' && (p[0] | 0x20) <= 'z') && p[1] == ':' &&
           (p[2] == '\\' || p[2] == '/');
}

/* No mmap: the file is read into memory. */
void *clra__map_file(int fd, size_t size)
{
    return clra__read_whole(fd, size);
}

void clra__unmap_file(void *p, size_t size)
{
    (void)size;
    free(p);
}
