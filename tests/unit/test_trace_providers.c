/* Unit tests of the dotnet-trace provider syntax: what each spec becomes, and the exact
 * message for each kind of mistake. */
#include "test.h"

#include "clrattach.h"

#include <stdlib.h>

/* Parses spec into a fresh configuration, which must succeed. */
static void parse_ok(const char *spec, clra_trace_config_t *cfg)
{
    clra_status_t st;
    clra_trace_config_init(cfg);
    int rc = clra_trace_config_parse_providers(cfg, spec, &st);
    ASSERT_MSG(rc == 0, "'%s' was refused: %s", spec, st.detail);
}

/* Parses spec, which must fail; returns the message (static buffer). */
static const char *parse_bad(const char *spec)
{
    static clra_status_t st;
    clra_trace_config_t cfg;
    clra_trace_config_init(&cfg);
    ASSERT_EQ(clra_trace_config_parse_providers(&cfg, spec, &st), CLRA_EINVAL);
    ASSERT_EQ(cfg.provider_count, 0);
    clra_trace_config_free(&cfg);
    return st.detail;
}

TEST(trace_spec_name_alone_means_keywords_0_informational_no_arguments)
{
    clra_trace_config_t cfg;
    parse_ok("ClrAttach-Sample", &cfg);
    ASSERT_EQ(cfg.provider_count, 1);
    ASSERT_STREQ(cfg.providers[0].name, "ClrAttach-Sample");
    ASSERT_EQ(cfg.providers[0].keywords, 0);
    ASSERT_EQ(cfg.providers[0].level, 4);
    ASSERT(cfg.providers[0].arguments == NULL);
    clra_trace_config_free(&cfg);
}

TEST(trace_spec_blanks_around_names_are_dropped)
{
    clra_trace_config_t cfg;
    parse_ok("A, B:1 ,\tC", &cfg);
    ASSERT_EQ(cfg.provider_count, 3);
    ASSERT_STREQ(cfg.providers[1].name, "B");
    ASSERT_STREQ(cfg.providers[2].name, "C");
    clra_trace_config_free(&cfg);
}

TEST(trace_spec_keywords_are_hex_with_or_without_0x_and_star_is_all)
{
    clra_trace_config_t cfg;
    parse_ok("A:0x1,B:1F,C:*,D:,E:0XffffFFFFffffFFFF", &cfg);
    ASSERT_EQ(cfg.provider_count, 5);
    ASSERT_EQ(cfg.providers[0].keywords, 1);
    ASSERT_EQ(cfg.providers[1].keywords, 0x1F);
    ASSERT_EQ(cfg.providers[2].keywords, (long long)CLRA_TRACE_ALL_KEYWORDS);
    ASSERT_EQ(cfg.providers[3].keywords, 0);
    ASSERT_EQ(cfg.providers[4].keywords, (long long)CLRA_TRACE_ALL_KEYWORDS);
    clra_trace_config_free(&cfg);
}

TEST(trace_spec_levels_are_numbers_or_names_in_any_case)
{
    static const char *const names[] = {"logalways", "CRITICAL", "Error", "warning",
                                        "Informational", "VERBOSE"};
    for (int i = 0; i < 6; i++) {
        clra_trace_config_t cfg;
        char spec[64];
        snprintf(spec, sizeof spec, "P:1:%s,Q:1:%d", names[i], i);
        parse_ok(spec, &cfg);
        ASSERT_EQ(cfg.providers[0].level, i);
        ASSERT_EQ(cfg.providers[1].level, i);
        clra_trace_config_free(&cfg);
    }
}

TEST(trace_spec_arguments_keep_colons_and_quote_separators)
{
    clra_trace_config_t cfg;
    parse_ok("A:::EventCounterIntervalSec=1,"
             "B:2::FilterSpecs=\"App*:Information;Microsoft*:Warning\";x=\"1,2\","
             "C:1:4:url=http://h:80/a;;", &cfg);
    ASSERT_EQ(cfg.provider_count, 3);
    ASSERT_STREQ(cfg.providers[0].arguments, "EventCounterIntervalSec=1");
    /* quotes stay only where ';' or '=' need them, as the managed client sends them */
    ASSERT_STREQ(cfg.providers[1].arguments,
                 "FilterSpecs=\"App*:Information;Microsoft*:Warning\";x=1,2");
    ASSERT_STREQ(cfg.providers[2].arguments, "url=http://h:80/a");
    clra_trace_config_free(&cfg);
}

TEST(trace_spec_repeated_provider_merges_as_dotnet_trace_does)
{
    clra_trace_config_t cfg;
    parse_ok("A:1:2,a:2:4:k=v,B,A:4:3", &cfg);
    ASSERT_EQ(cfg.provider_count, 2);
    ASSERT_STREQ(cfg.providers[0].name, "A");
    ASSERT_EQ(cfg.providers[0].keywords, 7);
    ASSERT_EQ(cfg.providers[0].level, 4);
    ASSERT_STREQ(cfg.providers[0].arguments, "k=v");
    clra_trace_config_free(&cfg);
    parse_ok("A:1:5,A:1:0", &cfg); /* LogAlways (0) is the most verbose of all */
    ASSERT_EQ(cfg.providers[0].level, 0);
    clra_trace_config_free(&cfg);
}

TEST(trace_spec_adds_to_providers_already_configured)
{
    clra_trace_config_t cfg;
    clra_status_t st;
    parse_ok("A:1", &cfg);
    ASSERT_EQ(clra_trace_config_parse_providers(&cfg, "B:2,A:2", &st), 0);
    ASSERT_EQ(cfg.provider_count, 2);
    ASSERT_EQ(cfg.providers[0].keywords, 3);
    ASSERT_EQ(clra_trace_config_parse_providers(&cfg, "C,D:zz", &st), CLRA_EINVAL);
    ASSERT_EQ(cfg.provider_count, 2); /* nothing of a bad spec is kept */
    clra_trace_config_free(&cfg);
}

TEST(trace_spec_bad_keywords_name_the_provider_and_the_text)
{
    ASSERT_STREQ(parse_bad("Foo:0xZZ"), "provider 'Foo': keywords '0xZZ' are not hexadecimal "
                                        "(write e.g. 0x1F, or * for all)");
    ASSERT_STREQ(parse_bad("Foo:0x"), "provider 'Foo': keywords '0x' are not hexadecimal "
                                      "(write e.g. 0x1F, or * for all)");
    ASSERT_CONTAINS(parse_bad("Foo:12345678901234567"), "keywords '12345678901234567'");
    ASSERT_CONTAINS(parse_bad("Ok,Foo:-1"), "provider 'Foo': keywords '-1'");
}

TEST(trace_spec_bad_level_names_the_provider_and_the_text)
{
    ASSERT_STREQ(parse_bad("Foo:1:Loud"), "provider 'Foo': level 'Loud' is not 0-5 or one of "
                                          "LogAlways, Critical, Error, Warning, Informational, "
                                          "Verbose");
    ASSERT_CONTAINS(parse_bad("Foo:1:6"), "provider 'Foo': level '6' is not 0-5");
    ASSERT_CONTAINS(parse_bad("Foo:1:-1"), "level '-1'");
}

TEST(trace_spec_missing_names_say_which_provider)
{
    const char *how = "(write Name[:Keywords[:Level[:Arguments]]], providers separated by commas)";
    char want[160];
    snprintf(want, sizeof want, "provider 2 has no name %s", how);
    ASSERT_STREQ(parse_bad("A,,B"), want);
    ASSERT_STREQ(parse_bad("A,"), want);
    snprintf(want, sizeof want, "provider 1 has no name %s", how);
    ASSERT_STREQ(parse_bad(":1:4"), want);
    snprintf(want, sizeof want, "no providers given %s", how);
    ASSERT_STREQ(parse_bad(""), want);
    ASSERT_STREQ(parse_bad("  "), want);
}

TEST(trace_spec_bad_arguments_say_what_is_wrong)
{
    ASSERT_STREQ(parse_bad("Foo:1:4:k"), "provider 'Foo': argument 'k' has no '=' (write "
                                         "key=value;key2=value2)");
    ASSERT_STREQ(parse_bad("Foo:1:4:a=1;=v"), "provider 'Foo': argument '=v' has an empty key");
    ASSERT_STREQ(parse_bad("Foo:1:4:k=\"v"), "provider 'Foo': unterminated double quote in "
                                             "arguments 'k=\"v'");
    ASSERT_STREQ(parse_bad("Foo:1:4:k=a\"b\"c"), "provider 'Foo': in argument 'k=a\"b\"c' a "
                                                 "double quote must enclose the whole key or value");
    ASSERT_STREQ(parse_bad("X:1:4:a=1,X:2:5:b=2"), "provider 'X' is given twice with arguments; "
                                                   "give its arguments once");
}

TEST(trace_spec_over_1000_providers_is_refused)
{
    size_t n = 1001 * 6 + 1;
    char *spec = malloc(n), *p = spec;
    for (int i = 0; i < 1001; i++)
        p += sprintf(p, "%sP%d", i ? "," : "", i);
    ASSERT_STREQ(parse_bad(spec), "more than 1000 providers; the runtime accepts at most that many");
    free(spec);
}

TEST(trace_spec_that_is_not_utf8_is_an_encoding_error)
{
    clra_trace_config_t cfg;
    clra_status_t st;
    clra_trace_config_init(&cfg);
    ASSERT_EQ(clra_trace_config_parse_providers(&cfg, "Bad\xFFName", &st), CLRA_EENCODING);
    ASSERT_CONTAINS(st.detail, "not valid UTF-8");
    ASSERT_EQ(cfg.provider_count, 0);
}
