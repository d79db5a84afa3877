/* user_name.h - a user's name for a uid (internal), for ps's USER column and for messages.
 *
 * Two implementations, chosen by the source list (cmake/sources.cmake): user_name_nss.c asks
 * the C library (NSS: LDAP, sssd, ... in the glibc build); user_name_passwd.c reads
 * /etc/passwd itself, for the static musl command, whose getpwuid_r adds only nscd to that and
 * costs 2.8 KB of the container build's 150 KB budget (docs/packaging.md). */
#ifndef CLRA_USER_NAME_H
#define CLRA_USER_NAME_H

#include <stddef.h>
#include <sys/types.h>

/* Writes uid's name to out: 1, or 0 (out untouched) when this system names no such user. */
int clra__user_name(uid_t uid, char *out, size_t cap);

#endif
