/* nettrace_lines.c - clrattach's decoder's reading of a trace in tracecheck's line format. */
#define _GNU_SOURCE
#include "nettrace_lines.h"

#include "clrattach.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The runtime's providers: their metadata describes no fields, so only counts compare. */
static const char *const runtime_providers[] = {
    "Microsoft-Windows-DotNETRuntime", "Microsoft-Windows-DotNETRuntimeRundown",
    "Microsoft-Windows-DotNETRuntimePrivate", "Microsoft-DotNETCore-SampleProfiler",
    "Microsoft-DotNETCore-EventPipe"};

typedef struct lines {
    char **v;
    size_t n, cap;
    char key[4096][160]; /* "provider id" of each count line, with its count */
    unsigned long long count[4096];
    size_t keys;
    unsigned long long total;
    char path[16][300]; /* the flattened name of each depth */
    char *cur;          /* the payload line being built */
    size_t cur_len, cur_cap;
} lines_t;

static void push(lines_t *l, char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 256;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = s;
}

static void append(lines_t *l, const char *s)
{
    size_t k = strlen(s);
    if (l->cur_len + k + 1 > l->cur_cap) {
        l->cur_cap = (l->cur_len + k + 1) * 2;
        l->cur = realloc(l->cur, l->cur_cap);
    }
    memcpy(l->cur + l->cur_len, s, k + 1);
    l->cur_len += k;
}

/* Flattens as tracecheck does: Struct.Member, Array[i]; doubles as the hex of their bits. */
static int on_value(void *ctx, const clra_nettrace_value_t *v)
{
    lines_t *l = ctx;
    char name[300], text[600];
    int d = v->depth < 15 ? v->depth : 15;
    if (d == 0)
        snprintf(name, sizeof name, "%s", v->name);
    else if (v->field && v->name[0] == '\0')
        snprintf(name, sizeof name, "%.250s[%u]", l->path[d - 1], v->index);
    else
        snprintf(name, sizeof name, "%.250s.%.40s", l->path[d - 1], v->name);
    snprintf(l->path[d], sizeof l->path[d], "%s", name);
    if (v->kind != CLRA_NETTRACE_VALUE)
        return 0;
    clra_nettrace_type_t t = v->field->type;
    if (t == CLRA_NETTRACE_FLOAT || t == CLRA_NETTRACE_DOUBLE) {
        uint64_t bits;
        memcpy(&bits, &v->f, 8);
        snprintf(text, sizeof text, "0x%016llx", (unsigned long long)bits);
    } else {
        clra_nettrace_value_format(v, text, sizeof text);
    }
    append(l, " ");
    append(l, name);
    append(l, "=");
    append(l, text);
    return 0;
}

static int is_runtime(const char *provider)
{
    for (size_t i = 0; i < sizeof runtime_providers / sizeof *runtime_providers; i++)
        if (strcmp(provider, runtime_providers[i]) == 0)
            return 1;
    return 0;
}

static int on_event(void *ctx, const clra_nettrace_event_t *ev)
{
    lines_t *l = ctx;
    char key[160];
    l->total++;
    if (!ev->meta)
        return 0;
    snprintf(key, sizeof key, "%.140s %u", ev->meta->provider, ev->meta->event_id);
    size_t i = 0;
    while (i < l->keys && strcmp(l->key[i], key) != 0)
        i++;
    if (i == l->keys && l->keys < 4096)
        snprintf(l->key[l->keys++], sizeof l->key[0], "%s", key);
    if (i < l->keys)
        l->count[i]++;
    if (is_runtime(ev->meta->provider))
        return 0;
    l->cur_len = 0;
    append(l, "payload ");
    append(l, key);
    clra_status_t st;
    if (clra_nettrace_payload_walk(ev->meta, ev->payload, ev->payload_len, on_value, l, &st))
        append(l, " REFUSED");
    push(l, strdup(l->cur));
    return 0;
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char *nettrace_lines(const char *path, char *why, size_t cap)
{
    lines_t *l = calloc(1, sizeof *l);
    clra_nettrace_callbacks_t cb = {0};
    clra_nettrace_info_t info;
    clra_status_t st;
    cb.event = on_event;
    int rc = clra_nettrace_decode_file(path, &cb, l, &info, &st);
    snprintf(why, cap, "%s", st.detail);
    for (size_t i = 0; i < l->keys; i++) {
        char *s;
        if (asprintf(&s, "count %s %llu", l->key[i], l->count[i]) > 0)
            push(l, s);
    }
    qsort(l->v, l->n, sizeof *l->v, by_bytes);
    size_t total = 64;
    for (size_t i = 0; i < l->n; i++)
        total += strlen(l->v[i]) + 1;
    char *out = rc == 0 ? malloc(total) : NULL, *p = out;
    for (size_t i = 0; i < l->n; i++) {
        if (p)
            p += sprintf(p, "%s\n", l->v[i]);
        free(l->v[i]);
    }
    if (p)
        sprintf(p, "end %llu\n", l->total);
    free(l->v);
    free(l->cur);
    free(l);
    return out;
}
