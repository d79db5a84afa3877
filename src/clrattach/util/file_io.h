/* file_io.h - the few file calls that differ under mingw's C runtime (msvcrt): open flags it
 * lacks or names differently (binary mode, no inheritance), pread and strndup. */
#ifndef CLRA_FILE_IO_H
#define CLRA_FILE_IO_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>

#ifdef _WIN32
#include <io.h>
#define CLRA_O_CLOEXEC O_NOINHERIT
#define CLRA_O_NONBLOCK 0 /* no FIFOs to hang on */
#define CLRA_O_BINARY O_BINARY /* msvcrt opens in text mode otherwise (CRLF, ^Z) */
#else
#define CLRA_O_CLOEXEC O_CLOEXEC
#define CLRA_O_NONBLOCK O_NONBLOCK
#define CLRA_O_BINARY 0
#endif

/* pread's contract; on Windows a seek and a read, so the descriptor's offset moves (callers
 * there own the descriptor alone). -1 with errno on failure. */
long long clra__pread(int fd, void *buf, size_t n, uint64_t off);
/* strndup's contract (msvcrt has none). */
char *clra__strndup(const char *s, size_t n);
/* The first size bytes of fd in a new malloc'd buffer (free it), or NULL with errno: where
 * there is no mmap. */
void *clra__read_whole(int fd, size_t size);

/* A path the target will not resolve against its own working directory: one starting with a
 * slash on Unix; on Windows a drive letter, colon and (back)slash, or two (back)slashes (UNC
 * and device paths). */
static inline int clra__path_is_absolute(const char *p)
{
#ifdef _WIN32
    if (!p)
        return 0;
    if ((p[0] == '\\' || p[0] == '/') && (p[1] == '\\' || p[1] == '/'))
        return 1;
    return ((p[0] | 0x20) >= 'a' && (p[0] | 0x20) <= 'z') && p[1] == ':' &&
           (p[2] == '\\' || p[2] == '/');
#else
    return p && p[0] == '/';
#endif
}

#endif
