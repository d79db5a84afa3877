/* file_io_unix.c - the Unix side of util/file_io.h: the flags and calls mingw lacks. */
#define _GNU_SOURCE
#include "util/file_io.h"

#include <sys/mman.h>
#include <unistd.h>

const int clra__o_cloexec = O_CLOEXEC;
const int clra__o_nonblock = O_NONBLOCK;
const int clra__o_binary = 0;

/* pread itself: the descriptor's offset stays where it was. */
long long clra__pread(int fd, void *buf, size_t n, uint64_t off)
{
    return pread(fd, buf, n, (off_t)off);
}

/* Unix paths have one root: a leading slash. */
int clra__path_is_absolute(const char *p)
{
    return p && p[0] == '/';
}

/* A private read-only mapping: no copy of a file the checks only read. */
void *clra__map_file(int fd, size_t size)
{
    void *p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
    return p == MAP_FAILED ? NULL : p;
}

void clra__unmap_file(void *p, size_t size)
{
    munmap(p, size);
}
