/* target_root_win.c - files named to a target, on Windows: the twin of target_root.c and
 * target_path.c. Windows has no mount namespaces or chroots, so a path means the same file to
 * the target and to us; there is nothing to check before the runtime's own answer. */
#include "target/process_win.h"
#include "target/target_root.h"

#include <stdio.h>

int clra__target_file_check(int pid, const char *profiler_path, clra_status_t *st)
{
    (void)pid;
    (void)profiler_path;
    (void)st;
    return 0;
}

int clra_target_path_resolve(int pid, const char *target_path, char *out, size_t cap, int *other_ns)
{
    *other_ns = 0;
    if (!target_path || !target_path[0] || pid <= 0 || cap == 0)
        return CLRA_EINVAL;
    if (!clra__win_process_exists(pid))
        return CLRA_ENOPROC;
    int n = snprintf(out, cap, "%s", target_path);
    return n >= 0 && (size_t)n < cap ? 0 : CLRA_EINVAL;
}
