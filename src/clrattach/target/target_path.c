/* target_path.c - where a file named by the target (dump, startup hook, profiler) is found
 * from here: the target may live in another mount namespace (a container) or a chroot. */
#include "target/procfs.h"

#include <stdio.h>

int clra_target_path_resolve(int pid, const char *target_path, char *out, size_t cap, int *other_ns)
{
    char root[CLRA_PATH_MAX];
    *other_ns = 0;
    if (!target_path || target_path[0] != '/' || pid <= 0 || cap == 0)
        return CLRA_EINVAL;
    if (!clra__procfs_exists(CLRA__PROC, pid))
        return CLRA_ENOPROC;
    *other_ns = clra__procfs_other_tree(CLRA__PROC, pid, root, sizeof root);
    int n = snprintf(out, cap, "%s%s", root, target_path);
    return n >= 0 && (size_t)n < cap ? 0 : CLRA_EINVAL;
}
