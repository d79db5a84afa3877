/* test_process_state.c - the public questions the CLI asks about a process (alive, owner, what
 * it maps), answered through target/procfs on real processes: this one and its children. */
#define _GNU_SOURCE
#include "clrattach.h"
#include "test.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

/* A child that exits at once; left unreaped, so it is a zombie until the caller waits. */
static pid_t exited_child(void)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(0);
    ASSERT(pid > 0);
    siginfo_t info;
    ASSERT_EQ(waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT), 0); /* exited, not reaped */
    return pid;
}

TEST(process_is_alive_for_a_running_process_not_a_zombie_nor_a_reaped_one)
{
    ASSERT_EQ(clra_process_is_alive(getpid()), 1);
    pid_t child = exited_child();
    ASSERT_EQ(clra_process_is_alive(child), 0); /* a zombie runs no runtime */
    ASSERT_EQ(waitpid(child, NULL, 0), child);
    ASSERT_EQ(clra_process_is_alive(child), 0); /* gone */
    ASSERT_EQ(clra_process_is_alive(0), 0);
    ASSERT_EQ(clra_process_is_alive(-1), 0);
}

TEST(process_owner_is_the_effective_uid)
{
    uint32_t uid = 12345;
    clra_status_t st;
    ASSERT_EQ(clra_process_owner_get(getpid(), &uid, &st), 0);
    ASSERT_EQ(uid, (uint32_t)geteuid());
    pid_t child = exited_child();
    ASSERT_EQ(waitpid(child, NULL, 0), child);
    ASSERT_EQ(clra_process_owner_get(child, &uid, &st), CLRA_ENOPROC);
    ASSERT_CONTAINS(st.detail, "no process");
    ASSERT_EQ(clra_process_owner_get(0, &uid, NULL), CLRA_EINVAL);
    ASSERT_EQ(clra_process_owner_get(getpid(), NULL, NULL), CLRA_EINVAL);
}

TEST(library_is_mapped_reads_the_real_maps)
{
    ASSERT_EQ(clra_library_is_mapped(getpid(), "libc.so"), 1);
    ASSERT_EQ(clra_library_is_mapped(getpid(), "/no/such/library-clrattach.so"), 0);
    pid_t child = exited_child();
    ASSERT_EQ(waitpid(child, NULL, 0), child);
    ASSERT_EQ(clra_library_is_mapped(child, "libc.so"), CLRA_ENOPROC);
    ASSERT_EQ(clra_library_is_mapped(getpid(), ""), CLRA_EINVAL);
}
