/* stage_names.c - recognising stage directories by name and in /proc/PID/maps. */
#include "stage/stage.h"

#include <stdio.h>
#include <string.h>

static int is_alnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

int clra__stage_name_matches(const char *name, int ns_pid)
{
    char prefix[48];
    int n = snprintf(prefix, sizeof prefix, CLRA__STAGE_PREFIX "%d-", ns_pid);
    if (ns_pid <= 0 || strncmp(name, prefix, (size_t)n) != 0)
        return 0;
    name += n;
    for (int i = 0; i < CLRA__STAGE_SUFFIX_LEN; i++)
        if (!is_alnum(name[i]))
            return 0;
    return name[CLRA__STAGE_SUFFIX_LEN] == '\0';
}

int clra__stage_dir_in_path(const char *path, int ns_pid, char *out, size_t cap)
{
    char comp[256];
    for (const char *p = path; *p;) {
        while (*p == '/')
            p++;
        size_t len = strcspn(p, "/");
        if (len > 0 && len < sizeof comp) {
            memcpy(comp, p, len);
            comp[len] = '\0';
            if (clra__stage_name_matches(comp, ns_pid) && len < cap) {
                memcpy(out, comp, len + 1);
                return 1;
            }
        }
        p += len;
    }
    return 0;
}
