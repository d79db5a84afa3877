/* nettrace_lines.h - a .nettrace file as the sorted text lines tests/apps/tracecheck prints for
 * TraceEvent's reading, here from clrattach's decoder, so the two can be compared line by line. */
#ifndef CLRA_E2E_NETTRACE_LINES_H
#define CLRA_E2E_NETTRACE_LINES_H

#include <stddef.h>

/* The lines ("count P ID N", "payload P ID F=V ...", "end N"), '\n'-separated, malloc'ed; or
 * NULL with why (the decoder's verdict) when the file does not decode to its end. */
char *nettrace_lines(const char *path, char *why, size_t cap);

#endif
