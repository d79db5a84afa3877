/* utf.h - the one UTF-8 <-> UTF-16 implementation, shared by libclrattach (wire strings) and
 * libclrprof (WCHAR strings from the runtime).
 *
 * Static inline on purpose: the two libraries are linked separately (a profiler must not pull
 * in the trigger), and a program that links both statically must not see duplicate symbols.
 */
#ifndef CLRA_COMMON_UTF_H
#define CLRA_COMMON_UTF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Decodes one UTF-8 sequence at s[*i] (n bytes in all); returns the code point, or -1 for an
 * overlong form, an encoded surrogate, a value above U+10FFFF or a truncated sequence. */
static inline long utf__decode_utf8(const unsigned char *s, size_t n, size_t *i)
{
    static const long mins[] = {0, 0x80, 0x800, 0x10000};
    unsigned char c = s[*i];
    int extra = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (extra < 0 || (size_t)extra >= n - *i)
        return -1;
    long cp = extra ? c & (0x3F >> extra) : c;
    for (int k = 1; k <= extra; k++) {
        if ((s[*i + k] & 0xC0) != 0x80)
            return -1;
        cp = (cp << 6) | (s[*i + k] & 0x3F);
    }
    if (cp < mins[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    *i += (size_t)extra + 1;
    return cp;
}

/* UTF-8 -> UTF-16 units. Returns the number of units (no terminator), or -1 for malformed
 * input; units beyond out_cap are counted but not written (out may be NULL to count). */
static inline long utf__utf8_to_utf16(const char *str, size_t n, uint16_t *out, size_t out_cap)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0, units = 0;
    while (i < n) {
        long cp = utf__decode_utf8(s, n, &i);
        if (cp < 0)
            return -1;
        size_t need = cp >= 0x10000 ? 2 : 1;
        if (out && units + need <= out_cap) {
            if (need == 2) {
                out[units] = (uint16_t)(0xD800 + ((cp - 0x10000) >> 10));
                out[units + 1] = (uint16_t)(0xDC00 + ((cp - 0x10000) & 0x3FF));
            } else {
                out[units] = (uint16_t)cp;
            }
        }
        units += need;
    }
    return (long)units;
}

/* Encodes one code point; returns its length, writing it only if it fits before a NUL. */
static inline size_t utf__encode_utf8(uint32_t cp, char *out, size_t pos, size_t cap)
{
    static const unsigned char lead[] = {0, 0, 0xC0, 0xE0, 0xF0};
    unsigned char b[4];
    size_t n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    for (size_t k = n - 1; k > 0; k--) {
        b[k] = (unsigned char)(0x80 | (cp & 0x3F));
        cp >>= 6;
    }
    b[0] = (unsigned char)(lead[n] | cp);
    if (out && pos + n < cap)
        memcpy(out + pos, b, n);
    return n;
}

/* UTF-16 units -> UTF-8, never splitting a character, lone surrogates as U+FFFD. Returns bytes
 * written (counted when out is NULL); always NUL-terminates when out_cap > 0. */
static inline size_t utf__utf16_to_utf8(const uint16_t *s, size_t n, char *out, size_t out_cap)
{
    size_t pos = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t cp = s[i];
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < n && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF)
            cp = 0x10000 + ((cp - 0xD800) << 10) + (uint32_t)(s[++i] - 0xDC00);
        else if (cp >= 0xD800 && cp <= 0xDFFF)
            cp = 0xFFFD;
        size_t len = utf__encode_utf8(cp, out, pos, out_cap);
        if (out && pos + len >= out_cap)
            break;
        pos += len;
    }
    if (out && out_cap > 0)
        out[pos] = '\0';
    return pos;
}

#endif
