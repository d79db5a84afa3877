/* le_bytes.h - the one reader of little-endian integers from byte buffers: the diagnostics
 * protocol, NetTrace, the dump reply and PE/ECMA-335 metadata are all little-endian, and their
 * fields may sit at any alignment, so values are assembled byte by byte (compilers turn each
 * into one load on a little-endian machine). Callers check the length first: these read
 * exactly 2, 4, 8 or n bytes at p.
 *
 * Static inline like utf.h: the decoders are hot (a NetTrace walk reads every field).
 */
#ifndef CLRA_COMMON_LE_BYTES_H
#define CLRA_COMMON_LE_BYTES_H

#include <stddef.h>
#include <stdint.h>

static inline uint16_t le__u16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t le__u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t le__u64(const uint8_t *p)
{
    return le__u32(p) | (uint64_t)le__u32(p + 4) << 32;
}

/* The first n bytes (n <= 8) as an unsigned value, for fields whose width is data. */
static inline uint64_t le__uint(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

#endif
