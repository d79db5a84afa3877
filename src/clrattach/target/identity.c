/* identity.c - a target's owner, and borrowing its file-system identity (Linux setfsuid). */
#define _GNU_SOURCE
#include "target/identity.h"
#include "target/endpoint.h"
#include "ipc/transport.h"

#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <unistd.h>

/* Parses the four ids after "label" in a status text ("Uid:\t0\t0\t0\t0"). */
static int parse_ids(const char *text, const char *label, unsigned out[4])
{
    const char *p = strstr(text, label);
    if (!p || (p != text && p[-1] != '\n'))
        return -1;
    p += strlen(label);
    for (int i = 0; i < 4; i++) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || v > 0xFFFFFFFFul)
            return -1;
        out[i] = (unsigned)v;
        p = end;
    }
    return 0;
}

int clra__process_owner(const char *proc_root, int pid, clra__owner_t *owner)
{
    char path[128], text[4096];
    unsigned u[4], g[4];
    snprintf(path, sizeof path, "%s/%d/status", proc_root, pid);
    if (clra__read_small_file(path, text, sizeof text) <= 0)
        return CLRA_ENOPROC;
    if (parse_ids(text, "Uid:", u) != 0 || parse_ids(text, "Gid:", g) != 0)
        return CLRA_EPROTO;
    for (int i = 0; i < 4; i++) {
        owner->uid[i] = (uid_t)u[i];
        owner->gid[i] = (gid_t)g[i];
    }
    return 0;
}

/* The user's name, when this system knows it. */
static int uid_name(uid_t uid, char *out, size_t cap)
{
    struct passwd pw, *found = NULL;
    char buf[1024];
    if (getpwuid_r(uid, &pw, buf, sizeof buf, &found) != 0 || !found || !found->pw_name[0])
        return 0;
    snprintf(out, cap, "%s", found->pw_name);
    return 1;
}

void clra__describe_uid(uid_t uid, char *out, size_t cap)
{
    char name[64];
    if (uid_name(uid, name, sizeof name))
        snprintf(out, cap, "uid %u (%s)", (unsigned)uid, name);
    else
        snprintf(out, cap, "uid %u", (unsigned)uid);
}

void clra__sudo_user(uid_t uid, char *out, size_t cap)
{
    char name[64];
    if (uid_name(uid, name, sizeof name))
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
    int rc = clra__process_owner("/proc", pid, &owner);
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

void clra__identity_restore(clra__identity_t *id)
{
    if (!id->switched)
        return;
    setfsuid(id->saved_fsuid);
    setfsgid(id->saved_fsgid);
    id->switched = 0;
}
