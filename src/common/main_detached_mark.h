/* main_detached_mark.h - the one definition of the mark a libclrprof main profiler leaves in
 * /dev/shm when it detaches, shared by the SDK (src/clrprof/main_detached.c makes, trusts and
 * sweeps marks) and the library (src/clrattach/profiler_mark.c looks for a target's mark, for
 * the command's profile and stack), so the two cannot drift apart.
 *
 * A mark is an empty regular file /dev/shm/clrprof-main-detached.PIDNS.PID.START.RANDOM:
 *   PIDNS  the inode of the process's pid namespace (/proc/self/ns/pid): processes of several
 *          pid namespaces share one /dev/shm, and a pid means something only in its namespace;
 *   PID    the pid as the process sees itself (the last NSpid field seen from outside);
 *   START  field 22 of its /proc/PID/stat, so a reused pid does not inherit the mark;
 *   RANDOM 16 hex digits, so nobody can make the name ours before we do (squat it).
 * A mark is trusted only as a regular file (never a link) owned by the process's effective
 * uid: anyone can write in /dev/shm, so its existence alone proves nothing. The '.' after
 * "detached" keeps the names of the first marks' sweepers (clrprof-main-detached-PID-START,
 * which swept by pid alone) from matching these.
 *
 * Static inline like utf.h: the two libraries are linked separately.
 */
#ifndef CLRA_COMMON_MAIN_DETACHED_MARK_H
#define CLRA_COMMON_MAIN_DETACHED_MARK_H

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "common/shared_names.h" /* MARK__DIR, MARK__PREFIX */

#define MARK__RANDOM_DIGITS 16

/* Which process a mark is for. */
typedef struct mark__id {
    unsigned long long pidns; /* pid namespace inode; 0 when looking: any namespace */
    unsigned long long pid;   /* as the process sees itself */
    unsigned long long start; /* field 22 of /proc/PID/stat, in clock ticks after boot */
} mark__id_t;

/* The inode of the pid namespace behind a /proc/PID/ns/pid link, 0 when unreadable. */
static inline unsigned long long mark__pidns(const char *ns_link)
{
    struct stat sb;
    return stat(ns_link, &sb) == 0 ? (unsigned long long)sb.st_ino : 0;
}

/* The name of a mark for id with the given random part; 0, or -1 when it does not fit. */
static inline int mark__name(char *out, size_t cap, const mark__id_t *id, const char *random)
{
    int n = snprintf(out, cap, MARK__PREFIX "%llu.%llu.%llu.%s", id->pidns, id->pid, id->start,
                     random);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

/* Reads a run of decimal digits ending in end; NULL when there is none or it overflows. */
static inline const char *mark__number(const char *p, char end, unsigned long long *v)
{
    const char *first = p;
    for (*v = 0; *p >= '0' && *p <= '9'; p++) {
        if (*v > (~0ULL - 9) / 10)
            return NULL;
        *v = *v * 10 + (unsigned long long)(*p - '0');
    }
    return p > first && *p == end ? p + 1 : NULL;
}

/* Parses a directory entry's name as a mark's: 0 with id filled, -1 when it is not one. */
static inline int mark__parse(const char *name, mark__id_t *id)
{
    const char *p = strncmp(name, MARK__PREFIX, sizeof MARK__PREFIX - 1) == 0
                        ? name + sizeof MARK__PREFIX - 1 : NULL;
    p = p ? mark__number(p, '.', &id->pidns) : NULL;
    p = p ? mark__number(p, '.', &id->pid) : NULL;
    p = p ? mark__number(p, '.', &id->start) : NULL;
    if (!p || strlen(p) != MARK__RANDOM_DIGITS)
        return -1;
    return strspn(p, "0123456789abcdef") == MARK__RANDOM_DIGITS ? 0 : -1;
}

/* Whether name in dir_fd is a mark one may believe: a regular file, not a link (not
 * followed), owned by owner. Never opens it, so a planted fifo cannot block the caller. */
static inline int mark__trusted(int dir_fd, const char *name, uid_t owner)
{
    struct stat sb;
    return fstatat(dir_fd, name, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(sb.st_mode) &&
           sb.st_uid == owner;
}

/* Whether dir (a /dev/shm) holds a trusted mark for want (any namespace when want->pidns is
 * 0) owned by owner: 1 yes, 0 no, -1 when dir cannot be read. */
static inline int mark__find(const char *dir, const mark__id_t *want, uid_t owner)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    mark__id_t id;
    int found = 0;
    if (!d)
        return -1;
    while (!found && (e = readdir(d)) != NULL)
        found = mark__parse(e->d_name, &id) == 0 && id.pid == want->pid &&
                id.start == want->start && (!want->pidns || id.pidns == want->pidns) &&
                mark__trusted(dirfd(d), e->d_name, owner);
    closedir(d);
    return found;
}

#endif
