/* chromium_check.h - reads a Chrome trace-event file as clrattach writes it (one event per line)
 * and checks what any viewer needs: one valid JSON value, B and E events that nest per thread
 * with times that never go back. Test code only. */
#ifndef CLRA_E2E_CHROMIUM_CHECK_H
#define CLRA_E2E_CHROMIUM_CHECK_H

#include <stddef.h>

typedef struct chromium_summary {
    size_t begins, ends, threads;
    size_t frame_begins;  /* B events of the frame asked about */
    double frame_ms;      /* the time the frame was open, summed over its durations */
} chromium_summary_t;

/* Fails the test (naming path and the line) when the file is not as above; fills *out for the
 * frame named frame. */
void chromium_check_file(const char *path, const char *frame, chromium_summary_t *out);

#endif
