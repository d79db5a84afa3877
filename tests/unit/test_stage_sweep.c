/* Unit tests of the stage sweep's report (clra_stage_sweep2) on this test process itself: real
 * stage directories in its temp directory, one of them mapped here, and the fate the sweep
 * tells of each, checked against what is left on disk. */
#define _GNU_SOURCE
#include "clrattach.h"
#include "stage/stage.h"
#include "test.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_TOLD 8

/* What the sweep told, copied out of the callback. */
typedef struct told {
    int n;
    char target[MAX_TOLD][512], local[MAX_TOLD][512];
    int fate[MAX_TOLD], err[MAX_TOLD];
} told_t;

static void collect(void *ctx, const clra_stage_swept_t *d)
{
    told_t *t = ctx;
    ASSERT(t->n < MAX_TOLD);
    snprintf(t->target[t->n], sizeof t->target[0], "%s", d->target_path);
    snprintf(t->local[t->n], sizeof t->local[0], "%s", d->local_path);
    t->fate[t->n] = d->fate;
    t->err[t->n++] = d->sys_errno;
}

/* The index of the report on the directory named suffix, failing when there is none. */
static int told_of(const told_t *t, const char *suffix)
{
    for (int i = 0; i < t->n; i++)
        if (strstr(t->target[i], suffix))
            return i;
    test_fail(__FILE__, __LINE__, "nothing told of %s", suffix);
}

/* Makes <tmp>/clrattach-stage-<owner>-<suffix>/<file> (file NULL: an empty directory). */
static void make_stage(const clra__stage_place_t *pl, const char *suffix, const char *file,
                       char *dir, size_t cap)
{
    char path[600];
    snprintf(dir, cap, "%.300s/" CLRA__STAGE_PREFIX "%s-%s", pl->tmpdir, pl->owner, suffix);
    ASSERT_MSG(mkdir(dir, 0700) == 0, "mkdir %s: %s", dir, strerror(errno));
    if (!file)
        return;
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0500);
    ASSERT(fd >= 0 && write(fd, "copy", 4) == 4 && close(fd) == 0);
}

static void remove_tree(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        test_note("could not remove %s", dir);
}

TEST(sweep_tells_each_stage_directory_removed_in_use_owed_or_not_removable)
{
    clra__stage_place_t pl;
    char gone[400], used[400], owed[400], stuck[400], path[600];
    told_t t = {0};
    int removed = -1;
    ASSERT_EQ(clra__stage_place(getpid(), &pl, NULL), 0);
    make_stage(&pl, "Gone01", "libgone.so", gone, sizeof gone);
    make_stage(&pl, "Used01", "libused.so", used, sizeof used);
    snprintf(path, sizeof path, "%s/libused.so", used);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    void *map = fd >= 0 ? mmap(NULL, 4, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    ASSERT(map != MAP_FAILED);
    close(fd);
    make_stage(&pl, "Owed01", "libowed.so", owed, sizeof owed);
    snprintf(path, sizeof path, "%s/" CLRA__STAGE_OWED, owed);
    ASSERT(close(open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600)) == 0);
    make_stage(&pl, "Stuck1", NULL, stuck, sizeof stuck); /* a directory inside: not removable */
    snprintf(path, sizeof path, "%s/sub", stuck);
    ASSERT(mkdir(path, 0700) == 0);

    ASSERT_EQ(clra_stage_sweep2(getpid(), collect, &t, &removed, NULL), 0);
    ASSERT_EQ(removed, 1);
    ASSERT_EQ(t.n, 4);
    int i = told_of(&t, "-Gone01");
    snprintf(path, sizeof path, "%s/libgone.so", gone);
    ASSERT_STREQ(t.target[i], path);
    ASSERT_STREQ(t.local[i], path); /* the same mount namespace: the same path */
    ASSERT_EQ(t.fate[i], CLRA_STAGE_REMOVED);
    ASSERT_MSG(access(gone, F_OK) != 0, "%s was told removed but is there", gone);
    i = told_of(&t, "-Used01");
    ASSERT_EQ(t.fate[i], CLRA_STAGE_IN_USE);
    ASSERT_CONTAINS(t.target[i], "/libused.so");
    i = told_of(&t, "-Owed01");
    ASSERT_EQ(t.fate[i], CLRA_STAGE_OWED);
    ASSERT_CONTAINS(t.target[i], "/libowed.so"); /* the copy, not the mark */
    i = told_of(&t, "-Stuck1");
    ASSERT_STREQ(t.target[i], stuck); /* no file in it: the directory itself */
    ASSERT_EQ(t.fate[i], CLRA_STAGE_FAILED);
    ASSERT_EQ(t.err[i], ENOTEMPTY);
    ASSERT(access(used, F_OK) == 0 && access(owed, F_OK) == 0 && access(stuck, F_OK) == 0);
    munmap(map, 4);
    remove_tree(used);
    remove_tree(owed);
    remove_tree(stuck);
}

/* The plain sweep is the same sweep without a listener: it counts what it removed. */
TEST(sweep_without_a_callback_counts_the_removed_directories)
{
    clra__stage_place_t pl;
    char one[400], two[400];
    int removed = -1;
    ASSERT_EQ(clra__stage_place(getpid(), &pl, NULL), 0);
    make_stage(&pl, "Plain1", "liba.so", one, sizeof one);
    make_stage(&pl, "Plain2", "libb.so", two, sizeof two);
    ASSERT_EQ(clra_stage_sweep(getpid(), &removed, NULL), 0);
    ASSERT_EQ(removed, 2);
    ASSERT(access(one, F_OK) != 0 && access(two, F_OK) != 0);
}
