/* grow.h - growing a realloc'd array by doubling (internal). */
#ifndef CLRA_GROW_H
#define CLRA_GROW_H

#include <stddef.h>

/* Makes *p (of *cap elements of each bytes) hold at least need elements, doubling from 256;
 * 0, or -1 when memory ran out or the size would overflow (*p and *cap then unchanged). */
int clra__grow(void **p, size_t *cap, size_t need, size_t each);

#endif
