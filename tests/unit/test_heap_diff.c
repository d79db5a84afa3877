/* test_heap_diff.c - `heap diff` of hand-written snapshot files (src/cli/heap/heap_compare.c,
 * heap_print.c): of whole lists, a type only before is gone and one only after is new; a type
 * a cut list (--top, of either format) leaves out is not known there, so it is never shown as
 * gone or new but counted as not compared, with the exact change of all such types from the
 * totals; the table says so in one line and the JSON carries the same. */
#define _GNU_SOURCE
#include "heap_file_text.h"

#include <stdio.h>
#include <stdlib.h>

/* 16 objects, 432 bytes in three types, listing all of them. */
#define BEFORE_WHOLE                                                                            \
    "{\"objects\": 16, \"bytes\": 432, \"listed_all\": true, \"types_in_all\": 3, "            \
    "\"unlisted_objects\": 0, \"unlisted_bytes\": 0, \"types\": [\n"                            \
    "  {\"type\": \"Keep\", \"count\": 10, \"bytes\": 320},\n"                                  \
    "  {\"type\": \"Gone\", \"count\": 4, \"bytes\": 64},\n"                                    \
    "  {\"type\": \"Same\", \"count\": 2, \"bytes\": 48}\n]}\n"
/* The same heap in the first format, cut by --top 2: Same is left out, and nothing says so. */
#define BEFORE_FIRST_FORMAT_TOP_2                                                               \
    "{\"objects\": 16, \"bytes\": 432, \"types\": [\n"                                          \
    "  {\"type\": \"Keep\", \"count\": 10, \"bytes\": 320},\n"                                  \
    "  {\"type\": \"Gone\", \"count\": 4, \"bytes\": 64}\n]}\n"
/* The same heap cut by --top 1, saying so. */
#define BEFORE_TOP_1                                                                            \
    "{\"objects\": 16, \"bytes\": 432, \"listed_all\": false, \"types_in_all\": 3, "           \
    "\"unlisted_objects\": 6, \"unlisted_bytes\": 112, \"types\": [\n"                          \
    "  {\"type\": \"Keep\", \"count\": 10, \"bytes\": 320}\n]}\n"
/* Later: Keep grew by 5, Gone went, New came, Same stayed: 20 objects, 624 bytes. */
#define AFTER_WHOLE                                                                             \
    "{\"objects\": 20, \"bytes\": 624, \"listed_all\": true, \"types_in_all\": 3, "            \
    "\"unlisted_objects\": 0, \"unlisted_bytes\": 0, \"types\": [\n"                            \
    "  {\"type\": \"Keep\", \"count\": 15, \"bytes\": 480},\n"                                  \
    "  {\"type\": \"New\", \"count\": 3, \"bytes\": 96},\n"                                     \
    "  {\"type\": \"Same\", \"count\": 2, \"bytes\": 48}\n]}\n"
/* The same heap cut by --top 1. */
#define AFTER_TOP_1                                                                             \
    "{\"objects\": 20, \"bytes\": 624, \"listed_all\": false, \"types_in_all\": 3, "           \
    "\"unlisted_objects\": 5, \"unlisted_bytes\": 144, \"types\": [\n"                          \
    "  {\"type\": \"Keep\", \"count\": 15, \"bytes\": 480}\n]}\n"

/* heap_compare of two texts; the lists stay loaded for the printers (free both after). */
static void compare_texts(const char *before, const char *after, heap_list_t l[2], heap_diff_t *d)
{
    ASSERT_EQ(load_text(before, &l[0]), 0);
    ASSERT_EQ(load_text(after, &l[1]), 0);
    ASSERT_EQ(heap_compare(&l[0], &l[1], d), 0);
}

static void release(heap_list_t l[2], heap_diff_t *d)
{
    heap_diff_free(d);
    heap_list_free(&l[0]);
    heap_list_free(&l[1]);
}

static void assert_change(const heap_change_t *c, const char *name, long long count,
                          long long bytes, unsigned long long count_after,
                          unsigned long long bytes_after)
{
    ASSERT_STREQ(c->name, name);
    ASSERT_EQ(c->count, count);
    ASSERT_EQ(c->bytes, bytes);
    ASSERT_EQ(c->count_after, count_after);
    ASSERT_EQ(c->bytes_after, bytes_after);
}

/* What a diff says was not compared. */
static void assert_uncompared(const heap_diff_t *d, int compared_all, size_t types,
                              long long objects, long long bytes)
{
    ASSERT_EQ(d->compared_all, compared_all);
    ASSERT_EQ(d->uncompared_types, types);
    ASSERT_EQ(d->uncompared_objects, objects);
    ASSERT_EQ(d->uncompared_bytes, bytes);
}

/* What a printer wrote, as a string the caller frees. */
static char *printed(const heap_diff_t *d, heap_list_t l[2], int json)
{
    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    const heap_list_t *lists[2] = {&l[0], &l[1]};
    const char *names[2] = {"before.json", "after.json"};
    if (json)
        heap_print_diff_json(f, d, 0);
    else
        heap_print_diff_table(f, d, 0, lists, names);
    fclose(f);
    return text;
}

/* heap diff's table of two texts, asserted whole; the diff is left in d (lists freed). */
static void assert_table(const char *before, const char *after, heap_diff_t *d, const char *want)
{
    heap_list_t l[2];
    compare_texts(before, after, l, d);
    char *table = printed(d, l, 0);
    ASSERT_STREQ(table, want);
    free(table);
    heap_list_free(&l[0]);
    heap_list_free(&l[1]);
}

TEST(heap_diff_of_whole_lists_shows_gone_and_new_types)
{
    heap_list_t l[2];
    heap_diff_t d;
    compare_texts(BEFORE_WHOLE, AFTER_WHOLE, l, &d);
    ASSERT_EQ(d.objects, 4);
    ASSERT_EQ(d.bytes, 192);
    ASSERT_EQ(d.n, 3u); /* Same did not change */
    assert_change(&d.changes[0], "Keep", 5, 160, 15, 480);
    assert_change(&d.changes[1], "New", 3, 96, 3, 96);
    assert_change(&d.changes[2], "Gone", -4, -64, 0, 0);
    assert_uncompared(&d, 1, 0, 0, 0);
    char *json = printed(&d, l, 1);
    ASSERT_STREQ(json, "{\"objects\": 4, \"bytes\": 192, \"compared_all\": true, "
                       "\"before_listed_all\": true, \"after_listed_all\": true, "
                       "\"uncompared_types\": 0, \"uncompared_objects\": 0, "
                       "\"uncompared_bytes\": 0, \"types\": [\n"
                       "  {\"type\": \"Keep\", \"count\": 5, \"bytes\": 160, \"count_after\": 15, "
                       "\"bytes_after\": 480},\n"
                       "  {\"type\": \"New\", \"count\": 3, \"bytes\": 96, \"count_after\": 3, "
                       "\"bytes_after\": 96},\n"
                       "  {\"type\": \"Gone\", \"count\": -4, \"bytes\": -64, \"count_after\": 0, "
                       "\"bytes_after\": 0}\n]}\n");
    char *table = printed(&d, l, 0);
    ASSERT_MSG(!strstr(table, "not compared"), "whole lists, yet: %s", table);
    free(json);
    free(table);
    release(l, &d);
}

/* After --top 1, Gone and Same are left out of the after list: not gone, not known. */
TEST(heap_diff_never_takes_a_type_a_cut_list_left_out_for_gone)
{
    heap_list_t l[2];
    heap_diff_t d;
    compare_texts(BEFORE_WHOLE, AFTER_TOP_1, l, &d);
    ASSERT_EQ(d.objects, 4);
    ASSERT_EQ(d.bytes, 192);
    ASSERT_EQ(d.n, 1u);
    assert_change(&d.changes[0], "Keep", 5, 160, 15, 480);
    ASSERT_EQ(d.before_listed_all, 1);
    ASSERT_EQ(d.after_listed_all, 0);
    assert_uncompared(&d, 0, 2, -1, 32); /* Gone -4, New +3, Same 0; -64 + 96 bytes */
    char *json = printed(&d, l, 1);
    ASSERT_STREQ(json, "{\"objects\": 4, \"bytes\": 192, \"compared_all\": false, "
                       "\"before_listed_all\": true, \"after_listed_all\": false, "
                       "\"uncompared_types\": 2, \"uncompared_objects\": -1, "
                       "\"uncompared_bytes\": 32, \"types\": [\n"
                       "  {\"type\": \"Keep\", \"count\": 5, \"bytes\": 160, \"count_after\": 15, "
                       "\"bytes_after\": 480}\n]}\n");
    free(json);
    release(l, &d);
}

/* Before, of the first format, was cut by --top 2: New and Same are left out of it, so they
 * are not new; Gone is listed before and after lists every type, so it is gone. */
TEST(heap_diff_never_takes_a_type_a_cut_first_format_file_left_out_for_new)
{
    heap_list_t l[2];
    heap_diff_t d;
    compare_texts(BEFORE_FIRST_FORMAT_TOP_2, AFTER_WHOLE, l, &d);
    ASSERT_EQ(d.n, 2u);
    assert_change(&d.changes[0], "Keep", 5, 160, 15, 480);
    assert_change(&d.changes[1], "Gone", -4, -64, 0, 0);
    ASSERT_EQ(d.before_listed_all, 0);
    assert_uncompared(&d, 0, 2, 3, 96); /* New +3, Same 0 */
    release(l, &d);
}

/* Both cut: Gone is listed before only, New and Same in neither; the line counts Gone and
 * gives the change of all three (-4 + 3 + 0 objects, -64 + 96 bytes). */
TEST(heap_diff_table_says_in_one_line_what_was_not_compared_and_why)
{
    heap_diff_t d;
    assert_table(BEFORE_FIRST_FORMAT_TOP_2, AFTER_TOP_1, &d,
                 "heap change: +4 objects, +192 bytes; 1 types changed\n"
                 "not compared: 1 types listed in one snapshot only and any listed in neither, "
                 "as before.json lists only 2 types and after.json only 1 of its 3 types (saved "
                 "with --top); together they changed by -1 objects, +32 bytes. Save both "
                 "snapshots without --top to compare every type.\n"
                 "      bytes +/-    count +/-     bytes after  count after  type\n"
                 "           +160           +5             480           15  Keep\n");
    heap_diff_free(&d);
}

/* Both cut to Keep: no type is listed in one only, yet Gone, New and Same are not compared. */
TEST(heap_diff_of_cuts_listing_the_same_types_still_says_the_rest_was_not_compared)
{
    heap_diff_t d;
    assert_table(BEFORE_TOP_1, AFTER_TOP_1, &d,
                 "heap change: +4 objects, +192 bytes; 1 types changed\n"
                 "not compared: the types neither snapshot lists, as before.json lists only 1 "
                 "of its 3 types and after.json only 1 of its 3 types (saved with --top); "
                 "together they changed by -1 objects, +32 bytes. Save both snapshots without "
                 "--top to compare every type.\n"
                 "      bytes +/-    count +/-     bytes after  count after  type\n"
                 "           +160           +5             480           15  Keep\n");
    assert_uncompared(&d, 0, 0, -1, 32);
    heap_diff_free(&d);
}
