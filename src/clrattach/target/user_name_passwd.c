/* user_name_passwd.c - user names read from /etc/passwd by hand (the static command). */
#define _GNU_SOURCE
#include "target/user_name.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* name:password:uid:...: the uid of one line, or -1 when the line is not of that shape. */
static long long line_uid(const char *line, size_t *name_len)
{
    const char *colon = strchr(line, ':');
    const char *uid = colon ? strchr(colon + 1, ':') : NULL;
    if (!uid || colon == line || uid[1] < '0' || uid[1] > '9')
        return -1;
    char *end;
    unsigned long long v = strtoull(uid + 1, &end, 10);
    *name_len = (size_t)(colon - line);
    return *end == ':' && v <= 0xffffffffULL ? (long long)v : -1;
}

/* A plain scan: in a container /etc/passwd is the whole user database (musl's static
 * getpwuid_r would add only an nscd query, and no container we target runs nscd). */
int clra__user_name(uid_t uid, char *out, size_t cap)
{
    char line[1024];
    size_t len = 0;
    int found = 0, at_start = 1; /* the rest of a line over 1 KB is not a line */
    FILE *f = fopen("/etc/passwd", "re");
    while (f && !found && fgets(line, sizeof line, f)) {
        if (at_start && line_uid(line, &len) == (long long)uid && len > 0) {
            snprintf(out, cap, "%.*s", (int)len, line);
            found = 1;
        }
        at_start = strchr(line, '\n') != NULL;
    }
    if (f)
        fclose(f);
    return found;
}
