/* What the CLI accepts as a number: digits only, as a user reads them (issue 17). */
#include "cli.h"
#include "test.h"

TEST(cli_pid_refuses_leading_space_plus_sign_and_trailing_junk)
{
    int pid = 0;
    ASSERT_EQ(cli_parse_pid("1", &pid), 0);
    ASSERT_EQ(pid, 1);
    ASSERT_EQ(cli_parse_pid(" 1", &pid), -1);
    ASSERT_EQ(cli_parse_pid("+1", &pid), -1);
    ASSERT_EQ(cli_parse_pid("\t7", &pid), -1);
    ASSERT_EQ(cli_parse_pid("1 ", &pid), -1);
    ASSERT_EQ(cli_parse_pid("0", &pid), -1);
    ASSERT_EQ(cli_parse_pid("", &pid), -1);
}

TEST(cli_numbers_refuse_leading_space_and_plus_sign)
{
    long long v;
    ASSERT_EQ(cli_parse_int("--timeout", "+100", 0, 1000, &v), -1);
    ASSERT_EQ(cli_parse_int("--timeout", " 100", 0, 1000, &v), -1);
    ASSERT_EQ(cli_parse_int("--timeout", "100", 0, 1000, &v), 0);
    ASSERT_EQ(v, 100);
}

TEST(timeout_hint_speaks_of_a_profiler_only_for_attach)
{
    const char *hint = cli_local_hint(CLRA_ETIMEDOUT);
    ASSERT_MSG(!strstr(hint, "profiler"), "info/env/trace/dump are told: %s", hint);
    ASSERT_CONTAINS(hint, "raise --timeout");
}
