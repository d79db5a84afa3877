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

void test_note(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "  [%s] ", running ? running : "?");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* Runs one test and reports it; returns 1 when it passed. */
static int run_one(int i)
{
    running = tests[i].name;
    if (setjmp(test_escape) == 0) {
        tests[i].fn();
        printf("ok   %s\n", tests[i].name);
        fflush(stdout);
        return 1;
    }
    printf("FAIL %s\n", tests[i].name);
    fflush(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0, matched = 0;
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
        if (run_one(i))
            passed++;
        else
            failed++;
    }
    if (argc > 1 && matched == 0) {
        fprintf(stderr, "no test named %s (try --list)\n", argv[1]);
        return 2;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
