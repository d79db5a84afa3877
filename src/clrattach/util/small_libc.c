/* small_libc.c - the small sort and substring search of small_libc.h. */
#include "util/small_libc.h"

#include <string.h>

/* Swaps two elements a byte at a time: elements here are pointers and ints. */
static void swap(unsigned char *a, unsigned char *b, size_t size)
{
    for (size_t i = 0; i < size; i++) {
        unsigned char t = a[i];
        a[i] = b[i];
        b[i] = t;
    }
}

/* Shell sort with halving gaps: O(n log n) on the nearly sorted lists /proc gives, and a few
 * hundred bytes of code. */
void clra__sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    unsigned char *p = base;
    for (size_t gap = n / 2; gap > 0; gap /= 2)
        for (size_t i = gap; i < n; i++)
            for (size_t j = i; j >= gap && cmp(p + (j - gap) * size, p + j * size) > 0; j -= gap)
                swap(p + (j - gap) * size, p + j * size, size);
}

/* Naive search: the needles are short words, so the first-byte test rejects most positions. */
char *clra__strfind(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    if (n == 0)
        return (char *)hay;
    for (; *hay; hay++)
        if (*hay == *needle && strncmp(hay, needle, n) == 0)
            return (char *)hay;
    return NULL;
}
