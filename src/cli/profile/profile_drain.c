/* profile_drain.c - reading the sampler's drains into a profile: frames and threads arrive once
 * (F and T lines, numbered by the target), stacks arrive per interval (S lines). */
#include "profile/profile_drain.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Reads an unsigned decimal and the space or end after it; -1 when there is none. */
static int take_u64(char **at, uint64_t *out)
{
    char *end;
    if (**at < '0' || **at > '9')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(*at, &end, 10);
    if (errno || (*end != ' ' && *end != '\0'))
        return -1;
    *out = v;
    *at = *end ? end + 1 : end;
    return 0;
}

static int grow(void **buf, size_t *n, size_t want, size_t each)
{
    if (want <= *n)
        return 0;
    void *b = realloc(*buf, want * each);
    if (!b)
        return -1;
    memset((char *)b + *n * each, 0xFF, (want - *n) * each); /* unknown until announced */
    *buf = b, *n = want;
    return 0;
}

/* F INDEX NAME */
static int take_frame(profile_t *p, drain_map_t *m, char *at)
{
    uint64_t idx;
    if (take_u64(&at, &idx) || idx > 100000000 ||
        grow((void **)&m->frames, &m->nframes, idx + 1, sizeof *m->frames))
        return -1;
    m->frames[idx] = profile_frame(p, at);
    return m->frames[idx] == UINT32_MAX ? -1 : 0;
}

/* T INDEX TID NAME */
static int take_thread(profile_t *p, drain_map_t *m, char *at)
{
    uint64_t idx, tid;
    if (take_u64(&at, &idx) || take_u64(&at, &tid) || idx > 1000000 ||
        grow((void **)&m->threads, &m->nthreads, idx + 1, sizeof *m->threads))
        return -1;
    m->threads[idx] = profile_thread(p, tid, at);
    return m->threads[idx] < 0 ? -1 : 0;
}

/* S THREAD COUNT WEIGHT F0 F1 ... */
static int take_stack(profile_t *p, drain_map_t *m, char *at)
{
    uint64_t th, count, weight, fr;
    uint32_t frames[8200], n = 0;
    if (take_u64(&at, &th) || take_u64(&at, &count) || take_u64(&at, &weight) ||
        th >= m->nthreads || m->threads[th] < 0)
        return -1;
    while (*at) {
        if (n == sizeof frames / sizeof *frames || take_u64(&at, &fr) || fr >= m->nframes ||
            m->frames[fr] == UINT32_MAX)
            return -1;
        frames[n++] = m->frames[fr];
    }
    m->samples += count;
    return profile_add(p, m->threads[th], frames, n, count, weight);
}

int drain_parse(profile_t *p, drain_map_t *m, char *payload, size_t len, char *why, size_t cap)
{
    size_t line_no = 0;
    for (char *line = payload, *end; line < payload + len; line = end + 1) {
        end = memchr(line, '\n', (size_t)(payload + len - line));
        if (!end)
            end = payload + len;
        *end = '\0';
        line_no++;
        int rc = 0;
        uint64_t dropped;
        char *at = line + 2;
        if (line[0] && line[1] != ' ')
            rc = -1;
        else if (line[0] == 'I')
            snprintf(m->info, sizeof m->info, "%s", at);
        else if (line[0] == 'F')
            rc = take_frame(p, m, at);
        else if (line[0] == 'T')
            rc = take_thread(p, m, at);
        else if (line[0] == 'S')
            rc = take_stack(p, m, at);
        else if (line[0] == 'D')
            rc = take_u64(&at, &dropped) ? -1 : (m->dropped += dropped, 0);
        if (rc) {
            snprintf(why, cap, "line %zu of the sampler's answer is malformed: %.60s", line_no, line);
            return -1;
        }
    }
    return 0;
}

/* Frees the index maps only: the statistics (info, dropped, samples) are what the command
 * reports after the session ends. */
void drain_map_free(drain_map_t *m)
{
    free(m->frames);
    free(m->threads);
    m->frames = NULL, m->threads = NULL; /* the statistics stay: the report reads them after */
    m->nframes = m->nthreads = 0;
}
