/* dump_hint_unix.c - dump's last hint on Linux (base/platform.h); a file of its own, so a
 * command built without dump leaves its text out. */
#include "base/platform.h"

#include <stdio.h>

/* createdump runs as the target's user, in its mount namespace. */
void cli_platform_dump_hint(char *out, size_t cap, const char *dir, int owner, int other)
{
    snprintf(out, cap, "make sure %s is writable by the target's user (uid %d): createdump "
             "runs as that user%s; --log shows its progress on the target's stdout", dir, owner,
             other ? ", inside the target's mount namespace" : "");
}
