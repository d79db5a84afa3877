/* test_counters_known.c - `clrattach counters list`'s table (counters/counters_known.c): every
 * counter System.Runtime publishes by default is listed with the units the runtime gives it,
 * and the output keeps the documented line format, the same from one run to the next. The
 * expected names and units are what System.Runtime published in EventCounters sessions on
 * 8.0.31, 9.0.20 and 10.0.14 (and, on 9 and 10, as Meter instruments). */
#define _GNU_SOURCE
#include "counters/counters_known.h"
#include "test.h"

#include <stdlib.h>
#include <string.h>

/* name, then units as the runtime sent them ("" for none) */
static const char *const published[][2] = {
    {"cpu-usage", "%"}, {"working-set", "MB"}, {"gc-heap-size", "MB"},
    {"gen-0-gc-count", ""}, {"gen-1-gc-count", ""}, {"gen-2-gc-count", ""},
    {"gen-0-gc-budget", "MB"}, {"threadpool-thread-count", ""},
    {"monitor-lock-contention-count", ""}, {"threadpool-queue-length", ""},
    {"threadpool-completed-items-count", ""}, {"alloc-rate", "B"}, {"active-timer-count", ""},
    {"gc-fragmentation", "%"}, {"gc-committed", "MB"}, {"exception-count", ""},
    {"time-in-gc", "%"}, {"total-pause-time-by-gc", "ms"}, {"gen-0-size", "B"},
    {"gen-1-size", "B"}, {"gen-2-size", "B"}, {"loh-size", "B"}, {"poh-size", "B"},
    {"assembly-count", ""}, {"il-bytes-jitted", "B"}, {"methods-jitted-count", ""},
    {"time-in-jit", "ms"},
};

static const char *const meter_published[] = {
    "dotnet.gc.collections", "dotnet.process.memory.working_set",
    "dotnet.gc.heap.total_allocated", "dotnet.gc.last_collection.memory.committed_size",
    "dotnet.gc.last_collection.heap.size", "dotnet.gc.last_collection.heap.fragmentation.size",
    "dotnet.gc.pause.time", "dotnet.jit.compiled_il.size", "dotnet.jit.compiled_methods",
    "dotnet.jit.compilation.time", "dotnet.monitor.lock_contentions",
    "dotnet.thread_pool.thread.count", "dotnet.thread_pool.work_item.count",
    "dotnet.thread_pool.queue.length", "dotnet.timer.count", "dotnet.assembly.count",
    "dotnet.exceptions", "dotnet.process.cpu.count", "dotnet.process.cpu.time",
};

#define NPUBLISHED (sizeof published / sizeof published[0])
#define NMETER (sizeof meter_published / sizeof meter_published[0])

static char *listing(unsigned major)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    ASSERT(f != NULL);
    counters_known_write(f, major);
    ASSERT(fclose(f) == 0);
    return text;
}

/* Splits line at runs of two or more spaces into at most max columns (the last keeps the
 * rest); the number of columns. */
static int columns(char *line, char **col, int max)
{
    int n = 0;
    char *p = line;
    while (*p && n < max) {
        col[n++] = p;
        char *gap = n < max ? strstr(p, "  ") : NULL;
        if (!gap)
            break;
        *gap = '\0';
        p = gap + 2;
        while (*p == ' ')
            p++;
    }
    return n;
}

/* The units the listing gives counter of provider (kind), or NULL when it is not listed. */
static const char *listed_units(const char *text, const char *provider, const char *kind,
                                const char *counter)
{
    static char units[64];
    char *copy = strdup(text), *save, *line;
    int inside = 0;
    const char *found = NULL;
    for (line = strtok_r(copy, "\n", &save); line && !found; line = strtok_r(NULL, "\n", &save)) {
        char *col[4];
        if (line[0] != ' ' && line[0] != '#') {
            int n = columns(line, col, 3);
            inside = n == 3 && strcmp(col[0], provider) == 0 && strcmp(col[1], kind) == 0;
        } else if (inside && strncmp(line, "    ", 4) == 0 && columns(line + 4, col, 4) == 4 &&
                   strcmp(col[0], counter) == 0) {
            snprintf(units, sizeof units, "%s", strcmp(col[1], "-") == 0 ? "" : col[1]);
            found = units;
        }
    }
    free(copy);
    return found;
}

TEST(counters_list_names_every_system_runtime_counter_the_runtime_publishes_with_its_units)
{
    for (unsigned major = 8; major <= 10; major++) {
        char *text = listing(major);
        for (size_t i = 0; i < NPUBLISHED; i++) {
            const char *units = listed_units(text, "System.Runtime", "EventCounters",
                                             published[i][0]);
            ASSERT_MSG(units, ".NET %u: %s is not listed", major, published[i][0]);
            ASSERT_STREQ(units, published[i][1]);
        }
        for (size_t i = 0; i < NMETER; i++) {
            const char *units = listed_units(text, "System.Runtime", "Meter", meter_published[i]);
            ASSERT_MSG((units != NULL) == (major >= 9), ".NET %u: %s %s listed", major,
                       meter_published[i], units ? "is" : "is not");
        }
        free(text);
    }
}

TEST(counters_list_lines_follow_the_documented_format_and_do_not_change_between_runs)
{
    for (unsigned major = COUNTERS_KNOWN_OLDEST; major <= COUNTERS_KNOWN_NEWEST; major++) {
        char *text = listing(major), *again = listing(major);
        ASSERT_STREQ(text, again);
        char *save, *names = calloc(1, strlen(text) + 2);
        int providers = 0, counters = 0;
        for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            char *col[4];
            if (line[0] == '#')
                continue;
            if (line[0] != ' ') {
                ASSERT_EQ(columns(line, col, 3), 3);
                ASSERT_MSG(strcmp(col[1], "EventCounters") == 0 || strcmp(col[1], "Meter") == 0,
                           "kind '%s'", col[1]);
                ASSERT_EQ(strchr(col[0], ' '), NULL);
                providers++;
                names[0] = '\0'; /* counter names are unique within a provider */
                continue;
            }
            ASSERT_MSG(strncmp(line, "    ", 4) == 0 && line[4] != ' ', "line '%s'", line);
            ASSERT_EQ(columns(line + 4, col, 4), 4);
            ASSERT_EQ(strchr(col[0], ' '), NULL);
            ASSERT_EQ(strchr(col[1], ' '), NULL);
            ASSERT_MSG(strcmp(col[2], "Rate") == 0 || strcmp(col[2], "Metric") == 0 ||
                           strcmp(col[2], "Percentiles") == 0, "shown as '%s'", col[2]);
            ASSERT(strlen(col[3]) > 8);
            char key[160];
            snprintf(key, sizeof key, "|%s|", col[0]);
            ASSERT_MSG(strstr(names, key) == NULL, "%s twice", col[0]);
            strcat(names, key + (names[0] != '\0'));
            counters++;
        }
        ASSERT_MSG(providers >= 5 && counters >= 40, ".NET %u: %d providers, %d counters", major,
                   providers, counters);
        free(names);
        free(text);
        free(again);
    }
}
