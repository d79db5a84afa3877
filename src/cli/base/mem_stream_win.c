/* mem_stream_win.c - mem_stream.h through a temporary file in %TEMP% that the C runtime deletes
 * when it is closed ("D"), read back whole before that. */
#include "base/mem_stream.h"

#include <stdlib.h>
#include <windows.h>

FILE *mem_stream_open(mem_stream_t *m)
{
    wchar_t dir[MAX_PATH], path[MAX_PATH];
    m->text = NULL, m->len = 0, m->f = NULL;
    if (GetTempPathW(MAX_PATH, dir) && GetTempFileNameW(dir, L"cla", 0, path) &&
        !(m->f = _wfopen(path, L"w+bTD")))
        DeleteFileW(path); /* GetTempFileNameW made it; no stream will delete it */
    return m->f;
}

int mem_stream_close(mem_stream_t *m)
{
    long size = fflush(m->f) == 0 && fseek(m->f, 0, SEEK_END) == 0 ? ftell(m->f) : -1;
    if (size >= 0 && fseek(m->f, 0, SEEK_SET) == 0 && (m->text = malloc((size_t)size + 1)) &&
        fread(m->text, 1, (size_t)size, m->f) == (size_t)size) {
        m->text[size] = '\0';
        m->len = (size_t)size;
    } else {
        free(m->text);
        m->text = NULL;
    }
    fclose(m->f);
    return m->text ? 0 : -1;
}
