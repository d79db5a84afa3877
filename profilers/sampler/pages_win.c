/* pages_win.c - pages.h on Windows: the sampler's tables in VirtualAlloc regions, for the
 * reason pages_linux.c gives (a detached sampler leaves nothing in the target's heaps). */
#include "pages.h"

#include <string.h>
#include <windows.h>

/* Committed pages come zeroed, as calloc's callers expect. */
void *pages_alloc(size_t bytes)
{
    return VirtualAlloc(NULL, bytes ? bytes : 1, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
}

/* No mremap here: a new region, the old contents copied in, the old region released. */
void *pages_realloc(void *p, size_t old, size_t bytes)
{
    if (!p)
        return pages_alloc(bytes);
    void *q = pages_alloc(bytes);
    if (!q)
        return NULL;
    memcpy(q, p, old < bytes ? old : bytes);
    pages_free(p, old);
    return q;
}

void pages_free(void *p, size_t bytes)
{
    (void)bytes; /* MEM_RELEASE frees the whole region and wants size 0 */
    if (p)
        VirtualFree(p, 0, MEM_RELEASE);
}
