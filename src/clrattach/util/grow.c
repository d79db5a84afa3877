/* grow.c - growing a realloc'd array by doubling, with the size checked for overflow. */
#include "util/grow.h"

#include <stdint.h>
#include <stdlib.h>

/* Doubling keeps appends amortised O(1) for the decoder's sample, stack and name lists, whose
 * counts come from the input: the multiplication is checked, never trusted. */
int clra__grow(void **p, size_t *cap, size_t need, size_t each)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 256;
    while (n < need && n <= SIZE_MAX / 2)
        n *= 2;
    if (n < need || each == 0 || n > SIZE_MAX / each)
        return -1;
    void *q = realloc(*p, n * each);
    if (!q)
        return -1;
    *p = q;
    *cap = n;
    return 0;
}
