/* identity.c - a target's owner, and borrowing its file-system identity (Linux setfsuid). */
#define _GNU_SOURCE
#include "target/identity.h"
#include "target/procfs.h"
#include "target/user_name.h"
#include "util/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <unistd.h>

int clra__process_owner(const char *proc_root, int pid, clra__owner_t *owner)
{
    clra__proc_status_t ps;
    int rc = clra__procfs_status(proc_root, pid, &ps);
    if (rc)
        return rc;
    memcpy(owner->uid, ps.uid, sizeof owner->uid);
    memcpy(owner->gid, ps.gid, sizeof owner->gid);
    return 0;
}

void clra__describe_uid(uid_t uid, char *out, size_t cap)
{
    char name[64];
    if (clra__user_name(uid, name, sizeof name))
        snprintf(out, cap, "uid %u (%s)", (unsigned)uid, name);
    else
        snprintf(out, cap, "uid %u", (unsigned)uid);
}

void clra__sudo_user(uid_t uid, char *out, size_t cap)
{
    char name[64];
    if (clra__user_name(uid, name, sizeof name))
        snprintf(out, cap, "%s", name);
    else
        snprintf(out, cap, "'#%u'", (unsigned)uid);
}

int clra__identity_assume(int pid, clra__identity_t *id, clra_status_t *st)
{
    clra__owner_t owner;
    memset(id, 0, sizeof *id);
    if (geteuid() != 0 || pid <= 0)
        return 0;
    int rc = clra__process_owner(CLRA__PROC, pid, &owner);
    if (rc) {
        clra__detail(st, "cannot read the owner of process %d from /proc/%d/status", pid, pid);
        return rc;
    }
    clra__identity_assume_ids(owner.uid[1], owner.gid[1], id);
    return 0;
}

void clra__identity_assume_ids(uid_t uid, gid_t gid, clra__identity_t *id)
{
    memset(id, 0, sizeof *id);
    if (geteuid() != 0 || uid == 0)
        return;
    /* Group first: once the uid is not 0 the thread may no longer change its group. */
    id->saved_fsgid = (gid_t)setfsgid(gid);
    id->saved_fsuid = (uid_t)setfsuid(uid);
    id->switched = 1;
    /* Without CAP_SETUID (a restricted container's root) the switch silently fails: go on
     * as ourselves, as before this existed, rather than refuse what root may still do. */
    if ((uid_t)setfsuid((uid_t)-1) != uid || (gid_t)setfsgid((gid_t)-1) != gid)
        clra__identity_restore(id);
}

int clra__identity_present_ids(uid_t uid, gid_t gid, clra__identity_t *id)
{
    memset(id, 0, sizeof *id);
    if (geteuid() != 0 || uid == 0)
        return 0;
    /* Group first: once the effective uid is not 0 the thread may no longer change it. The
     * real and saved ids stay 0, which is what lets _restore switch back. */
    id->saved_egid = getegid();
    if (syscall(SYS_setresgid, (gid_t)-1, gid, (gid_t)-1) != 0)
        return 0;
    if (syscall(SYS_setresuid, (uid_t)-1, uid, (uid_t)-1) != 0) {
        syscall(SYS_setresgid, (gid_t)-1, id->saved_egid, (gid_t)-1);
        return 0;
    }
    id->presented = 1;
    return 1;
}

void clra__identity_restore(clra__identity_t *id)
{
    if (id->presented) { /* the uid first: only euid 0 may set the group back */
        syscall(SYS_setresuid, (uid_t)-1, (uid_t)0, (uid_t)-1);
        syscall(SYS_setresgid, (gid_t)-1, id->saved_egid, (gid_t)-1);
        id->presented = 0;
    }
    if (!id->switched)
        return;
    setfsuid(id->saved_fsuid);
    setfsgid(id->saved_fsgid);
    id->switched = 0;
}
