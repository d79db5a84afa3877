/* format.h - the profile formats by name and file extension, and the one call that writes any of
 * them (format.c): the verbs choose here, the writers (writers.h) never look back. */
#ifndef CLRA_CLI_RENDER_FORMAT_H
#define CLRA_CLI_RENDER_FORMAT_H

#include "render/writers.h"

enum profile_format { FMT_FLAMEGRAPH, FMT_FOLDED, FMT_SPEEDSCOPE, FMT_PPROF, FMT_PPROF_GZ, FMT_TOP,
                      FMT_CHROMIUM };
/* The format a file name asks for (.html, .folded/.txt, .speedscope.json/.json, .pb, .pb.gz),
 * -1 when the extension names none. */
int profile_format_from_path(const char *path);
/* Parses a --format word (flamegraph|folded|speedscope|pprof|top|chromium); -1 unknown. */
int profile_format_parse(const char *word);

/* Writes the format fmt. */
int profile_write(const profile_t *p, const profile_write_opts_t *o, int fmt, FILE *f);

#endif
