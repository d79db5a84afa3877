/* counter_reading.c - EventCounters and Meter events to one clra_counter_reading_t.
 *
 * EventCounters (any EventSource): a struct "Payload" holding Name, DisplayName, DisplayUnits,
 * CounterType ("Mean" or "Sum"), Mean or Increment, IntervalSec and Series ("Interval=1000").
 * System.Diagnostics.Metrics (MetricsEventSource): flat strings sessionId, meterName,
 * instrumentName, unit, tags, and rate (counters), rate and value (up-down counters), lastValue
 * (gauges) or quantiles ("0.5=1;0.95=2;0.99=3", histograms), numbers as text.
 * Labels as dotnet-counters writes them: "Name (Units / N sec)" for rates ("Count" when the
 * counter has no units), "Name (Units)" or "Name" otherwise.
 */
#define _GNU_SOURCE
#include "clrattach.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fields {
    clra_counter_reading_t *r;
    char display[160], type[16], series[64], value_text[64], total_text[64], quantiles[512];
    double mean, increment;
    int have_mean, have_increment;
} fields_t;

static void copy(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

/* Takes the members it knows, at any depth (the struct's name differs between writers). */
static int take(void *ctx, const clra_nettrace_value_t *v)
{
    fields_t *f = ctx;
    clra_counter_reading_t *r = f->r;
    if (v->kind != CLRA_NETTRACE_VALUE)
        return 0;
    const char *n = v->name, *t = v->text ? v->text : "";
    if (v->field->type == CLRA_NETTRACE_DOUBLE || v->field->type == CLRA_NETTRACE_FLOAT) {
        if (strcmp(n, "Mean") == 0)
            f->mean = v->f, f->have_mean = 1;
        else if (strcmp(n, "Increment") == 0)
            f->increment = v->f, f->have_increment = 1;
        else if (strcmp(n, "IntervalSec") == 0)
            r->interval_s = v->f;
        return 0;
    }
    if (strcmp(n, "Name") == 0 || strcmp(n, "instrumentName") == 0)
        copy(r->name, sizeof r->name, t);
    else if (strcmp(n, "DisplayName") == 0)
        copy(f->display, sizeof f->display, t);
    else if (strcmp(n, "DisplayUnits") == 0 || strcmp(n, "unit") == 0)
        copy(r->units, sizeof r->units, t);
    else if (strcmp(n, "CounterType") == 0)
        copy(f->type, sizeof f->type, t);
    else if (strcmp(n, "Series") == 0)
        copy(f->series, sizeof f->series, t);
    else if (strcmp(n, "meterName") == 0)
        copy(r->provider, sizeof r->provider, t);
    else if (strcmp(n, "tags") == 0)
        copy(r->tags, sizeof r->tags, t);
    else if (strcmp(n, "sessionId") == 0)
        copy(r->session, sizeof r->session, t);
    else if (strcmp(n, "rate") == 0 || strcmp(n, "lastValue") == 0)
        copy(f->value_text, sizeof f->value_text, t);
    else if (strcmp(n, "value") == 0)
        copy(f->total_text, sizeof f->total_text, t);
    else if (strcmp(n, "quantiles") == 0)
        copy(f->quantiles, sizeof f->quantiles, t);
    return 0;
}

/* "Interval=1000" (ms) as seconds, else IntervalSec rounded; at least 1. Rounded by hand so
 * the library needs no libm (clang, unlike gcc, leaves floor() to it). */
static double interval_of(const fields_t *f)
{
    const char *p = strstr(f->series, "Interval=");
    double sec = f->r->interval_s;
    double s = p ? atof(p + 9) / 1000.0 : sec > 0 && sec < 1e9 ? (double)(long)(sec + 0.5) : 1;
    return s >= 1 ? s : 1;
}

static void label(clra_counter_reading_t *r, const char *display, double interval)
{
    const char *name = display[0] ? display : r->name;
    if (r->rate)
        snprintf(r->label, sizeof r->label, "%.150s (%.30s / %g sec)", name,
                 r->units[0] ? r->units : "Count", interval);
    else if (r->units[0])
        snprintf(r->label, sizeof r->label, "%.150s (%.30s)", name, r->units);
    else
        snprintf(r->label, sizeof r->label, "%.150s", name);
}

/* EventCounters: the provider is the event's; Sum is a rate of Increment, else Mean. */
static int event_counter(const clra_nettrace_event_t *ev, fields_t *f)
{
    clra_counter_reading_t *r = f->r;
    copy(r->provider, sizeof r->provider, ev->meta->provider);
    r->rate = strcmp(f->type, "Sum") == 0;
    if (!r->name[0] || (r->rate ? !f->have_increment : !f->have_mean))
        return CLRA_EPROTO;
    r->value = r->rate ? f->increment : f->mean;
    label(r, f->display, interval_of(f));
    return 1;
}

/* One reading per "q=v" of a histogram's quantiles, each tagged "Percentile=P"; the count. */
static int percentiles(const fields_t *f, double interval, clra_counter_reading_t *out,
                       size_t cap)
{
    size_t n = 0;
    clra_counter_reading_t base = *f->r; /* out[0], which the first percentile overwrites */
    for (const char *p = f->quantiles; *p && n < cap;) {
        size_t len = strcspn(p, ";");
        char *eq, *end;
        double q = strtod(p, &eq), v = *eq == '=' ? strtod(eq + 1, &end) : 0;
        if (*eq == '=' && end > eq + 1 && end == p + len && q > 0 && q <= 1) {
            clra_counter_reading_t *r = &out[n++];
            *r = base;
            r->percentile = q * 100;
            r->value = v;
            r->interval_s = interval;
            snprintf(r->tags, sizeof r->tags, "%.200s%sPercentile=%g", base.tags,
                     base.tags[0] ? "," : "", r->percentile);
            label(r, "", interval);
        }
        p += len + (p[len] == ';');
    }
    return (int)n;
}

/* Which MetricsEventSource event carries values: 1 rate, 2 up-down, 3 gauge, 4 histogram. */
static int meter_kind(const clra_nettrace_metadata_t *m)
{
    static const char *const names[] = {"CounterRateValuePublished",
                                        "UpDownCounterRateValuePublished", "GaugeValuePublished",
                                        "HistogramValuePublished"};
    if (!m || strcmp(m->provider, "System.Diagnostics.Metrics") != 0)
        return 0;
    for (int i = 0; i < 4; i++)
        if (strcmp(m->event_name, names[i]) == 0)
            return i + 1;
    return 0;
}

int clra_counter_readings_get(const clra_nettrace_event_t *ev, double meter_interval_s,
                              clra_counter_reading_t *out, size_t cap)
{
    if (!ev || !out || cap == 0)
        return CLRA_EINVAL;
    const clra_nettrace_metadata_t *m = ev->meta;
    int counters = m && strcmp(m->event_name, "EventCounters") == 0, kind = meter_kind(m);
    if (!counters && !kind)
        return 0;
    memset(out, 0, sizeof *out);
    fields_t f = {.r = out};
    if (clra_nettrace_payload_walk(m, ev->payload, ev->payload_len, take, &f, NULL) != 0)
        return CLRA_EPROTO;
    if (counters)
        return event_counter(ev, &f);
    double interval = meter_interval_s > 0 ? meter_interval_s : 1;
    if (!out->name[0])
        return 0;
    if (kind == 4)
        return percentiles(&f, interval, out, cap);
    /* an up-down counter is shown by its value (a rate of it says little) when it has one */
    const char *text = kind == 2 && f.total_text[0] ? f.total_text : f.value_text;
    char *end;
    out->value = strtod(text, &end);
    if (end == text)
        return 0; /* a rate not measured yet is published as "" */
    out->rate = kind == 1;
    out->interval_s = interval;
    label(out, "", out->interval_s);
    return 1;
}

int clra_counter_reading_get(const clra_nettrace_event_t *ev, double meter_interval_s,
                             clra_counter_reading_t *out)
{
    clra_counter_reading_t all[CLRA_COUNTER_READINGS_MAX];
    if (!out)
        return CLRA_EINVAL;
    int n = clra_counter_readings_get(ev, meter_interval_s, all, CLRA_COUNTER_READINGS_MAX);
    if (n > 0)
        *out = all[0];
    return n > 1 ? 1 : n;
}
