/* text.c - UTF-16 <-> UTF-8 for profilers (WCHAR is 2 bytes on Linux; wchar_t is not). */
#include "clrprof/clrprof_util.h"
#include "common/utf.h"

size_t clrprof_utf16_to_utf8(const WCHAR *s, size_t n, char *out, size_t cap)
{
    size_t len = 0;
    while (s && len < n && s[len]) /* runtime buffers may carry their NUL inside n */
        len++;
    if (!out || cap == 0)
        return 0;
    return utf__utf16_to_utf8(s, len, out, cap);
}

long clrprof_utf8_to_utf16(const char *s, WCHAR *out, size_t cap)
{
    size_t n = strlen(s);
    long units = utf__utf8_to_utf16(s, n, NULL, 0);
    if (units < 0 || (size_t)units + 1 > cap)
        return -1;
    utf__utf8_to_utf16(s, n, out, cap);
    out[units] = 0;
    return units;
}

size_t clrprof_hex(const void *data, size_t len, char *out, size_t cap)
{
    static const char digits[] = "0123456789abcdef";
    const unsigned char *b = data;
    size_t i = 0;
    if (!out || cap == 0)
        return 0;
    for (; i < len && 2 * i + 2 < cap; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * i] = '\0';
    return i;
}

int clrprof_printable(const void *data, size_t len)
{
    const unsigned char *b = data;
    for (size_t i = 0; i < len; i++)
        if (b[i] < 0x20 || b[i] >= 0x7F)
            return 0;
    return 1;
}
