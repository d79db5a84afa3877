/* identity.h - who owns a target, and acting as that owner for file-system access (internal).
 *
 * Root attaching to another user's process connects and creates files as that user, so the
 * kernel checks permissions as the owner would and nothing is left behind owned by root. */
#ifndef CLRA_IDENTITY_H
#define CLRA_IDENTITY_H

#include "clrattach.h"

#include <stddef.h>
#include <sys/types.h>

/* The ids of a process as /proc/PID/status states them (mapped into our user namespace). */
typedef struct clra__owner {
    uid_t uid[4]; /* real, effective, saved, file-system */
    gid_t gid[4];
} clra__owner_t;

/* Reads pid's ids below proc_root ("/proc"). 0, CLRA_ENOPROC, or CLRA_EPROTO (unparsable). */
int clra__process_owner(const char *proc_root, int pid, clra__owner_t *owner);

/* "uid 1000 (alice)", or "uid 1000" when the user has no name here. */
void clra__describe_uid(uid_t uid, char *out, size_t cap);
/* The argument sudo -u takes for uid: its name, or '#1000'. */
void clra__sudo_user(uid_t uid, char *out, size_t cap);

/* What clra__identity_assume changed, for clra__identity_restore. */
typedef struct clra__identity {
    int switched;  /* the file-system ids were changed (assume) */
    int presented; /* the effective ids were changed (present) */
    uid_t saved_fsuid;
    gid_t saved_fsgid;
    gid_t saved_egid;
} clra__identity_t;

/* When we are root and pid runs as another user, this thread's file-system uid and gid become
 * that user's (setfsuid is per thread, so a caller's other threads are unaffected); otherwise,
 * or when the kernel refuses the switch, nothing changes. 0, or the failure reading the owner.
 * Always pair with _restore. */
int clra__identity_assume(int pid, clra__identity_t *id, clra_status_t *st);
/* The same for explicit ids (a file's owner); nothing changes unless we are root and uid is not. */
void clra__identity_assume_ids(uid_t uid, gid_t gid, clra__identity_t *id);
/* When we are root and uid is not: this thread's effective uid and gid become uid and gid, so a
 * listener that reads SO_PEERCRED (a libclrprof control endpoint) sees the owner it compares
 * with, even from inside a user namespace where our uid 0 has no mapping and would show as the
 * overflow uid. Only this thread changes (raw syscalls; glibc's wrappers change every thread).
 * 1 switched, 0 nothing changed (not root, uid 0, or no CAP_SETUID/CAP_SETGID). Always pair
 * with _restore. */
int clra__identity_present_ids(uid_t uid, gid_t gid, clra__identity_t *id);
void clra__identity_restore(clra__identity_t *id);

#endif
