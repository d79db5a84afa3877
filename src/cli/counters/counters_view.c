/* counters_view.c - the table, plain lines, JSON and CSV of `clrattach counters`.
 *
 * JSON and CSV follow dotnet-counters' collect files (the same keys, header and counter types
 * "Rate" and "Metric"), with the counter's short name and units added to each JSON event.
 */
#define _GNU_SOURCE
#include "base/cli.h"
#include "base/json_escape.h"
#include "counters/counters_view.h"
#include "base/platform.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* "2026-11-23 22:30:01Z", as dotnet-counters' JSON ("u" format). */
static void stamp(char *out, size_t cap)
{
    time_t now = time(NULL);
    struct tm tm;
    cli_platform_gmtime(now, &tm);
    strftime(out, cap, "%Y-%m-%d %H:%M:%SZ", &tm);
}

/* Whole numbers without decimals, others with up to three. */
static void number(double v, char *out, size_t cap)
{
    if (v > -1e15 && v < 1e15 && v == (double)(long long)v) { /* no libm: see counter_reading.c */
        snprintf(out, cap, "%.0f", v);
        return;
    }
    snprintf(out, cap, "%.3f", v);
    char *e = out + strlen(out);
    while (e > out && e[-1] == '0')
        *--e = '\0';
    if (e > out && e[-1] == '.')
        e[-1] = '\0';
}

/* A CSV field (RFC 4180): its control characters made visible first, so a name the target
 * chose can neither start a record of its own nor drive a terminal; then quoted when it holds a
 * comma or a quote. */
static void csv_text(FILE *f, const char *text)
{
    const char *s = cli_vis(text);
    if (!strpbrk(s, ",\"")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int counters_view_begin(counters_view_t *v)
{
    char when[32];
    v->rows = calloc(COUNTERS_VIEW_MAX, sizeof *v->rows);
    if (!v->rows)
        return -1;
    stamp(when, sizeof when);
    if (v->format == COUNTERS_JSON)
        fprintf(v->f, "{\"TargetProcess\": \"%d\", \"StartTime\": \"%s\", \"Events\": [", v->pid,
                when);
    else if (v->format == COUNTERS_CSV)
        fprintf(v->f, "Timestamp,Provider,Counter Name,Counter Type,Mean/Increment\n");
    fflush(v->f);
    return 0;
}

static void json_event(counters_view_t *v, const clra_counter_reading_t *r, const char *when,
                       const char *value)
{
    fprintf(v->f, "%s\n  {\"timestamp\": \"%s\", \"provider\": \"", v->rows_written++ ? "," : "",
            when);
    cli_json_escape(v->f, r->provider, 0);
    fputs("\", \"name\": \"", v->f);
    cli_json_escape(v->f, r->label, 0);
    fprintf(v->f, "\", \"counterType\": \"%s\", \"value\": %s, \"counter\": \"",
            r->rate ? "Rate" : "Metric", value);
    cli_json_escape(v->f, r->name, 0);
    fputs("\", \"units\": \"", v->f);
    cli_json_escape(v->f, r->units, 0);
    fputs("\", \"tags\": \"", v->f);
    cli_json_escape(v->f, r->tags, 0);
    fputs("\"}", v->f);
}

static void csv_event(counters_view_t *v, const clra_counter_reading_t *r, const char *when,
                      const char *value)
{
    char name[600];
    if (r->tags[0]) {
        snprintf(name, sizeof name, "%s[%s]", r->label, r->tags);
        for (char *p = strchr(name, '['); p && *p; p++)
            if (*p == ',')
                *p = ';';
    } else {
        snprintf(name, sizeof name, "%s", r->label);
    }
    fprintf(v->f, "%s,", when);
    csv_text(v->f, r->provider);
    fputc(',', v->f);
    csv_text(v->f, name);
    fprintf(v->f, ",%s,%s\n", r->rate ? "Rate" : "Metric", value);
}

/* The table row of this counter (and tag set), made on first sight; NULL when full. */
static counters_row_t *row_of(counters_view_t *v, const clra_counter_reading_t *r)
{
    for (size_t i = 0; i < v->nrows; i++)
        if (strcmp(v->rows[i].provider, r->provider) == 0 &&
            strcmp(v->rows[i].name, r->name) == 0 && strcmp(v->rows[i].tags, r->tags) == 0)
            return &v->rows[i];
    if (v->nrows == COUNTERS_VIEW_MAX)
        return NULL;
    counters_row_t *row = &v->rows[v->nrows++];
    snprintf(row->provider, sizeof row->provider, "%s", r->provider);
    snprintf(row->name, sizeof row->name, "%s", r->name);
    snprintf(row->tags, sizeof row->tags, "%s", r->tags);
    return row;
}

void counters_view_add(counters_view_t *v, const clra_counter_reading_t *r)
{
    char when[32], value[64];
    stamp(when, sizeof when);
    number(r->value, value, sizeof value);
    if (v->format == COUNTERS_JSON) {
        json_event(v, r, when, value);
    } else if (v->format == COUNTERS_CSV) {
        csv_event(v, r, when, value);
    } else if (!v->tty) {
        fprintf(v->f, "%s [%s] %s%s%s%s %s\n", when, cli_vis(r->provider), cli_vis(r->label),
                r->tags[0] ? "[" : "", r->tags[0] ? cli_vis(r->tags) : "", r->tags[0] ? "]" : "",
                value);
    } else {
        counters_row_t *row = row_of(v, r);
        if (row) {
            snprintf(row->label, sizeof row->label, "%s", r->label);
            row->value = r->value;
            v->dirty = 1;
        }
    }
    fflush(v->f);
}

void counters_view_notice(counters_view_t *v, const char *msg)
{
    for (int i = 0; i < v->nnotices; i++)
        if (strncmp(v->notices[i], msg, sizeof v->notices[i] - 1) == 0)
            return;
    if (v->nnotices < (int)(sizeof v->notices / sizeof v->notices[0]))
        snprintf(v->notices[v->nnotices++], sizeof v->notices[0], "%s", msg);
    fprintf(stderr, "clrattach counters: %s\n", cli_vis(msg));
}

/* The table as dotnet-counters monitor draws it: providers in brackets, indented rows. */
void counters_view_refresh(counters_view_t *v)
{
    if (v->format != COUNTERS_TABLE || !v->tty || !v->dirty)
        return;
    char value[64], label[600];
    fprintf(v->f, "\033[H\033[J");
    fprintf(v->f, "Press Ctrl-C to quit; process %d, every %u s\n\n%-64s %16s\n", v->pid,
            v->interval_s, "Name", "Current Value");
    for (size_t i = 0; i < v->nrows; i++) {
        counters_row_t *r = &v->rows[i];
        int first = 1;
        for (size_t k = 0; k < i; k++)
            first &= strcmp(v->rows[k].provider, r->provider) != 0;
        if (first)
            fprintf(v->f, "[%s]\n", cli_vis(r->provider));
        snprintf(label, sizeof label, "%s%s%s%s", r->label, r->tags[0] ? " [" : "", r->tags,
                 r->tags[0] ? "]" : "");
        number(r->value, value, sizeof value);
        fprintf(v->f, "    %-60s %16s\n", cli_vis(label), value);
    }
    for (int i = 0; i < v->nnotices; i++) /* the redraw clears what stderr showed */
        fprintf(v->f, "%s%s\n", i ? "" : "\n", cli_vis(v->notices[i]));
    fflush(v->f);
    v->dirty = 0;
}

void counters_view_end(counters_view_t *v)
{
    if (v->format == COUNTERS_JSON)
        fprintf(v->f, "%s]}\n", v->rows_written ? "\n" : "");
    fflush(v->f);
    free(v->rows);
    v->rows = NULL;
}
