/* chromium_check.c - see chromium_check.h. */
#define _GNU_SOURCE
#include "chromium_check.h"
#include "json_check.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 256
#define MAX_DEPTH 4096

typedef struct open_thread {
    unsigned long long tid;
    double last_ts;
    size_t depth;
    char *names[MAX_DEPTH];
    double since[MAX_DEPTH];
} open_thread_t;

/* The text of "key":"..." (no escapes expected in what is looked up) into buf. */
static const char *field_text(const char *line, const char *key, char *buf, size_t cap)
{
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *p = strstr(line, pat);
    if (!p)
        return NULL;
    p += strlen(pat);
    const char *e = strchr(p, '"');
    size_t n = e && (size_t)(e - p) < cap ? (size_t)(e - p) : 0;
    memcpy(buf, p, n);
    buf[n] = '\0';
    return e ? buf : NULL;
}

static double field_number(const char *line, const char *key)
{
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(line, pat);
    ASSERT_MSG(p != NULL, "no %s in %.200s", key, line);
    return strtod(p + strlen(pat), NULL);
}

static open_thread_t *thread_of(open_thread_t *t, size_t *n, unsigned long long tid)
{
    for (size_t i = 0; i < *n; i++)
        if (t[i].tid == tid)
            return &t[i];
    ASSERT(*n < MAX_THREADS);
    memset(&t[*n], 0, sizeof t[*n]);
    t[*n].tid = tid;
    return &t[(*n)++];
}

/* One B or E event against its thread's open frames. */
static void check_event(open_thread_t *t, char ph, const char *name, double ts, const char *frame,
                        chromium_summary_t *out, const char *line)
{
    ASSERT_MSG(ts >= t->last_ts, "time goes back on thread %llu: %s", t->tid, line);
    t->last_ts = ts;
    if (ph == 'B') {
        ASSERT(t->depth < MAX_DEPTH);
        t->names[t->depth] = strdup(name);
        t->since[t->depth++] = ts;
        out->begins++;
        out->frame_begins += strcmp(name, frame) == 0;
        return;
    }
    ASSERT_MSG(t->depth > 0, "an E with nothing open: %s", line);
    t->depth--;
    ASSERT_MSG(strcmp(t->names[t->depth], name) == 0, "E of %s closes %s: %s", name,
               t->names[t->depth], line);
    if (strcmp(name, frame) == 0)
        out->frame_ms += (ts - t->since[t->depth]) / 1000.0;
    free(t->names[t->depth]);
    out->ends++;
}

void chromium_check_file(const char *path, const char *frame, chromium_summary_t *out)
{
    static open_thread_t threads[MAX_THREADS];
    size_t nthreads = 0, len = 0;
    char *text = NULL, name[1024], ph[8];
    FILE *f = fopen(path, "r");
    ASSERT_MSG(f != NULL, "no %s", path);
    ASSERT(getdelim(&text, &len, '\0', f) > 0);
    fclose(f);
    ASSERT_MSG(json_is_valid(text), "%s is not one JSON value", path);
    ASSERT_MSG(strncmp(text, "{\"traceEvents\":[", 16) == 0, "%s starts %.40s", path, text);
    memset(out, 0, sizeof *out);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (!field_text(line, "ph", ph, sizeof ph) || (ph[0] != 'B' && ph[0] != 'E'))
            continue;
        ASSERT_MSG(field_text(line, "name", name, sizeof name), "no name: %.200s", line);
        open_thread_t *t = thread_of(threads, &nthreads,
                                     (unsigned long long)field_number(line, "tid"));
        check_event(t, ph[0], name, field_number(line, "ts"), frame, out, line);
    }
    for (size_t i = 0; i < nthreads; i++)
        ASSERT_MSG(threads[i].depth == 0, "thread %llu ends with %zu frames open",
                   threads[i].tid, threads[i].depth);
    out->threads = nthreads;
    free(text);
}
