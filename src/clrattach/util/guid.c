/* guid.c - GUIDs as text: the registry form the runtime and every profiler document use. */
#include "clrattach.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

/* Reads exactly n hex digits; -1 on anything else. */
static long long hex_field(const char *s, int n)
{
    long long v = 0;
    for (int i = 0; i < n; i++) {
        if (!isxdigit((unsigned char)s[i]))
            return -1;
        v = v * 16 + (isdigit((unsigned char)s[i]) ? s[i] - '0' : (tolower((unsigned char)s[i]) - 'a' + 10));
    }
    return v;
}

int clra_guid_parse(const char *text, clra_guid_t *out)
{
    static const int widths[] = {8, 4, 4, 4, 12};
    long long f[3];
    if (!text || !out)
        return CLRA_EINVAL;
    size_t len = strlen(text);
    int braces = len == 38 && text[0] == '{' && text[37] == '}';
    if (len != 36 && !braces)
        return CLRA_EINVAL;
    const char *p = text + braces;
    for (int i = 0; i < 5; i++) {
        if (i > 0 && *p++ != '-')
            return CLRA_EINVAL;
        if (i < 3 && (f[i] = hex_field(p, widths[i])) < 0)
            return CLRA_EINVAL;
        if (i == 3 || i == 4) {
            int first = i == 3 ? 0 : 2;
            for (int k = 0; k < widths[i] / 2; k++) {
                long long b = hex_field(p + 2 * k, 2);
                if (b < 0)
                    return CLRA_EINVAL;
                out->data4[first + k] = (uint8_t)b;
            }
        }
        p += widths[i];
    }
    out->data1 = (uint32_t)f[0];
    out->data2 = (uint16_t)f[1];
    out->data3 = (uint16_t)f[2];
    return 0;
}

void clra_guid_format(const clra_guid_t *g, char out[37])
{
    snprintf(out, 37, "%08X-%04X-%04X-%02X%02X-%02X%02X%02X%02X%02X%02X", (unsigned)g->data1,
             (unsigned)g->data2, (unsigned)g->data3, g->data4[0], g->data4[1], g->data4[2],
             g->data4[3], g->data4[4], g->data4[5], g->data4[6], g->data4[7]);
}
