/* test.h - a small test framework: TEST(name) registers a scenario, ASSERT_* fail it.
 *
 * Each test executable links tests/common/test_main.c. `prog` runs every test, `prog NAME`
 * runs one, `prog --list` prints the names. CMake registers each TEST() as its own ctest case
 * by scanning the source for TEST( lines. A test that cannot run here calls SKIP(why): it is
 * reported as skipped, never as passed, and `prog NAME` then exits with TEST_SKIP_CODE, which
 * ctest shows as "Skipped".
 */
#ifndef CLRA_TEST_H
#define CLRA_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef void (*test_fn)(void);
void test_register(const char *name, test_fn fn);
#ifdef __MINGW32__ /* mingw's stdio (__USE_MINGW_ANSI_STDIO) is the GNU dialect */
#define TEST_PRINTF_FORMAT gnu_printf
#else
#define TEST_PRINTF_FORMAT printf
#endif
void test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(TEST_PRINTF_FORMAT, 3, 4), noreturn));
/* Ends the running test as skipped, saying why (e.g. it needs root). */
void test_skip(const char *fmt, ...) __attribute__((format(TEST_PRINTF_FORMAT, 1, 2), noreturn));
#define SKIP(...) test_skip(__VA_ARGS__)
#define TEST_SKIP_CODE 77 /* the automake/ctest convention */
/* Prints a note under the running test's name (shown on failure and with -v). */
void test_note(const char *fmt, ...) __attribute__((format(TEST_PRINTF_FORMAT, 1, 2)));

#define TEST(name)                                                                        \
    static void test_##name(void);                                                        \
    __attribute__((constructor)) static void test_register_##name(void)                   \
    {                                                                                     \
        test_register(#name, test_##name);                                               \
    }                                                                                     \
    static void test_##name(void)

#define ASSERT(cond)                                                                      \
    do {                                                                                  \
        if (!(cond))                                                                      \
            test_fail(__FILE__, __LINE__, "assertion failed: %s", #cond);                 \
    } while (0)

#define ASSERT_MSG(cond, ...)                                                             \
    do {                                                                                  \
        if (!(cond))                                                                      \
            test_fail(__FILE__, __LINE__, __VA_ARGS__);                                   \
    } while (0)

#define ASSERT_EQ(a, b)                                                                   \
    do {                                                                                  \
        long long a_ = (long long)(a), b_ = (long long)(b);                               \
        if (a_ != b_)                                                                     \
            test_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld (0x%llx != 0x%llx)", #a, \
                      #b, a_, b_, a_, b_);                                                \
    } while (0)

#define ASSERT_NE(a, b)                                                                   \
    do {                                                                                  \
        long long a_ = (long long)(a), b_ = (long long)(b);                               \
        if (a_ == b_)                                                                     \
            test_fail(__FILE__, __LINE__, "%s != %s: both %lld", #a, #b, a_);             \
    } while (0)

#define ASSERT_STREQ(a, b)                                                                \
    do {                                                                                  \
        const char *a_ = (a), *b_ = (b);                                                  \
        if (!a_ || !b_ || strcmp(a_, b_) != 0)                                            \
            test_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b,           \
                      a_ ? a_ : "(null)", b_ ? b_ : "(null)");                            \
    } while (0)

#define ASSERT_CONTAINS(haystack, needle)                                                 \
    do {                                                                                  \
        const char *h_ = (haystack), *n_ = (needle);                                      \
        if (!h_ || !strstr(h_, n_))                                                       \
            test_fail(__FILE__, __LINE__, "\"%s\" does not contain \"%s\"",               \
                      h_ ? h_ : "(null)", n_);                                            \
    } while (0)

#define ASSERT_MEMEQ(a, b, n)                                                             \
    do {                                                                                  \
        if (memcmp((a), (b), (n)) != 0)                                                   \
            test_fail(__FILE__, __LINE__, "%s and %s differ in their first %zu bytes", #a, \
                      #b, (size_t)(n));                                                   \
    } while (0)

#endif
