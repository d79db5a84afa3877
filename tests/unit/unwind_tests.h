/* unwind_tests.h - what the unwinder's unit tests (test_unwind.c, test_unwind_gaps.c) share:
 * the walker reads x86-64 registers and DWARF register numbers, so elsewhere they skip. */
#ifndef CLRA_UNWIND_TESTS_H
#define CLRA_UNWIND_TESTS_H

#include "test.h"

#if defined(__x86_64__)
#define X64_ONLY() ((void)0)
#else
#define X64_ONLY() SKIP("the signal sampler's unwinder is x86-64 only")
#endif

#endif
