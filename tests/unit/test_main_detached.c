/* test_main_detached.c - the SDK's mark that a main profiler detached from this process
 * (src/clrprof/main_detached.c): made for this process, seen afterwards, and the marks of
 * processes that are gone removed when a new mark is made. */
#define _GNU_SOURCE
#include "test.h"

#include "profiler_internal.h"

#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* Leaves an empty file /dev/shm/NAME. */
static void touch_shm(const char *name)
{
    char path[160];
    snprintf(path, sizeof path, "/dev/shm/%s", name);
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    ASSERT_MSG(fd >= 0, "cannot create %s", path);
    close(fd);
}

static int shm_exists(const char *name)
{
    char path[160];
    struct stat sb;
    snprintf(path, sizeof path, "/dev/shm/%s", name);
    return stat(path, &sb) == 0;
}

TEST(main_detached_mark_is_made_for_this_process_and_sweeps_those_of_gone_processes)
{
    char gone[96], reused[96], own[96];
    glob_t g;
    /* pid 4194305 is above pid_max's ceiling: never a live process. */
    snprintf(gone, sizeof gone, "clrprof-main-detached-4194305-77");
    /* our own pid with another start time: an earlier process that had this pid */
    snprintf(reused, sizeof reused, "clrprof-main-detached-%d-1", (int)getpid());
    touch_shm(gone);
    touch_shm(reused);
    ASSERT(!clrprof__main_has_detached());
    clrprof__mark_main_detached();
    ASSERT(clrprof__main_has_detached());
    ASSERT_MSG(!shm_exists(gone), "the mark of a process that is gone was kept");
    ASSERT_MSG(!shm_exists(reused), "the mark of an earlier process with our pid was kept");
    snprintf(own, sizeof own, "/dev/shm/clrprof-main-detached-%d-*", (int)getpid());
    ASSERT(glob(own, 0, NULL, &g) == 0 && g.gl_pathc == 1);
    unlink(g.gl_pathv[0]);
    globfree(&g);
    ASSERT(!clrprof__main_has_detached());
}
