/* heap_file_text.h - what the heap file's unit tests (test_heap_file.c, test_heap_diff.c)
 * share: hand-written snapshot text put in a temporary file, since heap_load reads a path.
 * Test code only: static functions in a header. */
#ifndef CLRA_HEAP_FILE_TEXT_H
#define CLRA_HEAP_FILE_TEXT_H

#include "heap/heap_view.h"
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HFT_UNUSED __attribute__((unused))

/* text into a fresh temporary file; its path (static buffer). */
static HFT_UNUSED const char *file_of(const char *text, size_t len)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/clra-heap-file-XXXXXX");
    int fd = mkstemp(path);
    ASSERT(fd >= 0);
    ASSERT_EQ(write(fd, text, len), (ssize_t)len);
    close(fd);
    return path;
}

/* heap_load of text: 0 or -1 as heap_load says. */
static HFT_UNUSED int load_text(const char *text, heap_list_t *l)
{
    const char *path = file_of(text, strlen(text));
    int rc = heap_load(path, l);
    unlink(path);
    return rc;
}

#endif
