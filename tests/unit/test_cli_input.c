/* What the CLI accepts as a number: digits only, as a user reads them (issue 17). */
#include "base/cli.h"
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

/* A 5,000-byte profiler path was "cannot make an absolute path": say it is too long, and the
 * limit (issue 17, messages). */
TEST(a_too_long_path_is_called_too_long_with_the_limit)
{
    char big[5001], out[CLRA_PATH_MAX], why[400], limit[32];
    memset(big, 'a', sizeof big - 1);
    big[0] = '/';
    big[sizeof big - 1] = '\0';
    ASSERT(cli_absolute_path(big, out, sizeof out) != 0);
    cli_path_problem(big, sizeof out, why, sizeof why);
    snprintf(limit, sizeof limit, "the limit is %d", CLRA_PATH_MAX - 1);
    ASSERT_CONTAINS(why, "too long: 5000 bytes");
    ASSERT_CONTAINS(why, limit);
    ASSERT_MSG(!strstr(why, "absolute"), "%s", why);
    big[0] = 'a'; /* relative: too long once joined to the working directory */
    big[CLRA_PATH_MAX - 3] = '\0';
    ASSERT(cli_absolute_path(big, out, sizeof out) != 0);
    cli_path_problem(big, sizeof out, why, sizeof why);
    ASSERT_CONTAINS(why, "too long once joined to the working directory");
}

/* Root refused is not told to run as root (issue 17, messages). */
TEST(root_refused_is_not_told_to_run_as_root)
{
    ASSERT_MSG(!strstr(cli_access_hint(0), "as root"), "%s", cli_access_hint(0));
    ASSERT_CONTAINS(cli_access_hint(0), "even root");
    ASSERT_CONTAINS(cli_access_hint(1000), "or as root");
}

/* A refused ProcessInfo (or any request but a profiler load) got the HRESULT table's advice,
 * written for profilers: E_FAIL said "pass a non-empty absolute path" (issue 17, messages). */
TEST(a_refused_request_other_than_a_profiler_load_gets_no_profiler_advice)
{
    clra_status_t st;
    memset(&st, 0, sizeof st);
    st.hresult = (int32_t)0x80004005u; /* E_FAIL */
    cli_failure_t info = {.rc = CLRA_ERUNTIME, .st = &st, .action = "ask"};
    ASSERT_MSG(!strstr(cli_hint_of(&info), "path") && !strstr(cli_hint_of(&info), "profiler"),
               "%s", cli_hint_of(&info));
    ASSERT_CONTAINS(cli_hint_of(&info), "version");
    cli_failure_t attach = {.rc = CLRA_ERUNTIME, .st = &st, .action = "attach to",
                            .refusal = "refused the profiler"};
    ASSERT_CONTAINS(cli_hint_of(&attach), "absolute path");
}
