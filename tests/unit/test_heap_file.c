/* test_heap_file.c - the snapshot file `clrattach heap --json` writes and `heap diff` reads
 * back (src/cli/heap/): a round trip keeps every name (quotes, backslashes, control characters,
 * non-ASCII) and figure; a list cut by --top says so and what it left out, and a cut file of
 * the first format (without listed_all) is known for cut by its figures; files that are not
 * such a snapshot, cut short or lying, are refused saying where, never crash. */
#define _GNU_SOURCE
#include "heap_file_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What a loaded list says of its cut. */
static void assert_cut(const heap_list_t *l, int listed_all, size_t types_in_all,
                       uint64_t unlisted_objects, uint64_t unlisted_bytes)
{
    ASSERT_EQ(l->listed_all, listed_all);
    ASSERT_EQ(l->types_in_all, types_in_all);
    ASSERT_EQ(l->unlisted_objects, unlisted_objects);
    ASSERT_EQ(l->unlisted_bytes, unlisted_bytes);
}

TEST(heap_file_round_trip_keeps_every_name_and_figure)
{
    static const char *const names[] = {"Ns.Plain", "Quote\"d\\back", "tab\tnew\nline\x01",
                                        "caf\xc3\xa9.\xe2\x82\xac", ""};
    clra_heap_type_stat_t types[5];
    for (size_t i = 0; i < 5; i++) /* the bytes add up to the largest 64-bit figure */
        types[i] = (clra_heap_type_stat_t){.name = names[i], .count = 1000 - i,
                                           .bytes = i ? i : 18446744073709551615ull - 10};
    heap_list_t out = {.types = types, .count = 5, .objects = 4990,
                       .bytes = 18446744073709551615ull};
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
    ASSERT_EQ(in.bytes, 18446744073709551615ull);
    assert_cut(&in, 1, 5, 0, 0);
    for (size_t i = 0; i < 5; i++) {
        ASSERT_STREQ(in.types[i].name, names[i]);
        ASSERT_EQ(in.types[i].count, 1000 - i);
        ASSERT_EQ(in.types[i].bytes, i ? i : 18446744073709551615ull - 10);
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

/* The one type name of a file whose "type" member is the JSON text escaped, unescaped into
 * buf; the loader's 0 or -1. */
static int name_of(const char *escaped, char *buf, size_t cap)
{
    char text[256];
    snprintf(text, sizeof text, "{\"objects\": 1, \"bytes\": 1, \"types\": [{\"type\": "
             "\"%s\", \"count\": 1, \"bytes\": 1}]}", escaped);
    heap_list_t l;
    int rc = load_text(text, &l);
    if (rc == 0) {
        ASSERT_EQ(l.count, 1u);
        snprintf(buf, cap, "%s", l.types[0].name);
        heap_list_free(&l);
    }
    return rc;
}

/* \u escapes of code points at each UTF-8 length's edges, four bytes from a surrogate pair
 * (RFC 8259 §7: U+1F600 and U+10FFFF); a surrogate alone (a high one at the end, a low one, a
 * high one before a character that is not a low one) is U+FFFD, as UTF-8 has no surrogates. */
TEST(heap_file_unicode_escapes_are_utf8_pairs_joined_and_lone_surrogates_replaced)
{
    static const struct {
        const char *escaped, *name;
    } cases[] = {
        {"\\u0041\\u007F", "A\x7f"},
        {"\\u0080\\u07ff", "\xc2\x80\xdf\xbf"},
        {"\\u0800\\uFFFF", "\xe0\xa0\x80\xef\xbf\xbf"},
        {"A\\ud83d\\ude00B", "A\xf0\x9f\x98\x80" "B"},
        {"\\uDBFF\\uDFFF", "\xf4\x8f\xbf\xbf"},
        {"\\ud83d\\ud83d\\ude00", "\xef\xbf\xbd\xf0\x9f\x98\x80"},
        {"T\\ud83d", "T\xef\xbf\xbd"},
        {"\\udc00T", "\xef\xbf\xbdT"},
        {"\\ud83d\\u0041", "\xef\xbf\xbd" "A"},
        {"\\ud83d\\ud83d", "\xef\xbf\xbd\xef\xbf\xbd"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char name[64];
        ASSERT_MSG(name_of(cases[i].escaped, name, sizeof name) == 0, "%s", cases[i].escaped);
        ASSERT_STREQ(name, cases[i].name);
    }
    char name[64];
    ASSERT_EQ(name_of("\\ud83d\\u12", name, sizeof name), -1); /* cut after a surrogate */
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

/* Three types as heap --json --top 2 would cut them: what the file says, byte for byte. */
TEST(heap_file_cut_by_top_says_so_and_what_it_left_out)
{
    clra_heap_type_stat_t types[3] = {{.name = "A", .count = 10, .bytes = 400},
                                      {.name = "B", .count = 5, .bytes = 300},
                                      {.name = "C", .count = 7, .bytes = 56}};
    heap_list_t whole = {.types = types, .count = 3, .objects = 22, .bytes = 756};
    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    heap_print_json(f, &whole, 2);
    fclose(f);
    ASSERT_STREQ(text, "{\"objects\": 22, \"bytes\": 756, \"listed_all\": false, "
                       "\"types_in_all\": 3, \"unlisted_objects\": 7, \"unlisted_bytes\": 56, "
                       "\"types\": [\n"
                       "  {\"type\": \"A\", \"count\": 10, \"bytes\": 400},\n"
                       "  {\"type\": \"B\", \"count\": 5, \"bytes\": 300}\n]}\n");
    heap_list_t in;
    ASSERT_EQ(load_text(text, &in), 0);
    ASSERT_EQ(in.count, 2u);
    assert_cut(&in, 0, 3, 7, 56);
    heap_list_free(&in);
    free(text);
}

TEST(heap_file_of_the_first_format_is_cut_when_its_types_add_up_to_less)
{
    heap_list_t l;
    ASSERT_EQ(load_text("{\"objects\": 22, \"bytes\": 756, \"types\": [\n"
                        "  {\"type\": \"A\", \"count\": 10, \"bytes\": 400},\n"
                        "  {\"type\": \"B\", \"count\": 5, \"bytes\": 300}\n]}\n", &l), 0);
    ASSERT_EQ(l.count, 2u);
    assert_cut(&l, 0, 0, 7, 56); /* the number of types not known */
    heap_list_free(&l);
    ASSERT_EQ(load_text("{\"objects\": 15, \"bytes\": 700, \"types\": [\n"
                        "  {\"type\": \"A\", \"count\": 10, \"bytes\": 400},\n"
                        "  {\"type\": \"B\", \"count\": 5, \"bytes\": 300}\n]}\n", &l), 0);
    assert_cut(&l, 1, 2, 0, 0);
    heap_list_free(&l);
}

TEST(heap_file_skips_scalar_members_of_a_later_version)
{
    heap_list_t l;
    ASSERT_EQ(load_text("{\"objects\": 1, \"later\": true, \"bytes\": 8, \"gc\": 3, "
                        "\"note\": null, \"types\": [{\"type\": \"A\", \"count\": 1, "
                        "\"bytes\": 8, \"pinned\": false}], \"by\": \"x\"}", &l), 0);
    ASSERT_EQ(l.count, 1u);
    ASSERT_EQ(l.listed_all, 1);
    heap_list_free(&l);
}

TEST(heap_file_refuses_a_cut_its_figures_contradict)
{
    static const char *const bad[] = {
        /* listed_all true, yet 7 objects are not in the types */
        "{\"objects\": 22, \"bytes\": 756, \"listed_all\": true, \"types\": "
        "[{\"type\": \"A\", \"count\": 15, \"bytes\": 700}]}",
        /* listed_all false, yet the types are every object */
        "{\"objects\": 15, \"bytes\": 700, \"listed_all\": false, \"types\": "
        "[{\"type\": \"A\", \"count\": 15, \"bytes\": 700}]}",
        /* unlisted figures that are not what the types leave out */
        "{\"objects\": 22, \"bytes\": 756, \"unlisted_objects\": 6, \"types\": "
        "[{\"type\": \"A\", \"count\": 15, \"bytes\": 700}]}",
        "{\"objects\": 22, \"bytes\": 756, \"unlisted_bytes\": 57, \"types\": "
        "[{\"type\": \"A\", \"count\": 15, \"bytes\": 700}]}",
        /* a cut list of every type, and a whole list of more types than it lists */
        "{\"objects\": 22, \"bytes\": 756, \"types_in_all\": 1, \"types\": "
        "[{\"type\": \"A\", \"count\": 15, \"bytes\": 700}]}",
        "{\"objects\": 15, \"bytes\": 700, \"types_in_all\": 2, \"types\": "
        "[{\"type\": \"A\", \"count\": 15, \"bytes\": 700}]}",
        /* types that add up to more than the totals (the second wraps 64 bits) */
        "{\"objects\": 14, \"bytes\": 700, \"types\": "
        "[{\"type\": \"A\", \"count\": 15, \"bytes\": 700}]}",
        "{\"objects\": 2, \"bytes\": 1, \"types\": [{\"type\": \"A\", \"count\": 1, "
        "\"bytes\": 18446744073709551615}, {\"type\": \"B\", \"count\": 1, \"bytes\": 2}]}",
        "{\"objects\": 1, \"bytes\": 1, \"listed_all\": yes, \"types\": []}",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        heap_list_t l;
        ASSERT_MSG(load_text(bad[i], &l) == -1, "accepted: %s", bad[i]);
    }
}
