/* The shared, bounded read of a socket directory ps uses (issue 17 #4): one read per directory
 * whoever asks, only sockets kept, and a deadline that cuts a read short or prevents it. */
#define _GNU_SOURCE
#include "target/sockdir.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* A directory with n plain files and one socket named like a runtime's. */
static void make_dir(char *dir, size_t cap, int n)
{
    snprintf(dir, cap, "/tmp/clra-sockdir-XXXXXX");
    ASSERT(mkdtemp(dir) != NULL);
    for (int i = 0; i < n; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/f%d", dir, i);
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        ASSERT(fd >= 0);
        close(fd);
    }
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s/dotnet-diagnostic-42-7-socket", dir);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT(fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0);
    close(fd);
}

static void remove_dir(const char *dir)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ASSERT(system(cmd) == 0);
}

TEST(sockdir_reads_each_directory_once_and_keeps_only_sockets)
{
    char dir[64];
    make_dir(dir, sizeof dir, 100);
    clra__sockdirs_t c = {0};
    const clra__sockdir_t *a = clra__sockdirs_get(&c, dir), *b = clra__sockdirs_get(&c, dir);
    ASSERT(a != NULL && a == b); /* the second process sharing the directory reads nothing */
    ASSERT_EQ(a->err, 0);
    ASSERT_EQ((int)a->n, 1);
    ASSERT_STREQ(a->ents[0].name, "dotnet-diagnostic-42-7-socket");
    ASSERT((int)a->entries_read >= 101);
    clra__sockdirs_free(&c);
    remove_dir(dir);
}

TEST(sockdir_past_the_deadline_reads_nothing_and_says_timed_out)
{
    char dir[64];
    make_dir(dir, sizeof dir, 10);
    clra__deadline_t d = clra__deadline_in(0);
    usleep(2000);
    clra__sockdirs_t c = {.deadline = &d};
    const clra__sockdir_t *a = clra__sockdirs_get(&c, dir);
    ASSERT(a != NULL);
    ASSERT_EQ(a->err, ETIMEDOUT);
    ASSERT_EQ((int)a->entries_read, 0);
    clra__sockdirs_free(&c);
    remove_dir(dir);
}

TEST(sockdir_unreadable_directory_keeps_its_errno)
{
    clra__sockdirs_t c = {0};
    const clra__sockdir_t *a = clra__sockdirs_get(&c, "/nonexistent/clra-sockdir");
    ASSERT(a != NULL);
    ASSERT_EQ(a->err, ENOENT);
    clra__sockdirs_free(&c);
}
