/* Sizes /proc may really hand us: an environment of several MiB (ARG_MAX grows with the stack
 * limit) must be read whole, or a TMPDIR after the first MiB is missed (issue 17 #6). */
#define _GNU_SOURCE
#include "test.h"
#include "target/procfs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Writes root/<pid>/environ: pad bytes of PAD=xxx, then TMPDIR=/far/away. Returns its size. */
static size_t fake_environ(const char *root, int pid, size_t pad)
{
    char dir[256], path[300];
    snprintf(dir, sizeof dir, "%s/%d", root, pid);
    ASSERT(mkdir(dir, 0755) == 0);
    snprintf(path, sizeof path, "%s/environ", dir);
    FILE *f = fopen(path, "w");
    ASSERT(f != NULL);
    fputs("PAD=", f);
    for (size_t i = 0; i < pad; i++)
        fputc('x', f);
    fputc('\0', f);
    fputs("TMPDIR=/far/away", f);
    fputc('\0', f);
    size_t size = (size_t)ftell(f);
    fclose(f);
    return size;
}

TEST(procfs_reads_an_environment_larger_than_one_mib_whole)
{
    char root[] = "/tmp/clra-unit-proc-XXXXXX", value[64], cmd[64];
    ASSERT(mkdtemp(root) != NULL);
    size_t size = fake_environ(root, 4242, 3u << 20);
    char *env = NULL;
    long len = clra__procfs_environ(root, 4242, &env);
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    ASSERT_EQ(system(cmd), 0);
    ASSERT_EQ(len, (long)size);
    ASSERT_EQ(clra__environ_get(env, (size_t)len, "TMPDIR", value, sizeof value), 1);
    ASSERT_STREQ(value, "/far/away");
    free(env);
}
