/* test_main.c - runs the TEST()s registered in this executable, one process per test. */
#include "test.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>

#define MAX_TESTS 512

static struct {
    const char *name;
    test_fn fn;
} tests[MAX_TESTS];
static int test_count;
static jmp_buf test_escape;
static const char *running;

void test_register(const char *name, test_fn fn)
{
    if (test_count == MAX_TESTS) {
        fprintf(stderr, "too many tests; raise MAX_TESTS\n");
        abort();
    }
    tests[test_count].name = name;
    tests[test_count].fn = fn;
    test_count++;
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "FAIL %s at %s:%d: ", running ? running : "?", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    longjmp(test_escape, 1);
}

void test_skip(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "SKIP %s: ", running ? running : "?");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    longjmp(test_escape, 2);
}

void test_note(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "  [%s] ", running ? running : "?");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* Runs one test and reports it; returns 0 passed, 1 failed, 2 skipped. */
static int run_one(int i)
{
    running = tests[i].name;
    /* setjmp stands alone as a switch's controlling expression, as C11 7.13.1.1 allows. */
    switch (setjmp(test_escape)) {
    case 0:
        tests[i].fn();
        printf("ok   %s\n", tests[i].name);
        fflush(stdout);
        return 0;
    case 2:
        printf("SKIP %s\n", tests[i].name);
        fflush(stdout);
        return 2;
    default:
        printf("FAIL %s\n", tests[i].name);
        fflush(stdout);
        return 1;
    }
}

int main(int argc, char **argv)
{
    int counts[3] = {0, 0, 0}, matched = 0; /* passed, failed, skipped */
    setvbuf(stderr, NULL, _IONBF, 0);
    if (argc > 1 && strcmp(argv[1], "--list") == 0) {
        for (int i = 0; i < test_count; i++)
            printf("%s\n", tests[i].name);
        return 0;
    }
    for (int i = 0; i < test_count; i++) {
        if (argc > 1 && strcmp(argv[1], tests[i].name) != 0)
            continue;
        matched++;
        counts[run_one(i)]++;
    }
    if (argc > 1 && matched == 0) {
        fprintf(stderr, "no test named %s (try --list)\n", argv[1]);
        return 2;
    }
    printf("%d passed, %d failed, %d skipped\n", counts[0], counts[1], counts[2]);
    if (counts[1])
        return 1;
    return counts[2] && !counts[0] ? TEST_SKIP_CODE : 0;
}
