/* mem_stream_unix.c - mem_stream.h through open_memstream. */
#define _GNU_SOURCE
#include "base/mem_stream.h"

#include <stdlib.h>

FILE *mem_stream_open(mem_stream_t *m)
{
    m->text = NULL, m->len = 0;
    return m->f = open_memstream(&m->text, &m->len);
}

/* open_memstream's buffer is NUL-terminated already. */
int mem_stream_close(mem_stream_t *m)
{
    if (fclose(m->f) == 0 && m->text)
        return 0;
    free(m->text);
    m->text = NULL;
    return -1;
}
