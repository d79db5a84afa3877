/* test_counter_reading.c - MetricsEventSource events made by hand, as the runtime lays them out
 * (flat UTF-16 strings), read by clra_counter_readings_get and clra_counter_notice_get: a
 * histogram's Quantiles text becomes one reading per percentile, an up-down counter is shown by
 * its value, and notices go only to the session they concern. The live runtime's events are
 * tested in tests/e2e/test_counters.c. */
#include "clrattach.h"
#include "test.h"

#include <stdio.h>
#include <string.h>

#define MAX_FIELDS 10

typedef struct made {
    clra_nettrace_field_t fields[MAX_FIELDS];
    clra_nettrace_metadata_t meta;
    clra_nettrace_event_t ev;
    uint8_t payload[4096];
} made_t;

/* An event of System.Diagnostics.Metrics named name whose string fields are the NULL-ended
 * name/value pairs, encoded as the runtime writes them: UTF-16LE, NUL-terminated. */
static void make(made_t *m, const char *name, const char *const *pairs)
{
    size_t n = 0, len = 0;
    memset(m, 0, sizeof *m);
    for (; pairs[2 * n]; n++) {
        ASSERT(n < MAX_FIELDS);
        m->fields[n].name = pairs[2 * n];
        m->fields[n].type = CLRA_NETTRACE_STRING;
        for (const char *c = pairs[2 * n + 1];; c++) {
            ASSERT(len + 2 <= sizeof m->payload);
            m->payload[len++] = (uint8_t)*c;
            m->payload[len++] = 0;
            if (!*c)
                break;
        }
    }
    m->meta.provider = "System.Diagnostics.Metrics";
    m->meta.event_name = name;
    m->meta.fields = m->fields;
    m->meta.field_count = n;
    m->meta.opcode = -1;
    m->ev.meta = &m->meta;
    m->ev.payload = m->payload;
    m->ev.payload_len = (uint32_t)len;
}

static made_t m; /* large: kept off the stack */

static int histogram(const char *quantiles, const char *tags, clra_counter_reading_t *out,
                     size_t cap)
{
    const char *pairs[] = {"sessionId", "s1", "meterName", "Shop", "meterVersion", "",
                           "instrumentName", "checkout.duration", "unit", "ms", "tags", tags,
                           "quantiles", quantiles, "count", "3", "sum", "8.5", NULL};
    make(&m, "HistogramValuePublished", pairs);
    return clra_counter_readings_get(&m.ev, 1, out, cap);
}

TEST(counter_readings_give_one_percentile_per_quantile_of_a_histogram)
{
    clra_counter_reading_t r[CLRA_COUNTER_READINGS_MAX];
    ASSERT_EQ(histogram("0.5=1.5;0.95=3;0.99=4", "route=/a", r, CLRA_COUNTER_READINGS_MAX), 3);
    static const double pct[] = {50, 95, 99}, val[] = {1.5, 3, 4};
    static const char *const tags[] = {"route=/a,Percentile=50", "route=/a,Percentile=95",
                                       "route=/a,Percentile=99"};
    for (int i = 0; i < 3; i++) {
        ASSERT_EQ(r[i].percentile, pct[i]);
        ASSERT_EQ(r[i].value, val[i]);
        ASSERT_STREQ(r[i].tags, tags[i]);
        ASSERT_STREQ(r[i].provider, "Shop");
        ASSERT_STREQ(r[i].name, "checkout.duration");
        ASSERT_STREQ(r[i].label, "checkout.duration (ms)");
        ASSERT_STREQ(r[i].session, "s1");
        ASSERT_EQ(r[i].rate, 0);
    }
    /* an interval without measurements, malformed parts, a short array */
    ASSERT_EQ(histogram("", "", r, CLRA_COUNTER_READINGS_MAX), 0);
    ASSERT_EQ(histogram("0.5=;x=3;0.9=2;1.5=7", "", r, CLRA_COUNTER_READINGS_MAX), 1);
    ASSERT_EQ(r[0].percentile, 90);
    ASSERT_STREQ(r[0].tags, "Percentile=90");
    ASSERT_EQ(histogram("0.5=1;0.95=2;0.99=3", "", r, 2), 2);
    ASSERT_EQ(r[1].percentile, 95);
    /* the one-reading call gives the first percentile */
    histogram("0.5=1;0.95=2;0.99=3", "", r, 1);
    ASSERT_EQ(clra_counter_reading_get(&m.ev, 1, &r[0]), 1);
    ASSERT_EQ(r[0].percentile, 50);
    ASSERT_EQ(r[0].value, 1);
}

TEST(counter_readings_show_an_up_down_counter_by_its_value_and_a_counter_by_its_rate)
{
    clra_counter_reading_t r;
    const char *updown[] = {"sessionId", "s1", "meterName", "Shop", "meterVersion", "",
                            "instrumentName", "queue", "unit", "{item}", "tags", "",
                            "rate", "-2", "value", "3", NULL};
    make(&m, "UpDownCounterRateValuePublished", updown);
    ASSERT_EQ(clra_counter_readings_get(&m.ev, 1, &r, 1), 1);
    ASSERT_EQ(r.value, 3);
    ASSERT_EQ(r.rate, 0);
    ASSERT_STREQ(r.label, "queue ({item})");
    const char *counter[] = {"sessionId", "s1", "meterName", "Shop", "meterVersion", "",
                             "instrumentName", "orders", "unit", "", "tags", "",
                             "rate", "5", "value", "40", NULL};
    make(&m, "CounterRateValuePublished", counter);
    ASSERT_EQ(clra_counter_readings_get(&m.ev, 2, &r, 1), 1);
    ASSERT_EQ(r.value, 5);
    ASSERT_EQ(r.rate, 1);
    ASSERT_STREQ(r.label, "orders (Count / 2 sec)");
}

TEST(counter_notices_reach_the_session_they_concern)
{
    char msg[512];
    const char *refused[] = {"runningSessionId", "first", NULL};
    make(&m, "MultipleSessionsNotSupportedError", refused);
    ASSERT_EQ(clra_counter_notice_get(&m.ev, "first", msg, sizeof msg), 0);
    ASSERT_EQ(clra_counter_notice_get(&m.ev, "second", msg, sizeof msg), 1);
    ASSERT_CONTAINS(msg, "another metrics session (first) holds the process's Meters");
    const char *threw[] = {"sessionId", "second", "errorMessage",
                           "System.Exception: boom\n   at Gauge.Read()", NULL};
    make(&m, "ObservableInstrumentCallbackError", threw);
    ASSERT_EQ(clra_counter_notice_get(&m.ev, "first", msg, sizeof msg), 0);
    ASSERT_EQ(clra_counter_notice_get(&m.ev, "second", msg, sizeof msg), 1);
    ASSERT_STREQ(msg, "an observable instrument's callback threw in the process: "
                      "System.Exception: boom");
    const char *limit[] = {"sessionId", "second", NULL};
    make(&m, "HistogramLimitReached", limit);
    ASSERT_EQ(clra_counter_notice_get(&m.ev, "second", msg, sizeof msg), 1);
    ASSERT_CONTAINS(msg, "MaxHistograms");
    make(&m, "GaugeValuePublished", limit); /* a value, not a notice */
    ASSERT_EQ(clra_counter_notice_get(&m.ev, NULL, msg, sizeof msg), 0);
}

/* The providers a counters config enabled, as "Name:keywords:args|..." (args "-" for none). */
static void config_text(const clra_trace_config_t *cfg, char *out, size_t cap)
{
    size_t used = 0;
    out[0] = '\0';
    for (size_t i = 0; i < cfg->provider_count && used < cap; i++)
        used += (size_t)snprintf(out + used, cap - used, "%s:%llx:%s|", cfg->providers[i].name,
                                 (unsigned long long)cfg->providers[i].keywords,
                                 cfg->providers[i].arguments ? cfg->providers[i].arguments : "-");
}

/* System.Runtime is its EventCounters, its Meter or both, as the flags say; other names are
 * always both (an EventSource and a Meter may share a name). */
TEST(counters_config_reads_system_runtime_as_the_flags_say)
{
    static const struct { unsigned flags; const char *want; } cases[] = {
        {0, "System.Runtime:0:EventCounterIntervalSec=1|"},
        {CLRA_COUNTERS_RUNTIME_EVENTCOUNTERS, "System.Runtime:0:EventCounterIntervalSec=1|"},
        {CLRA_COUNTERS_RUNTIME_METER,
         "System.Diagnostics.Metrics:2:SessionId=s;Metrics=System.Runtime;RefreshInterval=1;"
         "MaxTimeSeries=1000;MaxHistograms=10|"},
        {CLRA_COUNTERS_RUNTIME_METER | CLRA_COUNTERS_RUNTIME_EVENTCOUNTERS,
         "System.Runtime:0:EventCounterIntervalSec=1|System.Diagnostics.Metrics:2:SessionId=s;"
         "Metrics=System.Runtime;RefreshInterval=1;MaxTimeSeries=1000;MaxHistograms=10|"},
    };
    char got[1024];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        clra_trace_config_t cfg;
        clra_trace_config_init(&cfg);
        ASSERT_EQ(clra_counters_config2(&cfg, "System.Runtime", 1, "s", cases[i].flags, NULL), 0);
        config_text(&cfg, got, sizeof got);
        ASSERT_STREQ(got, cases[i].want);
        clra_trace_config_free(&cfg);
    }
    clra_trace_config_t cfg;
    clra_trace_config_init(&cfg);
    ASSERT_EQ(clra_counters_config2(&cfg, "System.Runtime,MyMeter", 2, "s",
                                    CLRA_COUNTERS_RUNTIME_METER, NULL), 0);
    config_text(&cfg, got, sizeof got);
    ASSERT_STREQ(got, "MyMeter:0:EventCounterIntervalSec=2|System.Diagnostics.Metrics:2:"
                      "SessionId=s;Metrics=System.Runtime,MyMeter;RefreshInterval=2;"
                      "MaxTimeSeries=1000;MaxHistograms=10|");
    clra_trace_config_free(&cfg);
}
