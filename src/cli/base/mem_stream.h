/* mem_stream.h - a stdio stream whose bytes end up in memory (the text --json embeds): with
 * open_memstream on Unix (mem_stream_unix.c), a temporary file deleted on close on Windows
 * (mem_stream_win.c), whose C runtime has no memory streams. */
#ifndef CLRA_CLI_MEM_STREAM_H
#define CLRA_CLI_MEM_STREAM_H

#include <stdio.h>

typedef struct mem_stream {
    FILE *f;
    char *text; /* after mem_stream_close: what was written, NUL-terminated, malloc'd */
    size_t len;
} mem_stream_t;

/* The stream to write to, or NULL. */
FILE *mem_stream_open(mem_stream_t *m);
/* Closes it: 0 with m->text (the caller frees it), or -1 (m->text NULL). */
int mem_stream_close(mem_stream_t *m);

#endif
