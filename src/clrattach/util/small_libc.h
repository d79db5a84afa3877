/* small_libc.h - small stand-ins for two libc routines whose musl versions are large (qsort's
 * smoothsort 2.1 KB, strstr's two-way search 1.3 KB), for the static command's size budget
 * (docs/packaging.md). Inputs here are short (pid lists, path lists, /proc text). */
#ifndef CLRA_SMALL_LIBC_H
#define CLRA_SMALL_LIBC_H

#include <stddef.h>

/* Sorts n elements of size bytes in place by cmp (qsort's contract; not stable). */
void clra__sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
/* The first occurrence of needle in hay (strstr's contract). */
char *clra__strfind(const char *hay, const char *needle);

#endif
