/* test_main_detached.c - the SDK's mark that a main profiler detached from this process
 * (src/clrprof/main_detached.c, named in src/common/main_detached_mark.h): made for this
 * process and seen afterwards; sweeps remove only marks of gone processes of our own pid
 * namespace; planted links and other users' files are never followed nor believed (issue 29). */
#define _GNU_SOURCE
#include "test.h"

#include "common/main_detached_mark.h"
#include "profiler_internal.h"
#include "target/procfs.h"

#include <errno.h>
#include <glob.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/wait.h>

#define PLANTED "00000000c1a0c1a0"

/* Our mark's identity as the command computes it from outside (procfs.c's readers). */
static mark__id_t own_id(void)
{
    mark__id_t id = {mark__pidns("/proc/self/ns/pid"), (unsigned long long)getpid(),
                     (unsigned long long)clra__procfs_start_time(CLRA__PROC, getpid())};
    ASSERT(id.pidns != 0 && id.start > 0);
    return id;
}

/* /dev/shm/<the name of a mark for id with this random part>. */
static const char *shm_path(const mark__id_t *id, const char *random)
{
    static char path[4][192];
    static int next;
    char name[160];
    ASSERT(mark__name(name, sizeof name, id, random) == 0);
    next = (next + 1) % 4;
    snprintf(path[next], sizeof path[next], MARK__DIR "/%s", name);
    return path[next];
}

static void touch(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    ASSERT_MSG(fd >= 0, "cannot create %s: %s", path, strerror(errno));
    close(fd);
}

static int exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

/* Removes every mark of this process (any random part), so tests leave nothing behind. */
static void remove_own_marks(void)
{
    glob_t g;
    mark__id_t own = own_id();
    if (glob(shm_path(&own, "*"), 0, NULL, &g) != 0)
        return;
    for (size_t i = 0; i < g.gl_pathc; i++)
        unlink(g.gl_pathv[i]);
    globfree(&g);
}

TEST(main_detached_mark_is_made_for_this_process_and_sweeps_those_of_gone_processes)
{
    mark__id_t own = own_id();
    /* pid 4194305 is above pid_max's ceiling: never a live process. */
    mark__id_t gone = {own.pidns, 4194305, 77}, reused = {own.pidns, own.pid, 1};
    const char *gone_path = shm_path(&gone, "0123456789abcdef");
    const char *reused_path = shm_path(&reused, "0123456789abcdef");
    touch(gone_path);
    touch(reused_path); /* an earlier process that had our pid */
    remove_own_marks();
    ASSERT(!clrprof__main_has_detached());
    ASSERT(clrprof__mark_main_detached() == NULL);
    ASSERT(clrprof__main_has_detached());
    ASSERT_MSG(!exists(gone_path), "the mark of a process that is gone was kept");
    ASSERT_MSG(!exists(reused_path), "the mark of an earlier process with our pid was kept");
    ASSERT(clrprof__mark_main_detached() == NULL); /* a second detach: still one mark */
    glob_t g;
    ASSERT(glob(shm_path(&own, "*"), 0, NULL, &g) == 0 && g.gl_pathc == 1);
    globfree(&g);
    remove_own_marks();
    ASSERT(!clrprof__main_has_detached());
}

TEST(main_detached_sweep_leaves_the_marks_of_another_pid_namespace_alone)
{
    mark__id_t own = own_id();
    /* Another namespace's pid 4194306 cannot be checked from here, even if no such pid is
     * alive here, so its mark must stay. */
    mark__id_t foreign = {own.pidns + 1, 4194306, 78};
    const char *path = shm_path(&foreign, "0123456789abcdef");
    touch(path);
    ASSERT(clrprof__mark_main_detached() == NULL);
    int kept = exists(path);
    unlink(path);
    remove_own_marks();
    ASSERT_MSG(kept, "a sweep removed the mark of a process in another pid namespace");
}

TEST(main_detached_mark_is_never_made_through_a_planted_link)
{
    char victim[96];
    mark__id_t own = own_id();
    const char *planted = shm_path(&own, PLANTED);
    snprintf(victim, sizeof victim, "/tmp/clra-mark-victim-%d", (int)getpid());
    unlink(victim);
    remove_own_marks();
    ASSERT(symlink(victim, planted) == 0);
    ASSERT_MSG(!clrprof__main_has_detached(), "a link was believed as a mark");
    /* The name is tried first, as if the planter had guessed our random part. */
    const char *why = clrprof__mark_main_detached_with(PLANTED);
    int followed = exists(victim), marked = clrprof__main_has_detached();
    unlink(victim);
    unlink(planted);
    remove_own_marks();
    ASSERT_MSG(!followed, "making the mark followed a planted link to %s", victim);
    ASSERT_MSG(why == NULL && marked, "a planted link kept the real mark from being made: %s",
               why ? why : "no reason given");
}

TEST(main_detached_mark_owned_by_another_user_is_not_believed)
{
    if (geteuid() != 0)
        SKIP("needs root to give a file to nobody (uid 65534)");
    mark__id_t own = own_id();
    const char *planted = shm_path(&own, PLANTED);
    remove_own_marks();
    touch(planted);
    ASSERT(chown(planted, 65534, 65534) == 0);
    int believed = clrprof__main_has_detached();
    const char *why = clrprof__mark_main_detached_with(PLANTED);
    int marked = clrprof__main_has_detached();
    unlink(planted);
    remove_own_marks();
    ASSERT_MSG(!believed, "a mark owned by nobody was believed");
    ASSERT_MSG(why == NULL && marked, "another user's file kept the real mark from being made");
}

/* One byte from fd within ten seconds; -1 on timeout or end of file. */
static int read_byte(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    char c;
    return poll(&p, 1, 10000) == 1 && read(fd, &c, 1) == 1 ? c : -1;
}

/* In a new pid namespace with its own /proc (pid 1 there): marks itself, says whether it sees
 * its mark, waits for the go, and exits 0 when it still sees its mark, 3 when not. */
static void namespaced_marker(int to_parent, int from_parent)
{
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
        mount("proc", "/proc", "proc", 0, NULL) != 0)
        _exit(4);
    clrprof__mark_main_detached();
    char seen = clrprof__main_has_detached() ? '1' : '0';
    if (write(to_parent, &seen, 1) != 1 || read_byte(from_parent) != 'g')
        _exit(5);
    int still = clrprof__main_has_detached();
    remove_own_marks();
    _exit(still ? 0 : 3);
}

/* Forks a process that unshares pid and mount namespaces and runs namespaced_marker in its
 * child (pid 1 of the new namespace). */
static pid_t start_namespaced_marker(int to_parent, int from_parent)
{
    pid_t outer = fork();
    ASSERT(outer >= 0);
    if (outer)
        return outer;
    if (unshare(CLONE_NEWPID | CLONE_NEWNS) != 0)
        _exit(6);
    pid_t inner = fork();
    if (inner == 0)
        namespaced_marker(to_parent, from_parent);
    int status = 0;
    _exit(inner > 0 && waitpid(inner, &status, 0) == inner && WIFEXITED(status)
              ? WEXITSTATUS(status) : 7);
}

/* The issue-29 crash: a sweep in one pid namespace removed the marks of live processes of
 * another that shares /dev/shm (both ways), and the next notification-only detach crashed them. */
TEST(main_detached_marks_survive_sweeps_from_another_pid_namespace_both_ways)
{
    int up[2], down[2], status = 0;
    if (geteuid() != 0)
        SKIP("needs root to create a pid namespace");
    remove_own_marks();
    ASSERT(clrprof__mark_main_detached() == NULL);
    ASSERT(pipe2(up, O_CLOEXEC) == 0 && pipe2(down, O_CLOEXEC) == 0);
    pid_t child = start_namespaced_marker(up[1], down[0]);
    close(up[1]);
    close(down[0]);
    int seen = read_byte(up[0]);
    int host_kept = clrprof__main_has_detached(); /* after the namespaced sweep */
    ASSERT(clrprof__mark_main_detached() == NULL); /* this sweep must spare the child's */
    ASSERT(write(down[1], "g", 1) == 1);
    ASSERT(waitpid(child, &status, 0) == child);
    close(up[0]);
    close(down[1]);
    remove_own_marks();
    ASSERT_MSG(seen == '1', "the namespaced process did not see its own mark (%d)", seen);
    ASSERT_MSG(host_kept, "a sweep in a child pid namespace removed this process's mark");
    ASSERT_MSG(WIFEXITED(status) && WEXITSTATUS(status) == 0,
               "the namespaced process's mark did not survive this process's sweep (status "
               "0x%x; 3: swept)", status);
}
