/* trace_options.h - what `trace` and `launch --trace` share: the options that configure a
 * session (providers, rundown, stacks, buffer), the output file, and how a finished file reads. */
#ifndef CLRA_TRACE_OPTIONS_H
#define CLRA_TRACE_OPTIONS_H

#include "cli.h"

#include <getopt.h>

/* getopt_long values of the shared options, above every single-letter option of a verb. */
enum {
    TRACE_OPT_PROVIDERS = 0x100,
    TRACE_OPT_RUNDOWN,
    TRACE_OPT_NO_RUNDOWN,
    TRACE_OPT_RUNDOWN_KEYWORD,
    TRACE_OPT_NO_STACKWALK,
    TRACE_OPT_BUFFER_MB,
};

/* The shared entries of a verb's struct option table; the providers option is named by the
 * verb ("providers" for trace, "trace" for launch). */
#define TRACE_OPTION_ENTRIES(providers_name)                                                   \
    {providers_name, required_argument, 0, TRACE_OPT_PROVIDERS},                               \
        {"rundown", no_argument, 0, TRACE_OPT_RUNDOWN},                                        \
        {"no-rundown", no_argument, 0, TRACE_OPT_NO_RUNDOWN},                                  \
        {"rundown-keyword", required_argument, 0, TRACE_OPT_RUNDOWN_KEYWORD},                  \
        {"no-stackwalk", no_argument, 0, TRACE_OPT_NO_STACKWALK},                              \
        {"buffer-mb", required_argument, 0, TRACE_OPT_BUFFER_MB}

#define TRACE_OPTION_STR_(x) #x
#define TRACE_OPTION_STR(x) TRACE_OPTION_STR_(x)

/* The lines that follow the providers option's own usage line: the spec's syntax. */
#define TRACE_SPEC_USAGE                                                                       \
    "                        Name[:Keywords[:Level[:key=value;key2=value2]]]\n"               \
    "                        Keywords hex (0x optional; empty = 0, which an EventSource\n"    \
    "                        reads as all; * = all 64 bits). Level 0-5 or LogAlways,\n"       \
    "                        Critical, Error, Warning, Informational (default), Verbose.\n"   \
    "                        Double-quote a value holding ';', '=' or ','. May repeat.\n"

/* The usage lines of the shared options other than the providers option itself. */
#define TRACE_OPTION_USAGE                                                                     \
    "  --rundown             end with rundown events (method and module maps; default)\n"     \
    "  --no-rundown          no rundown: smaller, but stacks cannot be resolved\n"            \
    "  --rundown-keyword K   rundown with keyword mask K (hex; .NET 9 or later)\n"            \
    "  --no-stackwalk        no stack with each event (.NET 9 or later)\n"                    \
    "  --buffer-mb N         the runtime's circular buffer in MB (default "                 \
    TRACE_OPTION_STR(CLRA_TRACE_DEFAULT_BUFFER_MB) ")\n"

/* What the options said so far; rundown options are settled once all are read, so that
 * contradictions are caught whatever their order. */
typedef struct trace_option_state {
    const char *providers_flag; /* "--providers" or "--trace", for messages */
    int rundown_on, rundown_off, have_keyword;
    uint64_t keyword;
} trace_option_state_t;

/* Applies option c to cfg: 0 when taken, -1 after saying what is wrong, 1 when c is not one
 * of the shared options. */
int trace_option_take(clra_trace_config_t *cfg, trace_option_state_t *r, int c, const char *arg);
/* Checks the rundown options against each other and applies them; 0 or -1 after saying why. */
int trace_option_settle(clra_trace_config_t *cfg, const trace_option_state_t *r);

/* Creates (truncates) the output file, close-on-exec; -1 after saying what to do, naming the
 * option that chose the path. */
int trace_output_open(const char *path, const char *flag, int *created);
/* A clra_trace_pump/stop sink writing every byte to the file whose descriptor ctx points at. */
int trace_file_sink(void *ctx, const void *data, size_t len);
/* Writes all of data to fd (a trace sink's body); 0, or -1 with errno set. */
int trace_write_all(int fd, const void *data, size_t len);
/* "valid", "incomplete (no end marker)" or "invalid". */
const char *trace_state_text(clra_nettrace_state_t s);

#endif
