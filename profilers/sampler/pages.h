/* pages.h - the sampler's large buffers, mapped from the kernel rather than the target's malloc
 * (pages_linux.c says why; pages_win.c is the Windows twin). */
#ifndef SAMPLER_PAGES_H
#define SAMPLER_PAGES_H

#include <stddef.h>

/* bytes of zeroed memory, or NULL. */
void *pages_alloc(size_t bytes);
/* p (old bytes, may be NULL) grown or shrunk to bytes, moved if need be; new bytes are zero.
 * NULL (p untouched) when it cannot. */
void *pages_realloc(void *p, size_t old, size_t bytes);
/* Gives p (of bytes, as allocated) back; NULL is ignored. */
void pages_free(void *p, size_t bytes);

#endif
