/* text.c - UTF-16 <-> UTF-8 for profilers (WCHAR is 2 bytes on Linux; wchar_t is not). */
#include "clrprof/clrprof_util.h"

#include <string.h>

/* Encodes one code point; returns its length, writing it only if it fits before the NUL. */
static size_t put_utf8(unsigned long cp, char *out, size_t pos, size_t cap)
{
    unsigned char b[4];
    size_t n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    static const unsigned char lead[] = {0, 0, 0xC0, 0xE0, 0xF0};
    for (size_t i = n - 1; i > 0; i--) {
        b[i] = (unsigned char)(0x80 | (cp & 0x3F));
        cp >>= 6;
    }
    b[0] = (unsigned char)(lead[n] | cp);
    if (pos + n < cap)
        memcpy(out + pos, b, n);
    return n;
}

size_t clrprof_utf16_to_utf8(const WCHAR *s, size_t n, char *out, size_t cap)
{
    size_t pos = 0;
    for (size_t i = 0; s && i < n && s[i]; i++) {
        unsigned long cp = s[i];
        if (cp >= 0xD800 && cp <= 0xDBFF && i + 1 < n && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF)
            cp = 0x10000 + ((cp - 0xD800) << 10) + (s[++i] - 0xDC00);
        else if (cp >= 0xD800 && cp <= 0xDFFF)
            cp = 0xFFFD;
        size_t len = put_utf8(cp, out, pos, cap);
        if (pos + len >= cap)
            break;
        pos += len;
    }
    if (cap > 0)
        out[pos] = '\0';
    return pos;
}

/* Decodes one UTF-8 sequence, rejecting overlong forms, surrogates and values past U+10FFFF. */
static long get_utf8(const unsigned char *s, size_t *i)
{
    unsigned char c = s[*i];
    int extra = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    static const long mins[] = {0, 0x80, 0x800, 0x10000};
    if (extra < 0)
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

long clrprof_utf8_to_utf16(const char *str, WCHAR *out, size_t cap)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0, n = 0;
    while (s[i]) {
        long cp = get_utf8(s, &i);
        size_t need = cp >= 0x10000 ? 2 : 1;
        if (cp < 0 || n + need + 1 > cap)
            return -1;
        if (need == 2) {
            out[n++] = (WCHAR)(0xD800 + ((cp - 0x10000) >> 10));
            out[n++] = (WCHAR)(0xDC00 + ((cp - 0x10000) & 0x3FF));
        } else {
            out[n++] = (WCHAR)cp;
        }
    }
    if (cap == 0)
        return -1;
    out[n] = 0;
    return (long)n;
}
