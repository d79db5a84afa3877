/* convert.h - the output formats of `clrattach convert`: JSON lines of every event, and the
 * CPU samples in the profile formats of `clrattach profile`. */
#ifndef CLRA_CLI_CONVERT_H
#define CLRA_CLI_CONVERT_H

#include "clrattach.h"

#include <stdio.h>

void convert_json_header(FILE *f, const clra_nettrace_header_t *h);
/* One event as one line; pointer_size from the header reads the stack's addresses. */
void convert_json_event(FILE *f, const clra_nettrace_event_t *ev, unsigned pointer_size);

/* The trace's CPU samples in a profile format (render/profile.h's FMT_*) to output (stdout
 * when NULL); who prefixes the messages ("clrattach convert"). An exit code: 0, EXIT_USAGE
 * (unreadable, no samples), EXIT_CONNECTION (truncated or corrupt: what came before is
 * written), EXIT_INTERNAL (writing failed). */
int convert_samples(const char *input, int fmt, const char *output, const char *who);
/* The same for n formats from one read of the trace: codes[i] is output i's exit code; returns
 * the first nonzero one, 0 when all were written. flag names the option the outputs' paths
 * come from, for the advice when one cannot be written. */
int convert_samples_each(const char *input, const int *fmts, const char *const *outputs,
                         int *codes, int n, const char *flag, const char *who);

/* What reading input failed of (rc, st from the library), on stderr after "WHO: ": its detail,
 * or for memory, which may leave none, that memory ran out and what to do. */
void convert_say_failure(const char *who, const char *input, int rc, const clra_status_t *st);

#endif
