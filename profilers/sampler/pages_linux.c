/* pages_linux.c - anonymous mappings for the sampler's tables, arenas and caches. Through malloc they
 * would land in the target's glibc arenas (or, sanitized, in ASan's allocator and quarantine),
 * which keep what a detached sampler freed: each attach-profile-detach cycle left the target a
 * little larger. A mapping goes back to the kernel whole at the detach. */
#define _GNU_SOURCE
#include "pages.h"

#include <sys/mman.h>

/* Zero-filled by the kernel, as calloc's callers expect. */
void *pages_alloc(size_t bytes)
{
    void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* mremap keeps the contents and zero-fills the growth of an anonymous mapping. */
void *pages_realloc(void *p, size_t old, size_t bytes)
{
    if (!p)
        return pages_alloc(bytes);
    void *q = mremap(p, old ? old : 1, bytes ? bytes : 1, MREMAP_MAYMOVE);
    return q == MAP_FAILED ? NULL : q;
}

void pages_free(void *p, size_t bytes)
{
    if (p)
        munmap(p, bytes ? bytes : 1);
}
