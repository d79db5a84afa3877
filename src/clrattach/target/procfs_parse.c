/* procfs_parse.c - parsers of /proc texts (status, stat, environ, maps lines). They take
 * text, never a file, so unit tests and fuzzers reach every branch without a process. */
#include "target/procfs.h"
#include "util/small_libc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int clra__parse_nspid(const char *status_text)
{
    const char *p = strncmp(status_text, "NSpid:", 6) == 0 ? status_text : clra__strfind(status_text, "\nNSpid:");
    if (!p)
        return -1;
    p += (*p == '\n') ? 7 : 6;
    long last = -1;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p < '0' || *p > '9')
            break;
        char *end;
        errno = 0;
        long v = strtol(p, &end, 10);
        if (errno || v <= 0 || v > 0x7fffffff)
            return -1;
        last = v;
        p = end;
    }
    return (*p == '\n' || *p == '\0') ? (int)last : -1;
}

int clra__environ_get(const char *environ, size_t len, const char *name, char *out, size_t cap)
{
    size_t nlen = strlen(name);
    const char *p = environ, *end = environ + len;
    while (p < end) {
        const char *entry_end = memchr(p, '\0', (size_t)(end - p));
        size_t elen = entry_end ? (size_t)(entry_end - p) : (size_t)(end - p);
        if (elen > nlen && memcmp(p, name, nlen) == 0 && p[nlen] == '=') {
            size_t vlen = elen - nlen - 1;
            if (vlen >= cap)
                return -1;
            memcpy(out, p + nlen + 1, vlen);
            out[vlen] = '\0';
            return 1;
        }
        p += elen + 1;
    }
    return 0;
}

long long clra__stat_field(const char *stat_text, int want)
{
    const char *p = strrchr(stat_text, ')');
    if (!p || want < 3)
        return -1;
    p++;
    /* After ')' come fields 3 (state) onwards, each preceded by one space. Never step past a
     * NUL: the text may end anywhere. */
    for (int field = 3;; field++) {
        if (*p != ' ')
            return -1;
        p++;
        if (field == want)
            break;
        p = strchr(p, ' ');
        if (!p)
            return -1;
    }
    char *end;
    errno = 0;
    long long v = strtoll(p, &end, 10);
    if (errno || end == p || v < 0 || (*end != ' ' && *end != '\n' && *end != '\0'))
        return -1;
    return v;
}

long long clra__parse_starttime(const char *stat_text)
{
    return clra__stat_field(stat_text, 22);
}

/* Parses the four ids after "label" in a status text ("Uid:\t0\t0\t0\t0"). */
static int parse_ids(const char *text, const char *label, unsigned out[4])
{
    const char *p = clra__strfind(text, label);
    if (!p || (p != text && p[-1] != '\n'))
        return -1;
    p += strlen(label);
    for (int i = 0; i < 4; i++) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || v > 0xFFFFFFFFul)
            return -1;
        out[i] = (unsigned)v;
        p = end;
    }
    return 0;
}

const char *clra__maps_path_start(const char *line)
{
    const char *p = line;
    /* address perms offset dev inode, then padding, then the path (proc(5)) */
    for (int field = 0; field < 5; field++) {
        while (*p == ' ')
            p++;
        if (!*p || *p == '\n')
            return NULL;
        p += strcspn(p, " \n");
    }
    while (*p == ' ')
        p++;
    return p;
}

int clra__maps_line_path(const char *line, char *out, size_t cap)
{
    const char *p = clra__maps_path_start(line);
    size_t len = p ? strcspn(p, "\n") : 0;
    if (!p || *p != '/' || len >= cap)
        return 0;
    memcpy(out, p, len);
    out[len] = '\0';
    return 1;
}

int clra__parse_status(const char *status_text, clra__proc_status_t *out)
{
    unsigned u[4], g[4];
    out->ns_pid = clra__parse_nspid(status_text);
    out->have_uid = parse_ids(status_text, "Uid:", u) == 0;
    out->have_gid = parse_ids(status_text, "Gid:", g) == 0;
    for (int i = 0; i < 4; i++) {
        out->uid[i] = out->have_uid ? (uid_t)u[i] : (uid_t)-1;
        out->gid[i] = out->have_gid ? (gid_t)g[i] : (gid_t)-1;
    }
    return out->have_uid && out->have_gid ? 0 : CLRA_EPROTO;
}

/* The next unsigned decimal of text after blanks, advancing *p; -1 when there is none. By hand
 * (not sscanf) so the static command does not carry the scanf family (12 KB) for one line. */
static long long next_number(const char **p)
{
    *p += strspn(*p, " \t");
    if (**p < '0' || **p > '9')
        return -1;
    char *end;
    unsigned long long v = strtoull(*p, &end, 10);
    *p = end;
    return v > 0xffffffffULL ? -1 : (long long)v;
}

int clra__parse_id_map(const char *map_text, uint32_t id, uint32_t *inside)
{
    const char *line = map_text;
    while (line && *line) {
        const char *p = line;
        long long first = next_number(&p), lower = next_number(&p), count = next_number(&p);
        if (first >= 0 && lower >= 0 && count >= 0 && id >= lower && id - lower < count) {
            *inside = (uint32_t)(first + (id - lower));
            return 1;
        }
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    return 0;
}
