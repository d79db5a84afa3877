/* Names a target chooses (method names, counter and provider names) in the text formats that
 * go to stdout: convert --format top|folded (the render writers) and counters --format csv
 * (counters_view.c). An ESC sequence or a newline must come out visible, never raw, and must
 * not forge a line, a frame or a CSV record (issue 29, finding 7). */
#define _GNU_SOURCE
#include "counters/counters_view.h"
#include "render/format.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define EVIL_FRAME "Evil\x1b[2J\x1b]0;owned\x07\nApp.Main;Forged 999999"

/* How many times c occurs in text. */
static size_t count_of(const char *text, char c)
{
    size_t n = 0;
    for (; *text; text++)
        n += *text == c;
    return n;
}

/* Fails unless text holds no control character but its line ends. */
static void assert_only_newlines(const char *text)
{
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        ASSERT_MSG(*p >= 0x20 || *p == '\n', "raw control 0x%02X in: %s", *p, text);
}

/* The writer's whole output for a profile of one stack: App.Main calling name, 3 samples. */
static char *render_one(int fmt, const char *name)
{
    profile_t p;
    char *buf = NULL;
    size_t size = 0;
    profile_init(&p);
    const char *stack[] = {name, "App.Main"};
    for (int i = 0; i < 3; i++)
        ASSERT(profile_add_sample(&p, 7, "main", stack, 2, 10) == 0);
    FILE *f = open_memstream(&buf, &size);
    profile_write_opts_t o = {0, 20};
    ASSERT(profile_write(&p, &o, fmt, f) == 0);
    fclose(f);
    profile_free(&p);
    return buf;
}

TEST(render_folded_shows_escapes_and_newlines_of_a_frame_without_forging_a_line_or_frame)
{
    char *text = render_one(FMT_FOLDED, EVIL_FRAME);
    ASSERT_STREQ(text, "App.Main;Evil\\e[2J\\e]0,owned\\x07\\nApp.Main,Forged 999999 3\n");
    ASSERT_EQ(count_of(text, '\n'), 1);
    ASSERT_EQ(count_of(text, ';'), 1); /* two frames */
    free(text);
}

TEST(render_top_shows_escapes_and_newlines_of_a_frame_visibly)
{
    char *text = render_one(FMT_TOP, EVIL_FRAME);
    assert_only_newlines(text);
    ASSERT_CONTAINS(text, "  Evil\\e[2J\\e]0;owned\\x07\\nApp.Main;Forged 999999\n");
    ASSERT_EQ(count_of(text, '\n'), 3); /* the header and two rows */
    free(text);
}

TEST(counters_csv_shows_escapes_and_newlines_of_names_and_quotes_per_rfc_4180)
{
    char *buf = NULL;
    size_t size = 0;
    counters_view_t v = {.format = COUNTERS_CSV, .pid = 1, .interval_s = 1};
    clra_counter_reading_t r = {.value = 5};
    snprintf(r.provider, sizeof r.provider, "Evil\x1b[31m\"Meter\"");
    snprintf(r.label, sizeof r.label, "a,b\n2026-01-01 00:00:00Z,Forged,x,Rate,1");
    snprintf(r.name, sizeof r.name, "a");
    v.f = open_memstream(&buf, &size);
    ASSERT_EQ(counters_view_begin(&v), 0);
    counters_view_add(&v, &r);
    counters_view_end(&v);
    fclose(v.f);
    assert_only_newlines(buf);
    ASSERT_EQ(count_of(buf, '\n'), 2); /* the header and one record */
    ASSERT_CONTAINS(buf, "Z,\"Evil\\e[31m\"\"Meter\"\"\",\"a,b\\n2026-01-01 00:00:00Z,Forged,x,"
                         "Rate,1\",Metric,5\n");
    free(buf);
}
