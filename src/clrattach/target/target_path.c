/* target_path.c - where a file named by the target (dump, startup hook, profiler) is found
 * from here: the target may live in another mount namespace (a container) or a chroot. */
#define _GNU_SOURCE
#include "clrattach.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads a /proc symlink; -1 with errno when it cannot be read. */
static int read_link(const char *path, char *out, size_t cap)
{
    ssize_t n = readlink(path, out, cap - 1);
    if (n < 0)
        return -1;
    out[n] = '\0';
    return 0;
}

/* Whether pid sees a different file tree than we do: another mount namespace, or a root
 * other than "/" (chroot). Unreadable links (no ptrace access) count as "the same", since
 * /proc/PID/root would be unreadable too. */
static int sees_other_tree(int pid)
{
    char path[64], ours[128], theirs[128];
    snprintf(path, sizeof path, "/proc/%d/ns/mnt", pid);
    if (read_link("/proc/self/ns/mnt", ours, sizeof ours) == 0 &&
        read_link(path, theirs, sizeof theirs) == 0 && strcmp(ours, theirs) != 0)
        return 1;
    snprintf(path, sizeof path, "/proc/%d/root", pid);
    return read_link(path, theirs, sizeof theirs) == 0 && strcmp(theirs, "/") != 0;
}

int clra_target_path_resolve(int pid, const char *target_path, char *out, size_t cap, int *other_ns)
{
    char proc[64];
    struct stat sb;
    *other_ns = 0;
    if (!target_path || target_path[0] != '/' || pid <= 0 || cap == 0)
        return CLRA_EINVAL;
    snprintf(proc, sizeof proc, "/proc/%d", pid);
    if (stat(proc, &sb) != 0)
        return CLRA_ENOPROC;
    *other_ns = sees_other_tree(pid);
    int n = *other_ns ? snprintf(out, cap, "/proc/%d/root%s", pid, target_path)
                      : snprintf(out, cap, "%s", target_path);
    return n >= 0 && (size_t)n < cap ? 0 : CLRA_EINVAL;
}
