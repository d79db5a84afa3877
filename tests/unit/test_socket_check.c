/* test_socket_check.c - the checks that a socket found by name is safely the target's, and
 * reading a process's owner, on files made here (the e2e tests cover real runtimes). */
#define _GNU_SOURCE
#include "test.h"

#include "ipc/socket_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

typedef struct scratch {
    char dir[64];
    char path[160];
} scratch_t;

static void scratch_init(scratch_t *s)
{
    snprintf(s->dir, sizeof s->dir, "/tmp/clra-sockcheck-XXXXXX");
    ASSERT(mkdtemp(s->dir) != NULL);
}

/* Binds a Unix socket at dir/name (left unlistened; only the file matters here). */
static const char *make_socket(scratch_t *s, const char *name)
{
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(s->path, sizeof s->path, "%s/%s", s->dir, name);
    ASSERT(strlen(s->path) < sizeof sa.sun_path);
    memcpy(sa.sun_path, s->path, strlen(s->path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT(fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0);
    close(fd);
    return s->path;
}

static void scratch_free(scratch_t *s)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", s->dir);
    ASSERT_EQ(system(cmd), 0);
}

static clra__owner_t owner_is(uid_t uid)
{
    clra__owner_t o;
    for (int i = 0; i < 4; i++)
        o.uid[i] = uid, o.gid[i] = uid;
    return o;
}

TEST(socket_check_accepts_the_owners_socket_and_refuses_other_files)
{
    scratch_t s;
    clra_status_t st;
    struct stat sb;
    clra__owner_t me = owner_is(geteuid());
    char file[200];
    scratch_init(&s);
    memset(&st, 0, sizeof st);
    ASSERT_EQ(clra__socket_check(make_socket(&s, "ok-socket"), 42, &me, &sb, &st), 0);
    snprintf(file, sizeof file, "%s/plain", s.dir);
    fclose(fopen(file, "w"));
    ASSERT_EQ(clra__socket_check(file, 42, &me, &sb, &st), CLRA_EUNSAFE);
    ASSERT_CONTAINS(st.detail, "is not a socket");
    snprintf(file, sizeof file, "%s/missing", s.dir);
    ASSERT_EQ(clra__socket_check(file, 42, &me, &sb, &st), CLRA_ENOENDPOINT);
    scratch_free(&s);
}

TEST(socket_check_refuses_a_link_to_a_good_socket)
{
    scratch_t s;
    clra_status_t st;
    struct stat sb;
    clra__owner_t me = owner_is(geteuid());
    char link[200];
    scratch_init(&s);
    memset(&st, 0, sizeof st);
    snprintf(link, sizeof link, "%s/link-socket", s.dir);
    ASSERT(symlink(make_socket(&s, "real-socket"), link) == 0);
    ASSERT_EQ(clra__socket_check(link, 42, &me, &sb, &st), CLRA_EUNSAFE);
    ASSERT_CONTAINS(st.detail, "is a symbolic link");
    scratch_free(&s);
}

TEST(socket_check_trusts_root_and_the_owner_but_no_one_else)
{
    scratch_t s;
    clra_status_t st;
    struct stat sb;
    char link[200], via[300];
    if (geteuid() != 0)
        SKIP("needs root to give files to other users");
    scratch_init(&s);
    memset(&st, 0, sizeof st);
    const char *sock = make_socket(&s, "sock");
    clra__owner_t target = owner_is(1234);
    ASSERT_EQ(clra__socket_check(sock, 42, &target, &sb, &st), 0); /* root's file */
    ASSERT(lchown(sock, 4321, 4321) == 0);
    ASSERT_EQ(clra__socket_check(sock, 42, &target, &sb, &st), CLRA_EUNSAFE);
    ASSERT_CONTAINS(st.detail, "owned by uid 4321 but process 42 runs as uid 1234");
    target.uid[2] = 4321; /* its saved uid: a process that changed ids keeps its socket */
    ASSERT_EQ(clra__socket_check(sock, 42, &target, &sb, &st), 0);
    /* A directory link on the way: trusted from the owner, refused from a stranger. */
    target = owner_is(4321);
    snprintf(link, sizeof link, "%s/dirlink", s.dir);
    snprintf(via, sizeof via, "%s/sock", link);
    ASSERT(symlink(s.dir, link) == 0);
    ASSERT(lchown(link, 4321, 4321) == 0);
    ASSERT_EQ(clra__socket_check(via, 42, &target, &sb, &st), 0);
    ASSERT(lchown(link, 999, 999) == 0);
    ASSERT_EQ(clra__socket_check(via, 42, &target, &sb, &st), CLRA_EUNSAFE);
    ASSERT_CONTAINS(st.detail, "is a symbolic link owned by uid 999");
    scratch_free(&s);
}

TEST(process_owner_reads_status_and_rejects_garbage)
{
    char root[] = "/tmp/clra-owner-XXXXXX", dir[64], path[96], cmd[64];
    clra__owner_t o;
    ASSERT(mkdtemp(root) != NULL);
    snprintf(dir, sizeof dir, "%s/7", root);
    snprintf(path, sizeof path, "%s/status", dir);
    ASSERT(mkdir(dir, 0755) == 0);
    FILE *f = fopen(path, "w");
    fputs("Name:\tx\nUid:\t1\t2\t3\t4\nGid:\t5\t6\t7\t8\n", f);
    fclose(f);
    ASSERT_EQ(clra__process_owner(root, 7, &o), 0);
    ASSERT_EQ(o.uid[0], 1);
    ASSERT_EQ(o.uid[3], 4);
    ASSERT_EQ(o.gid[1], 6);
    f = fopen(path, "w");
    fputs("Name:\tx\nUid:\t1\t2\nGid:\t5\t6\t7\t8\n", f);
    fclose(f);
    ASSERT_EQ(clra__process_owner(root, 7, &o), CLRA_EPROTO);
    ASSERT_EQ(clra__process_owner(root, 8, &o), CLRA_ENOPROC);
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    ASSERT_EQ(system(cmd), 0);
}
