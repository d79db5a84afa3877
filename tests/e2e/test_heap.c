/* End-to-end: `clrattach heap` on the sample app holding a known number of objects of its own
 * types (`heap N`: N ClrAttach.Sample.HeapItem of 32 bytes and N/4 HeapPair of 40): the
 * snapshot counts them exactly, with their sizes, beside the runtime's own types; the text
 * table, --top and -o; Ctrl-C before the walk is complete says so; `heap diff` of two saved
 * snapshots shows what grew, and of two cut by --top never shows a type left out as gone or
 * new. */
#define _GNU_SOURCE
#include "bg_cli.h"
#include "harness.h"
#include "hot_app.h"
#include "json_check.h"
#include "proc_status.h"
#include "test.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ITEM "ClrAttach.Sample.HeapItem"
#define PAIR "ClrAttach.Sample.HeapPair"

/* Whether got is within 1% of want. */
static int near(long long got, long long want)
{
    return llabs(got - want) * 100 <= want;
}

/* `clrattach heap --json --top TOP -o FILE PID`: the file's text (copied; the caller frees). */
static char *snapshot_top(app_t *a, const char *name, const char *top)
{
    const char *out, *path = out_path(a, name);
    char copy[512];
    snprintf(copy, sizeof copy, "%s", path);
    int rc = run_cli(&out, "heap", "--json", "--top", top, "-o", copy, app_pid_text(a), NULL);
    ASSERT_MSG(rc == 0, "clrattach heap: exit %d: %s", rc, out);
    char *json = strdup(slurp(copy));
    ASSERT_MSG(json_is_valid(json), "not JSON: %.300s", json);
    return json;
}

/* Every type, as `heap --json` saves a snapshot by default. */
static char *snapshot(app_t *a, const char *name)
{
    return snapshot_top(a, name, "0");
}

/* The number after "key": in the JSON text (its first), asserting it is there. */
static long long figure(const char *json, const char *key)
{
    char want[64];
    snprintf(want, sizeof want, "\"%s\": ", key);
    const char *p = strstr(json, want);
    ASSERT_MSG(p != NULL, "no %s in %.300s", key, json);
    return strtoll(p + strlen(want), NULL, 10);
}

/* Whether the JSON lists a type of that name (names here have no escapes). */
static int lists(const char *json, const char *type)
{
    char key[256];
    snprintf(key, sizeof key, "{\"type\": \"%s\", ", type);
    return strstr(json, key) != NULL;
}

/* The types one JSON lists that the other does not, each checked against a diff's list. */
static int listed_in_one_only(const char *json, const char *other, const char *diff)
{
    int n = 0;
    for (const char *p = strstr(json, "{\"type\": \""); p; p = strstr(p + 1, "{\"type\": \"")) {
        char name[200];
        ASSERT(sscanf(p + 10, "%199[^\"]", name) == 1);
        if (lists(other, name))
            continue;
        ASSERT_MSG(!lists(diff, name), "%s is not in both snapshots, yet the diff lists it: %s",
                   name, diff);
        n++;
    }
    return n;
}

TEST(heap_counts_the_apps_own_objects_exactly_with_their_sizes)
{
    app_t a;
    app_start(&a, NULL);
    ASSERT_STREQ(app_command(&a, "heap 100000", 20000), "heaped items=100000 pairs=25000");
    char *json = snapshot(&a, "heap.json");
    long long count, bytes, objects = 0, total = 0;
    ASSERT_MSG(heap_type_figures(json, ITEM, &count, &bytes), "no %s in %.400s", ITEM, json);
    printf("%s: %lld objects, %lld bytes\n", ITEM, count, bytes);
    ASSERT_MSG(near(count, 100000), "%s: %lld objects, expected 100000", ITEM, count);
    ASSERT_EQ(bytes, count * 32);
    ASSERT_MSG(heap_type_figures(json, PAIR, &count, &bytes), "no %s", PAIR);
    ASSERT_MSG(near(count, 25000), "%s: %lld objects, expected 25000", PAIR, count);
    ASSERT_EQ(bytes, count * 40);
    ASSERT_MSG(heap_type_figures(json, "System.String", &count, &bytes) && count > 100,
               "System.String: %lld", count);
    ASSERT(sscanf(json, "{\"objects\": %lld, \"bytes\": %lld", &objects, &total) == 2);
    ASSERT_MSG(objects > 125000 && total > 100000LL * 32 + 25000LL * 40, "totals %lld %lld",
               objects, total);
    free(json);
    app_assert_responsive(&a);
    app_stop(&a);
}

/* SIGINT (what Ctrl-C sends) once heap handles it (SigCgt), while the app is stopped so the
 * session cannot have started: heap says it was interrupted, writes nothing, exits 7. */
static void interrupted(app_t *a)
{
    static bg_t b;
    char path[512];
    snprintf(path, sizeof path, "%s", out_path(a, "interrupted.txt"));
    app_freeze(a);
    bg_start(&b, "heap", "-o", path, app_pid_text(a), NULL);
    for (int i = 0; i < 5000 && !(proc_status_field(b.pid, "SigCgt", 16) & 1ull << (SIGINT - 1));
         i++)
        usleep(1000);
    kill(b.pid, SIGINT);
    ASSERT(kill(a->pid, SIGCONT) == 0);
    int rc = bg_finish(&b, 20000);
    ASSERT_MSG(rc == 7, "heap after SIGINT: exit %d: %s", rc, b.out);
    const char *said = "clrattach heap: interrupted before the heap walk was complete: nothing "
                       "was written to ";
    int one_line = strchr(b.out, '\n') == strrchr(b.out, '\n');
    ASSERT_MSG(strncmp(b.out, said, strlen(said)) == 0 && one_line, "not one line saying so: %s",
               b.out);
    ASSERT_MSG(access(path, F_OK) != 0, "%s was written", path);
    app_assert_responsive(a);
}

TEST(heap_table_lists_the_largest_types_first_and_top_cuts_it)
{
    app_t a;
    app_start(&a, NULL);
    ASSERT_STREQ(app_command(&a, "heap 100000", 20000), "heaped items=100000 pairs=25000");
    const char *out;
    int rc = run_cli(&out, "heap", "--top", "3", "-p", app_pid_text(&a), NULL);
    ASSERT_MSG(rc == 0, "clrattach heap: exit %d: %s", rc, out);
    ASSERT_CONTAINS(out, "full and blocking: the process paused ");
    ASSERT_CONTAINS(out, "more types; --top 0 lists every type)");
    const char *row = strstr(out, "  type\n");
    ASSERT(row != NULL);
    unsigned long long prev = ~0ull, b, c;
    int rows = 0;
    for (row += 7; row && sscanf(row, "%llu %llu", &b, &c) == 2; rows++) {
        if (row[strspn(row, " 0123456789")] == '(')
            break; /* the line of the types left out */
        ASSERT_MSG(b <= prev, "not largest first: %s", out);
        prev = b;
        row = strchr(row, '\n');
        row = row ? row + 1 : NULL;
    }
    ASSERT_EQ(rows, 3);
    ASSERT_CONTAINS(out, ITEM); /* 3.2 MB: among the three largest */
    interrupted(&a);
    app_stop(&a);
}

TEST(heap_diff_of_two_snapshots_shows_what_grew)
{
    app_t a;
    app_start(&a, NULL);
    ASSERT_STREQ(app_command(&a, "heap 20000", 20000), "heaped items=20000 pairs=5000");
    free(snapshot(&a, "before.json"));
    ASSERT_STREQ(app_command(&a, "heap 40000", 20000), "heaped items=60000 pairs=15000");
    free(snapshot(&a, "after.json"));
    char before[512], after[512];
    snprintf(before, sizeof before, "%s", out_path(&a, "before.json"));
    snprintf(after, sizeof after, "%s", out_path(&a, "after.json"));
    const char *out;
    int rc = run_cli(&out, "heap", "diff", "--json", before, after, NULL);
    ASSERT_MSG(rc == 0, "clrattach heap diff: exit %d: %s", rc, out);
    ASSERT_MSG(json_is_valid(out), "not JSON: %.300s", out);
    long long count, bytes;
    ASSERT_MSG(heap_type_figures(out, ITEM, &count, &bytes), "no %s in %.400s", ITEM, out);
    ASSERT_MSG(near(count, 40000), "%s grew by %lld, expected 40000", ITEM, count);
    ASSERT_EQ(bytes, count * 32);
    ASSERT_MSG(heap_type_figures(out, PAIR, &count, &bytes) && near(count, 10000),
               "%s grew by %lld", PAIR, count);
    rc = run_cli(&out, "heap", "diff", before, after, NULL);
    ASSERT_MSG(rc == 0 && strstr(out, "+1280000 ") && strstr(out, ITEM), "heap diff: %s", out);
    rc = run_cli(&out, "heap", "diff", before, CLRA_SAMPLE_DLL, NULL);
    ASSERT_MSG(rc == 2 && strstr(out, "expected the JSON of 'clrattach heap --json'"),
               "a dll compared: exit %d: %s", rc, out);
    app_stop(&a);
}

/* Both snapshots cut by --top, the after one to 2 types: the types the before one lists beyond
 * those are not known after (the first format took them for gone), so the diff counts them as
 * not compared and lists only types both snapshots list, while the totals stay exact. */
TEST(heap_diff_of_snapshots_cut_by_top_shows_no_left_out_type_as_gone)
{
    app_t a;
    app_start(&a, NULL);
    ASSERT_STREQ(app_command(&a, "heap 20000", 20000), "heaped items=20000 pairs=5000");
    char *b = snapshot_top(&a, "before.json", "6");
    ASSERT_STREQ(app_command(&a, "heap 40000", 20000), "heaped items=60000 pairs=15000");
    char *f = snapshot_top(&a, "after.json", "2");
    ASSERT_CONTAINS(b, "\"listed_all\": false");
    ASSERT_CONTAINS(f, "\"listed_all\": false");
    ASSERT_MSG(lists(f, ITEM), "%s not among the two largest: %s", ITEM, f);
    char before[512], after[512];
    snprintf(before, sizeof before, "%s", out_path(&a, "before.json"));
    snprintf(after, sizeof after, "%s", out_path(&a, "after.json"));
    const char *out;
    int rc = run_cli(&out, "heap", "diff", "--json", before, after, NULL);
    ASSERT_MSG(rc == 0 && json_is_valid(out), "clrattach heap diff: exit %d: %s", rc, out);
    char *diff = strdup(out);
    long long count, bytes, gone = listed_in_one_only(b, f, diff);
    ASSERT_MSG(gone >= 4, "the before snapshot lists %lld types the after one does not", gone);
    long long uncompared = gone + listed_in_one_only(f, b, diff);
    ASSERT_CONTAINS(diff, "\"compared_all\": false, \"before_listed_all\": false, "
                          "\"after_listed_all\": false");
    ASSERT_EQ(figure(diff, "uncompared_types"), uncompared);
    ASSERT_EQ(figure(diff, "objects"), figure(f, "objects") - figure(b, "objects"));
    ASSERT_EQ(figure(diff, "bytes"), figure(f, "bytes") - figure(b, "bytes"));
    ASSERT_MSG(!strstr(diff, "\"count_after\": 0,"), "a type shown as gone: %s", diff);
    ASSERT_MSG(heap_type_figures(diff, ITEM, &count, &bytes) && near(count, 40000),
               "%s grew by %lld, expected 40000: %s", ITEM, count, diff);
    ASSERT_EQ(bytes, count * 32);
    rc = run_cli(&out, "heap", "diff", before, after, NULL);
    char line[96];
    snprintf(line, sizeof line, "\nnot compared: %lld types listed in one snapshot only ",
             uncompared);
    ASSERT_MSG(rc == 0 && strstr(out, line) && strstr(out, "Save both snapshots without --top"),
               "heap diff: exit %d: %s", rc, out);
    free(diff);
    free(b);
    free(f);
    app_stop(&a);
}
