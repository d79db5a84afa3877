/* Unit tests of staging's parsing (stage directory names, /proc/PID/maps lines) and of
 * resolving paths inside another root, against a directory tree built in a temporary folder. */
#define _GNU_SOURCE
#include "stage/stage.h"
#include "target/target_root.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

TEST(stage_name_matches_only_its_own_pid_and_start_and_six_letters_or_digits)
{
    ASSERT(clra__stage_name_matches("clrattach-stage-1-8607-Ab12Cd", "1-8607"));
    ASSERT(clra__stage_name_matches("clrattach-stage-4242-0-zzzzzz", "4242-0"));
    ASSERT(!clra__stage_name_matches("clrattach-stage-12-8607-Ab12Cd", "1-8607")); /* pid */
    ASSERT(!clra__stage_name_matches("clrattach-stage-1-8607-Ab12Cd", "12-8607"));
    /* the same pid 1 in another container sharing /tmp: another start time */
    ASSERT(!clra__stage_name_matches("clrattach-stage-1-8608-Ab12Cd", "1-8607"));
    ASSERT(!clra__stage_name_matches("clrattach-stage-1-86070-Ab12Cd", "1-8607"));
    ASSERT(!clra__stage_name_matches("clrattach-stage-1-Ab12Cd", "1-8607")); /* 0.2's names */
    ASSERT(!clra__stage_name_matches("clrattach-stage-1-8607-Ab12C", "1-8607"));   /* five */
    ASSERT(!clra__stage_name_matches("clrattach-stage-1-8607-Ab12Cde", "1-8607")); /* seven */
    ASSERT(!clra__stage_name_matches("clrattach-stage-1-8607-Ab.2Cd", "1-8607"));
    ASSERT(!clra__stage_name_matches("clrattach-stage-1-8607-Ab/2Cd", "1-8607"));
    ASSERT(!clra__stage_name_matches("clrattach-stage-1-8607-", "1-8607"));
    ASSERT(!clra__stage_name_matches("clrattach-stage-0-8607-Ab12Cd", "0-8607")); /* no pid 0 */
    ASSERT(!clra__stage_name_matches("xclrattach-stage-1-8607-Ab12Cd", "1-8607"));
}

TEST(stage_owner_is_the_pid_and_start_time_with_0_for_an_unknown_start)
{
    char owner[CLRA__STAGE_OWNER_MAX];
    clra__stage_owner(owner, 1, 8607);
    ASSERT_STREQ(owner, "1-8607");
    clra__stage_owner(owner, 4194304, -1);
    ASSERT_STREQ(owner, "4194304-0");
    clra__stage_owner(owner, 4194304, 9223372036854775807LL); /* the longest fits */
    ASSERT_STREQ(owner, "4194304-9223372036854775807");
}

TEST(maps_line_path_is_everything_after_the_inode)
{
    char path[256];
    /* Lines as a .NET 10 process in its own mount namespace showed them. */
    ASSERT(clra__maps_line_path("7ef9ef739000-7ef9ef741000 r-xp 00002000 00:27 63                "
                                "         /tmp/clrattach-stage-1-ipMgHK/libhello_profiler.so\n",
                                path, sizeof path));
    ASSERT_STREQ(path, "/tmp/clrattach-stage-1-ipMgHK/libhello_profiler.so");
    ASSERT(clra__maps_line_path("7f0665fb5000-7f0665fb8000 r--s 00000000 fe:00 5334126 "
                                "/work/my dir/sample.dll (deleted)\n", path, sizeof path));
    ASSERT_STREQ(path, "/work/my dir/sample.dll (deleted)"); /* spaces kept */
    ASSERT(clra__maps_line_path("7f0 r--p 0 fe:00 5 /no/newline", path, sizeof path));
    ASSERT_STREQ(path, "/no/newline");
}

TEST(maps_line_path_skips_anonymous_pseudo_and_malformed_lines)
{
    char path[16];
    ASSERT(!clra__maps_line_path("7ffd1000-7ffd2000 rw-p 00000000 00:00 0                  [stack]\n",
                                 path, sizeof path));
    ASSERT(!clra__maps_line_path("7ffd1000-7ffd2000 rw-p 00000000 00:00 0\n", path, sizeof path));
    ASSERT(!clra__maps_line_path("7ffd1000-7ffd2000 rw-p 00000000\n", path, sizeof path));
    ASSERT(!clra__maps_line_path("", path, sizeof path));
    ASSERT(!clra__maps_line_path("1-2 r--p 0 fe:00 5 /a/path/longer/than/sixteen\n", path,
                                 sizeof path)); /* does not fit: not cut */
}

TEST(stage_dir_in_path_finds_the_component_wherever_tmpdir_resolved_to)
{
    char dir[64];
    ASSERT(clra__stage_dir_in_path("/tmp/clrattach-stage-1-8607-ipMgHK/libhello_profiler.so",
                                   "1-8607", dir, sizeof dir));
    ASSERT_STREQ(dir, "clrattach-stage-1-8607-ipMgHK");
    /* TMPDIR=/var/tmp -> /private/tmp: maps shows where the symlink led */
    ASSERT(clra__stage_dir_in_path("/private/tmp//clrattach-stage-77-5-Zz9Zz9/lib.so (deleted)",
                                   "77-5", dir, sizeof dir));
    ASSERT_STREQ(dir, "clrattach-stage-77-5-Zz9Zz9");
    ASSERT(!clra__stage_dir_in_path("/tmp/clrattach-stage-78-5-Zz9Zz9/lib.so", "77-5", dir,
                                    sizeof dir));
    ASSERT(!clra__stage_dir_in_path("/tmp/clrattach-stage-77-6-Zz9Zz9/lib.so", "77-5", dir,
                                    sizeof dir));
    ASSERT(!clra__stage_dir_in_path("/tmp/clrattach-stage-77-5-Zz9/lib.so", "77-5", dir,
                                    sizeof dir));
    ASSERT(!clra__stage_dir_in_path("/usr/lib/libc.so.6", "77-5", dir, sizeof dir));
}

/* A tree standing for a container's root: <root>/etc/marker, <root>/tmp -> /var/tmp (absolute,
 * as containers have), <root>/var/tmp/lib.so. Our own /var/tmp has no lib.so. */
static void build_root(char *root, size_t cap)
{
    char path[512];
    snprintf(root, cap, "/tmp/clra-fakeroot-XXXXXX");
    ASSERT(mkdtemp(root) != NULL);
    snprintf(path, sizeof path, "%s/var", root);
    ASSERT(mkdir(path, 0755) == 0);
    snprintf(path, sizeof path, "%s/var/tmp", root);
    ASSERT(mkdir(path, 0755) == 0);
    snprintf(path, sizeof path, "%s/var/tmp/clra-unit-stage-lib.so", root);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
    ASSERT(fd >= 0);
    close(fd);
    snprintf(path, sizeof path, "%s/tmp", root);
    ASSERT(symlink("/var/tmp", path) == 0);
}

static void remove_root(const char *root)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    if (system(cmd) != 0)
        test_note("could not remove %s", root);
}

TEST(root_openat_resolves_absolute_symlinks_inside_the_root)
{
    char root[64];
    build_root(root, sizeof root);
    int rfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    ASSERT(rfd >= 0);
    struct open_how probe = {.flags = O_PATH, .resolve = RESOLVE_IN_ROOT};
    if (syscall(SYS_openat2, rfd, ".", &probe, sizeof probe) < 0 && errno == ENOSYS)
        SKIP("openat2 needs Linux 5.6; the step-by-step fallback is tested on its own below");
    /* /tmp -> /var/tmp must lead to <root>/var/tmp, never to our /var/tmp */
    int fd = clra__root_openat(rfd, "/tmp/clra-unit-stage-lib.so", O_PATH, 0);
    ASSERT_MSG(fd >= 0, "not found inside the root: %s", strerror(-fd));
    close(fd);
    /* ".." cannot climb out: /../../etc/passwd is <root>/etc/passwd, which does not exist */
    ASSERT_EQ(clra__root_openat(rfd, "/../../etc/passwd", O_PATH, 0), -ENOENT);
    fd = clra__root_openat(rfd, "/tmp", O_RDONLY | O_DIRECTORY, 0);
    ASSERT(fd >= 0);
    close(fd);
    close(rfd);
    remove_root(root);
}

TEST(root_walk_fallback_finds_plain_paths_and_refuses_symlinks_and_dotdot)
{
    char root[64];
    build_root(root, sizeof root);
    int rfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
    ASSERT(rfd >= 0);
    int fd = clra__root_walk_openat(rfd, "/var/tmp/clra-unit-stage-lib.so", O_PATH, 0);
    ASSERT_MSG(fd >= 0, "the plain path was not found: %s", strerror(-fd));
    close(fd);
    ASSERT_EQ(clra__root_walk_openat(rfd, "/tmp/clra-unit-stage-lib.so", O_PATH, 0), -ELOOP);
    ASSERT_EQ(clra__root_walk_openat(rfd, "/var/../etc/passwd", O_PATH, 0), -ELOOP);
    ASSERT_EQ(clra__root_walk_openat(rfd, "/var/tmp/missing.so", O_PATH, 0), -ENOENT);
    close(rfd);
    remove_root(root);
}
