/* trace_options.h - what `trace` and `launch --trace` share: the options that configure a
 * session (providers, rundown, stacks, buffer), the output file, and how a finished file reads. */
#ifndef CLRA_TRACE_OPTIONS_H
#define CLRA_TRACE_OPTIONS_H

#include "base/cli.h"
#include "base/options.h"

#define TRACE_MAX_FILTER_OPTIONS 64 /* --event-ids and --exclude-event-ids together */

/* What the options said so far; rundown options are settled once all are read, so that
 * contradictions are caught whatever their order. */
typedef struct trace_option_state {
    clra_trace_config_t *cfg;   /* where the settings go; set before parsing */
    const char *providers_flag; /* "--providers" or "--trace", for messages */
    int rundown_on, rundown_off, have_keyword;
    int settings;               /* how many options other than the providers were given */
    uint64_t keyword;
    /* --event-ids / --exclude-event-ids in order, applied at settle (after every provider) */
    const char *filters[TRACE_MAX_FILTER_OPTIONS];
    int filter_allow[TRACE_MAX_FILTER_OPTIONS];
    int filter_count;
} trace_option_state_t;

/* The option-table actions of the shared options; dest is a trace_option_state_t. */
int trace_opt_providers(void *dest, const char *arg);
int trace_opt_rundown(void *dest, const char *arg);
int trace_opt_no_rundown(void *dest, const char *arg);
int trace_opt_rundown_keyword(void *dest, const char *arg);
int trace_opt_no_stackwalk(void *dest, const char *arg);
int trace_opt_buffer_mb(void *dest, const char *arg);
int trace_opt_event_ids(void *dest, const char *arg);
int trace_opt_exclude_event_ids(void *dest, const char *arg);
int trace_opt_buffering_mode(void *dest, const char *arg);

/* The help of the providers option after its first words: the spec's syntax. */
#define TRACE_SPEC_HELP                                                                        \
    "\nName[:Keywords[:Level[:key=value;key2=value2]]]\nKeywords hex (0x optional; empty = 0, " \
    "which an EventSource reads as all; * = all 64 bits). Level 0-5 or LogAlways, Critical, "  \
    "Error, Warning, Informational (default), Verbose. Double-quote a value holding ';', '=' " \
    "or ','. May repeat."

/* The providers option, named by the verb ("providers" for trace, "trace" for launch); req:
 * the verb cannot do without it (trace). */
#define TRACE_PROVIDERS_OPTION(name, req, type, field, help)                                   \
    {name, 0, CLI_OPT_CALL, CLI_ARG_REQUIRED, 0, req, offsetof(type, field), "SPEC", help, 0, 0, \
     trace_opt_providers}

/* The table rows of the shared settings; field is the verb's trace_option_state_t. */
#define TRACE_SETTING_OPTIONS(type, field)                                                     \
    CLI_CALL("rundown", CLI_ARG_NONE, type, field, NULL, trace_opt_rundown,                    \
             "end with rundown events (method and module maps; default)"),                    \
    CLI_CALL("no-rundown", CLI_ARG_NONE, type, field, NULL, trace_opt_no_rundown,              \
             "no rundown: smaller, but stacks cannot be resolved"),                           \
    CLI_CALL("rundown-keyword", CLI_ARG_REQUIRED, type, field, "K", trace_opt_rundown_keyword, \
             "rundown with keyword mask K (hex; .NET 9 or later)"),                           \
    CLI_CALL("no-stackwalk", CLI_ARG_NONE, type, field, NULL, trace_opt_no_stackwalk,          \
             "no stack with each event (.NET 9 or later)"),                                   \
    CLI_CALL("buffer-mb", CLI_ARG_REQUIRED, type, field, "N", trace_opt_buffer_mb,             \
             "the runtime's circular buffer in MB (default "                                 \
             CLI_STR(CLRA_TRACE_DEFAULT_BUFFER_MB) ")"),                                     \
    CLI_CALL("event-ids", CLI_ARG_REQUIRED, type, field, "NAME:IDS", trace_opt_event_ids,      \
             "only these event ids (decimal, comma-separated) of provider NAME, which "       \
             "--providers names too (CollectTracing5, .NET 10 or later). May repeat"),        \
    CLI_CALL("exclude-event-ids", CLI_ARG_REQUIRED, type, field, "NAME:IDS",                   \
             trace_opt_exclude_event_ids,                                                     \
             "every event id of provider NAME but these (.NET 10 or later). May repeat"),     \
    CLI_CALL("buffering-mode", CLI_ARG_REQUIRED, type, field, "MODE",                         \
             trace_opt_buffering_mode,                                                        \
             "drop (default): the runtime drops events when its buffer is full; block: the "  \
             "app's threads wait instead (CollectTracing6, .NET 11 or later)")

/* Checks the rundown options against each other and applies them; 0 or -1 after saying why. */
int trace_option_settle(const trace_option_state_t *r);

/* A clra_trace_pump/stop sink writing every byte to the file whose descriptor ctx points at. */
int trace_file_sink(void *ctx, const void *data, size_t len);
/* Writes all of data to fd (a trace sink's body); 0, or -1 with errno set. */
int trace_write_all(int fd, const void *data, size_t len);
/* "valid", "incomplete (no end marker)" or "invalid". */
const char *trace_state_text(clra_nettrace_state_t s);

#endif
