/* convert.h - the output formats of `clrattach convert` (JSON lines here; the CPU-sample
 * formats come with the profiler's writers). */
#ifndef CLRA_CLI_CONVERT_H
#define CLRA_CLI_CONVERT_H

#include "clrattach.h"

#include <stdio.h>

void convert_json_header(FILE *f, const clra_nettrace_header_t *h);
/* One event as one line; pointer_size from the header reads the stack's addresses. */
void convert_json_event(FILE *f, const clra_nettrace_event_t *ev, unsigned pointer_size);

#endif
