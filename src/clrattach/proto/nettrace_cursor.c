/* nettrace_cursor.c - bounded little-endian reads inside one NetTrace block, and UTF-16 text.
 *
 * Every read checks the bytes left first; the first shortfall records what was being read and
 * where, so a block that lies about its contents is reported with the offset of the lie.
 */
#include "proto/nettrace_internal.h"
#include "common/le_bytes.h"

#include <stdlib.h>
#include <string.h>

/* Checks n bytes are left; on a shortfall remembers what and where (first failure wins). */
static const uint8_t *take(clra__ntcur_t *c, size_t n, const char *what)
{
    if (c->want)
        return NULL;
    if (c->end - c->pos < n) {
        c->want = what;
        c->want_at = c->pos;
        return NULL;
    }
    const uint8_t *p = c->p + c->pos;
    c->pos += n;
    return p;
}

uint8_t clra__nt_u8(clra__ntcur_t *c, const char *what)
{
    const uint8_t *p = take(c, 1, what);
    return p ? p[0] : 0;
}

uint16_t clra__nt_u16(clra__ntcur_t *c, const char *what)
{
    const uint8_t *p = take(c, 2, what);
    return p ? le__u16(p) : 0;
}

uint32_t clra__nt_u32(clra__ntcur_t *c, const char *what)
{
    const uint8_t *p = take(c, 4, what);
    return p ? le__u32(p) : 0;
}

uint64_t clra__nt_u64(clra__ntcur_t *c, const char *what)
{
    uint64_t lo = clra__nt_u32(c, what);
    return lo | (uint64_t)clra__nt_u32(c, what) << 32;
}

uint64_t clra__nt_varint(clra__ntcur_t *c, int max_bytes, const char *what)
{
    uint64_t v = 0;
    for (int i = 0; i < max_bytes; i++) {
        const uint8_t *p = take(c, 1, what);
        if (!p)
            return 0;
        v |= (uint64_t)(*p & 0x7F) << (7 * i);
        if (!(*p & 0x80))
            return v;
    }
    if (!c->want) {
        c->want = what;
        c->want_at = c->pos - (size_t)max_bytes;
    }
    return 0;
}

const uint8_t *clra__nt_bytes(clra__ntcur_t *c, size_t n, const char *what)
{
    return take(c, n, what);
}

size_t clra__nt_utf16_to_utf8(const uint8_t *units, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t u = le__u16(units + 2 * i);
        if (u >= 0xD800 && u < 0xDC00 && i + 1 < n) {
            uint32_t lo = le__u16(units + 2 * i + 2);
            if (lo >= 0xDC00 && lo < 0xE000) {
                u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
                i++;
            }
        }
        if (u >= 0xD800 && u < 0xE000)
            u = 0xFFFD;
        if (u < 0x80) {
            out[o++] = (char)u;
        } else if (u < 0x800) {
            out[o++] = (char)(0xC0 | u >> 6);
            out[o++] = (char)(0x80 | (u & 0x3F));
        } else if (u < 0x10000) {
            out[o++] = (char)(0xE0 | u >> 12);
            out[o++] = (char)(0x80 | (u >> 6 & 0x3F));
            out[o++] = (char)(0x80 | (u & 0x3F));
        } else {
            out[o++] = (char)(0xF0 | u >> 18);
            out[o++] = (char)(0x80 | (u >> 12 & 0x3F));
            out[o++] = (char)(0x80 | (u >> 6 & 0x3F));
            out[o++] = (char)(0x80 | (u & 0x3F));
        }
    }
    out[o] = '\0';
    return o;
}

char *clra__nt_utf16z(clra__ntcur_t *c, const char *what)
{
    size_t start = c->pos, n = 0;
    for (;;) {
        const uint8_t *u = take(c, 2, what);
        if (!u)
            return NULL;
        if (!u[0] && !u[1])
            break;
        n++;
    }
    char *s = malloc(3 * n + 1);
    if (s)
        clra__nt_utf16_to_utf8(c->p + start, n, s);
    return s;
}
