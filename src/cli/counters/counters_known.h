/* counters_known.h - the well-known counter providers `clrattach counters list` shows: names,
 * units and kinds as the runtime publishes them, descriptions in clrattach's words. */
#ifndef CLRA_CLI_COUNTERS_KNOWN_H
#define CLRA_CLI_COUNTERS_KNOWN_H

#include <stdio.h>

#define COUNTERS_KNOWN_NEWEST 10 /* the newest .NET major version the table knows */
#define COUNTERS_KNOWN_OLDEST 6

typedef struct known_counter {
    const char *name;  /* "cpu-usage", "http.server.request.duration" */
    const char *units; /* "%", "MB", "s", "{request}"; "" for none */
    const char *shown; /* how counters shows it: "Rate", "Metric" or "Percentiles" */
    unsigned since;    /* the first .NET major version that publishes it (0: every one) */
    const char *what;
} known_counter_t;

typedef struct known_provider {
    const char *name;  /* what --counters takes */
    const char *kind;  /* "EventCounters" or "Meter" */
    unsigned since;
    const char *what;
    const known_counter_t *counters; /* ended by a NULL name */
} known_provider_t;

/* The table, ended by a NULL name. */
extern const known_provider_t counters_known[];

/* Writes the providers and counters .NET `major` publishes: a provider per line ("NAME  KIND
 * WHAT"), then its counters indented four spaces ("NAME  UNITS  SHOWN  WHAT", "-" for no
 * units), columns two spaces apart at least; lines starting with '#' are comments. */
void counters_known_write(FILE *f, unsigned major);

#endif
