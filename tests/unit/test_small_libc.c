/* Unit tests of the stand-ins for qsort and strstr (util/small_libc.c) that keep musl's larger
 * versions out of the static command: same results as libc's on the inputs that matter. */
#include "test.h"
#include "util/small_libc.h"

#include <stdlib.h>
#include <string.h>

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

TEST(small_sort_orders_like_qsort)
{
    enum { N = 5000 };
    static int mine[N], theirs[N];
    unsigned seed = 12345;
    for (int i = 0; i < N; i++) { /* random, with duplicates */
        seed = seed * 1103515245u + 12345u;
        mine[i] = theirs[i] = (int)(seed >> 16) % 1000 - 500;
    }
    clra__sort(mine, N, sizeof mine[0], cmp_int);
    qsort(theirs, N, sizeof theirs[0], cmp_int);
    ASSERT_MEMEQ(mine, theirs, sizeof mine);
    for (int i = 0; i < N; i++) /* reversed, the worst order for a naive insertion sort */
        mine[i] = N - i;
    clra__sort(mine, N, sizeof mine[0], cmp_int);
    for (int i = 0; i < N; i++)
        ASSERT_EQ(mine[i], i + 1);
    clra__sort(mine, 0, sizeof mine[0], cmp_int); /* empty and single: nothing to do */
    clra__sort(mine, 1, sizeof mine[0], cmp_int);
    ASSERT_EQ(mine[0], 1);
}

TEST(small_sort_orders_pointers_to_strings)
{
    const char *paths[] = {"/tmp/b", "/tmp/a", "/run/x", "/tmp/a2", "/tmp/a"};
    clra__sort(paths, 5, sizeof paths[0], cmp_str);
    ASSERT_STREQ(paths[0], "/run/x");
    ASSERT_STREQ(paths[1], "/tmp/a");
    ASSERT_STREQ(paths[2], "/tmp/a");
    ASSERT_STREQ(paths[3], "/tmp/a2");
    ASSERT_STREQ(paths[4], "/tmp/b");
}

TEST(small_strfind_finds_like_strstr)
{
    const char *hay = "7f00-7f01 r-xp 00000000 08:01 42 /usr/share/dotnet/libcoreclr.so\n";
    const char *cases[] = {"libcoreclr.so", "7f00", "\n", "libcoreclr.sox", "libmonosgen",
                           "r-xp 0", "", "/usr/share/dotnet/libcoreclr.so\n"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ASSERT(clra__strfind(hay, cases[i]) == strstr(hay, cases[i]));
    ASSERT(clra__strfind("", "") == strstr("", ""));
    ASSERT(clra__strfind("", "a") == NULL);
    ASSERT(clra__strfind("aab", "ab") == strstr("aab", "ab"));
}
