/* file_io.c - file calls that read the same on Linux and under mingw (util/file_io.h). */
#define _GNU_SOURCE
#include "util/file_io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *clra__strndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *out = malloc(len + 1);
    if (out) {
        memcpy(out, s, len);
        out[len] = '\0';
    }
    return out;
}

/* Reads until size bytes are in or the file ends early (then EIO: it shrank under us). */
void *clra__read_whole(int fd, size_t size)
{
    unsigned char *buf = malloc(size ? size : 1);
    size_t got = 0;
    while (buf && got < size) {
        size_t want = size - got > 0x40000000u ? 0x40000000u : size - got;
        long long k = read(fd, buf + got, (unsigned)want);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            free(buf);
            errno = k == 0 ? EIO : errno;
            return NULL;
        }
        got += (size_t)k;
    }
    return buf;
}
