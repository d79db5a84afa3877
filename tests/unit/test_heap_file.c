/* test_heap_file.c - the snapshot file `clrattach heap --json` writes and `heap diff` reads
 * back (src/cli/heap/): a round trip keeps every name (quotes, backslashes, control characters,
 * non-ASCII) and figure; files that are not such a snapshot, cut short or lying, are refused
 * saying where, never crash. */
#define _GNU_SOURCE
#include "heap/heap_view.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* text into a fresh temporary file; its path (static buffer). */
static const char *file_of(const char *text, size_t len)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/clra-heap-file-XXXXXX");
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    ASSERT_EQ(write(fd, text, len), (ssize_t)len);
    close(fd);
    return path;
}

static int load_text(const char *text, heap_list_t *l)
{
    const char *path = file_of(text, strlen(text));
    int rc = heap_load(path, l);
    unlink(path);
    return rc;
}

TEST(heap_file_round_trip_keeps_every_name_and_figure)
{
    static const char *const names[] = {"Ns.Plain", "Quote\"d\\back", "tab\tnew\nline\x01",
                                        "caf\xc3\xa9.\xe2\x82\xac", ""};
    clra_heap_type_stat_t types[5];
    for (size_t i = 0; i < 5; i++)
        types[i] = (clra_heap_type_stat_t){.name = names[i], .count = 1000 - i,
                                           .bytes = 18446744073709551615ull - i};
    heap_list_t out = {.types = types, .count = 5, .objects = 4990, .bytes = 123456789012ull};
    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    heap_print_json(f, &out, 0);
    fclose(f);
    const char *path = file_of(text, len);
    heap_list_t in;
    ASSERT_EQ(heap_load(path, &in), 0);
    unlink(path);
    ASSERT_EQ(in.count, 5u);
    ASSERT_EQ(in.objects, 4990u);
    ASSERT_EQ(in.bytes, 123456789012ull);
    for (size_t i = 0; i < 5; i++) {
        ASSERT_STREQ(in.types[i].name, names[i]);
        ASSERT_EQ(in.types[i].count, 1000 - i);
        ASSERT_EQ(in.types[i].bytes, 18446744073709551615ull - i);
    }
    heap_list_free(&in);
    free(text);
}

TEST(heap_file_reads_members_in_any_order_and_unicode_escapes)
{
    heap_list_t l;
    ASSERT_EQ(load_text(" { \"types\" : [ {\"bytes\":7,\"extra\":\"x\",\"count\":1,"
                        "\"type\":\"A\\u00e9\\u20ac\\ud800\"} ] , \"bytes\": 7, "
                        "\"objects\":1}\n", &l), 0);
    ASSERT_EQ(l.count, 1u);
    ASSERT_STREQ(l.types[0].name, "A\xc3\xa9\xe2\x82\xac\xef\xbf\xbd");
    heap_list_free(&l);
    ASSERT_EQ(load_text("{\"objects\": 0, \"bytes\": 0, \"types\": []}", &l), 0);
    ASSERT_EQ(l.count, 0u);
    heap_list_free(&l);
}

TEST(heap_file_refuses_what_is_not_a_snapshot)
{
    static const char *const bad[] = {
        "",
        "[]",
        "{\"objects\": 1, \"bytes\": 2}",                                   /* no types */
        "{\"objects\": 1, \"bytes\": 2, \"types\": [{\"type\": \"A\"}]}",   /* no count */
        "{\"objects\": 1, \"bytes\": 2, \"types\": [{\"type\": \"A\", \"count\": 1, \"bytes\": 1}",
        ("{\"objects\": 1, \"bytes\": 2, \"types\": [{\"type\": \"A\\q\", \"count\": 1, "
         "\"bytes\": 1}]}"), /* one string: a bad escape */
        "{\"objects\": 1, \"bytes\": 2, \"types\": [{\"type\": \"A\\u12\"}]}",
        "{\"objects\": -1, \"bytes\": 2, \"types\": []}",
        "{\"objects\": 1, \"bytes\": 2, \"types\": [], \"nested\": {}}",
        "{\"objects\": 1, \"bytes\": 2, \"types\": [{\"type\": \"A, \"count\": 1",
        "{\"objects\": 1, \"bytes\": 2, \"types\": [{\"type\": \"",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        heap_list_t l;
        ASSERT_MSG(load_text(bad[i], &l) == -1, "accepted: %s", bad[i]);
    }
    heap_list_t l;
    ASSERT_EQ(heap_load("/nonexistent/heap.json", &l), -1);
    ASSERT_EQ(heap_load("/proc/self", &l), -1); /* a directory */
}
