/* The CLI's one escaping helper for text output (src/cli/base/visible.c): what a target chose is
 * shown, never acted on by the terminal. */
#include "base/cli.h"
#include "test.h"

#include <stdlib.h>

TEST(cli_vis_names_common_controls_and_hex_codes_the_rest)
{
    ASSERT_STREQ(cli_vis("a\x1b[2J\nb\tc\rd\x07" "e\x7f"), "a\\e[2J\\nb\\tc\\rd\\x07e\\x7F");
}

TEST(cli_vis_escapes_c1_controls_but_keeps_other_utf8)
{
    ASSERT_STREQ(cli_vis("x\xc2\x9b" "31m \xc3\xa9 \xe2\x82\xac"), "x\\u009B31m \xc3\xa9 \xe2\x82\xac");
}

TEST(cli_vis_keeps_eight_results_apart_and_cuts_long_text_saying_so)
{
    const char *a = cli_vis("one"), *b = cli_vis("two");
    ASSERT_STREQ(a, "one");
    ASSERT_STREQ(b, "two");
    ASSERT_STREQ(cli_vis(NULL), "(none)");
    char *big = malloc(20000);
    ASSERT(big != NULL);
    memset(big, '\x1b', 19999);
    big[19999] = '\0';
    const char *v = cli_vis(big);
    free(big);
    ASSERT(strlen(v) < 8192);
    ASSERT(strcmp(v + strlen(v) - 3, "...") == 0);
}
