/* options.c - "key=value;key=value" client data, the convention clrattach's --data uses. */
#include "clrprof/clrprof_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int clrprof_option(const void *data, size_t len, const char *key, char *out, size_t cap)
{
    const char *p = data, *end;
    size_t klen = strlen(key);
    if (!p)
        return 0;
    const char *nul = memchr(p, '\0', len);
    end = nul ? nul : p + len;
    while (p < end) {
        const char *semi = memchr(p, ';', (size_t)(end - p));
        const char *item_end = semi ? semi : end;
        const char *eq = memchr(p, '=', (size_t)(item_end - p));
        const char *name_end = eq ? eq : item_end;
        if ((size_t)(name_end - p) == klen && memcmp(p, key, klen) == 0) {
            size_t vlen = eq ? (size_t)(item_end - eq - 1) : 0;
            if (vlen >= cap)
                return -1;
            if (vlen)
                memcpy(out, eq + 1, vlen);
            out[vlen] = '\0';
            return 1;
        }
        p = item_end + 1;
    }
    return 0;
}

int clrprof_option_ulong(const void *data, size_t len, const char *key, unsigned long *out)
{
    char text[32], *stop;
    int rc = clrprof_option(data, len, key, text, sizeof text);
    if (rc != 1)
        return rc;
    errno = 0;
    unsigned long v = strtoul(text, &stop, 0);
    if (errno || stop == text || *stop || text[0] == '-')
        return -1;
    *out = v;
    return 1;
}
