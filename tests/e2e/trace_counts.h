/* trace_counts.h - what the e2e tests learn from a .nettrace file: the sample app's Tick events
 * (sequence numbers, texts, stacks), rundown events and the runtime's module loads. */
#ifndef CLRA_TRACE_COUNTS_H
#define CLRA_TRACE_COUNTS_H

#include <stddef.h>
#include <stdint.h>

#define SAMPLE_PROVIDER "ClrAttach-Sample"
#define RUNTIME_PROVIDER "Microsoft-Windows-DotNETRuntime"
#define RUNDOWN_PROVIDER "Microsoft-Windows-DotNETRuntimeRundown"

typedef struct trace_counts {
    int ticks, bad_text, ticks_with_stack, ticks_without_stack;
    int seen[2000]; /* how often each Tick sequence number came */
    int rundown;    /* events of the rundown provider */
    int loads;      /* runtime ModuleLoad events, and those naming these files */
    int loads_sample, loads_corelib, loads_hook;
    int runtime_ids[1024]; /* events of the runtime provider, by event id (ids below 1024) */
} trace_counts_t;

/* Counts what a whole NetTrace 4 stream in memory holds; fails the test unless it parses to
 * its end marker. */
void count_trace(const uint8_t *data, size_t len, trace_counts_t *c);
/* Reads a trace file that must be complete (valid NetTrace 4 with its end marker) and counts
 * what it holds; fails the test otherwise. */
void read_trace_counts(const char *path, trace_counts_t *c);
/* Fails the test unless Ticks 0..n-1 each came exactly once, each with its own text. */
void assert_ticks(const trace_counts_t *c, int n);

#endif
