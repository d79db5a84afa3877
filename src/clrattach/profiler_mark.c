/* profiler_mark.c - whether a libclrprof main profiler has detached from a process: the mark the
 * SDK leaves in the target's /dev/shm (src/common/main_detached_mark.h defines it for both). The
 * command asks here rather than reading /proc itself: procfs is the library's one reader. */
#define _GNU_SOURCE
#include "clrattach.h"
#include "common/main_detached_mark.h"
#include "target/procfs.h"

/* The target's mark is looked for in its own /dev/shm (through /proc/PID/root), named as the
 * target names it: its pid namespace, the pid it sees itself as, its start time; and believed
 * only when owned by its effective uid. Without the namespace link (no ptrace access) a mark
 * of any namespace with that pid and start time counts: a wrong "detached" is safe for the
 * callers (they refuse), a wrong "not" is not. */
int clra_profiler_main_detached(int pid)
{
    char ns_link[CLRA_PATH_MAX], shm[CLRA_PATH_MAX];
    clra__proc_status_t status;
    long long start = clra__procfs_start_time(CLRA__PROC, pid);
    if (start < 0 || clra__procfs_status(CLRA__PROC, pid, &status) != 0 || !status.have_uid)
        return CLRA_ENOPROC;
    if (status.ns_pid <= 0)
        status.ns_pid = pid;
    if (clra__procfs_path(CLRA__PROC, pid, "ns/pid", ns_link, sizeof ns_link) != 0 ||
        clra__procfs_path(CLRA__PROC, pid, "root" MARK__DIR, shm, sizeof shm) != 0)
        return CLRA_ENOPROC;
    mark__id_t target = {mark__pidns(ns_link), (unsigned long long)status.ns_pid,
                         (unsigned long long)start};
    return mark__find(shm, &target, status.uid[1]) == 1;
}
