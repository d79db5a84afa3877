/* hot_app.h - the profiler tests' target, tests/apps/hot, and reading what a profile wrote. */
#ifndef CLRA_HOT_APP_H
#define CLRA_HOT_APP_H

#include "harness.h"

/* Starts tests/apps/hot (with extra_arg's words, split at spaces; may be NULL) on the runtime under test and waits for
 * its "ready" line; a->dir is a fresh directory for outputs (app_stop removes it). */
void hot_start(app_t *a, const char *extra_arg);
/* The whole file (static buffer of 4 MiB, "" when absent). */
const char *slurp(const char *path);
/* a->dir/name (static buffer; the last two stay valid at once). */
const char *out_path(const app_t *a, const char *name);
/* The total% clrattach's top table gives a method, -1 when absent. */
double top_total(const char *table, const char *method);

#endif
