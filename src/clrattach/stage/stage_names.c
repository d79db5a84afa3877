/* stage_names.c - recognising stage directories by name and in /proc/PID/maps. */
#include "stage/stage.h"

#include <stdio.h>
#include <string.h>

static int is_alnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

void clra__stage_owner(char out[CLRA__STAGE_OWNER_MAX], int ns_pid, long long key)
{
    snprintf(out, CLRA__STAGE_OWNER_MAX, "%d-%lld", ns_pid, key < 0 ? 0 : key);
}

int clra__stage_name_matches(const char *name, const char *owner)
{
    char prefix[64];
    int n = snprintf(prefix, sizeof prefix, CLRA__STAGE_PREFIX "%s-", owner);
    if (owner[0] < '1' || owner[0] > '9' || n <= 0 || (size_t)n >= sizeof prefix ||
        strncmp(name, prefix, (size_t)n) != 0)
        return 0;
    name += n;
    for (int i = 0; i < CLRA__STAGE_SUFFIX_LEN; i++)
        if (!is_alnum(name[i]))
            return 0;
    return name[CLRA__STAGE_SUFFIX_LEN] == '\0';
}

int clra__stage_dir_in_path(const char *path, const char *owner, char *out, size_t cap)
{
    char comp[256];
    for (const char *p = path; *p;) {
        while (*p == '/')
            p++;
        size_t len = strcspn(p, "/");
        if (len > 0 && len < sizeof comp) {
            memcpy(comp, p, len);
            comp[len] = '\0';
            if (clra__stage_name_matches(comp, owner) && len < cap) {
                memcpy(out, comp, len + 1);
                return 1;
            }
        }
        p += len;
    }
    return 0;
}
