/* fnv1a.h - the one 64-bit FNV-1a hash of the command's open-addressing indexes (the profile's
 * frames and stacks, the event modes' leaves): short keys, no allocation, good enough spread.
 * Static inline like utf.h, so each binary keeps only what it calls. */
#ifndef CLRA_COMMON_FNV1A_H
#define CLRA_COMMON_FNV1A_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A_SEED 1469598103934665603ULL

/* Folds len bytes into h (start with FNV1A_SEED; chain calls to hash several fields). */
static inline uint64_t fnv1a(const void *data, size_t len, uint64_t h)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

#endif
