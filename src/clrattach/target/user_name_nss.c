/* user_name_nss.c - user names through the C library's getpwuid_r (every NSS source). */
#define _GNU_SOURCE
#include "target/user_name.h"

#include <pwd.h>
#include <stdio.h>

/* Re-entrant lookup: the library may be called from many threads of a host process. */
int clra__user_name(uid_t uid, char *out, size_t cap)
{
    struct passwd pw, *found = NULL;
    char buf[2048];
    if (getpwuid_r(uid, &pw, buf, sizeof buf, &found) != 0 || !found || !found->pw_name[0])
        return 0;
    snprintf(out, cap, "%s", found->pw_name);
    return 1;
}
