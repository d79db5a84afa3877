/* file_io.h - the few file calls that differ under mingw's C runtime (msvcrt): open flags it
 * lacks or names differently (binary mode, no inheritance), pread and strndup. Shared code here, the differences in file_io_unix.c and file_io_win.c. */
#ifndef CLRA_FILE_IO_H
#define CLRA_FILE_IO_H

#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>

/* The open flags that differ (file_io_unix.c, file_io_win.c): no inheritance by children
 * (O_CLOEXEC; O_NOINHERIT), no hang on a FIFO (O_NONBLOCK; 0, Windows has none), binary mode
 * (0; O_BINARY, or msvcrt opens in text mode: CRLF, ^Z). */
extern const int clra__o_cloexec, clra__o_nonblock, clra__o_binary;
#define CLRA_O_CLOEXEC clra__o_cloexec
#define CLRA_O_NONBLOCK clra__o_nonblock
#define CLRA_O_BINARY clra__o_binary

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
int clra__path_is_absolute(const char *p);

/* The first size bytes of fd, read-only, until clra__unmap_file: mapped on Unix, read into
 * memory on Windows (no mmap there). NULL with errno on failure. */
void *clra__map_file(int fd, size_t size);
void clra__unmap_file(void *p, size_t size);

#endif
