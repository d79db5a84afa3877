/* trace_options.c - the trace options `trace` and `launch --trace` share, so both read provider
 * specs, rundown and buffer settings the same way and write files the same way. */
#define _GNU_SOURCE
#include "trace/trace_options.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* --rundown-keyword: hex, "0x" optional. */
static int parse_hex64(const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 16);
    if (errno || end == text || *end || text[0] == '-') {
        fprintf(stderr, "clrattach: --rundown-keyword wants a hex mask such as 0x80020139, not "
                "'%s'\n", text);
        return -1;
    }
    *out = v;
    return 0;
}

/* The library parses the spec, so trace and launch --trace read it alike. */
int trace_opt_providers(void *dest, const char *spec)
{
    trace_option_state_t *r = dest;
    clra_status_t st;
    int rc = clra_trace_config_parse_providers(r->cfg, spec, &st);
    if (rc)
        fprintf(stderr, "clrattach: bad %s: %s\n", r->providers_flag, cli_vis(st.detail));
    return rc ? -1 : 0;
}

/* The rundown options are only noted here: trace_option_settle weighs them together. */
int trace_opt_rundown(void *dest, const char *arg)
{
    trace_option_state_t *r = dest;
    (void)arg;
    r->rundown_on = 1;
    r->settings++;
    return 0;
}

/* Noted too; a contradiction with --rundown or --rundown-keyword is caught at settle. */
int trace_opt_no_rundown(void *dest, const char *arg)
{
    trace_option_state_t *r = dest;
    (void)arg;
    r->rundown_off = 1;
    r->settings++;
    return 0;
}

/* The mask is kept until settle, which checks it against --no-rundown. */
int trace_opt_rundown_keyword(void *dest, const char *arg)
{
    trace_option_state_t *r = dest;
    r->have_keyword = 1;
    r->settings++;
    return parse_hex64(arg, &r->keyword);
}

/* Conflicts with nothing, so it goes straight into the configuration. */
int trace_opt_no_stackwalk(void *dest, const char *arg)
{
    trace_option_state_t *r = dest;
    (void)arg;
    r->cfg->stackwalk = 0;
    r->settings++;
    return 0;
}

/* --buffer-mb: the runtime refuses more than a terabyte anyway. */
int trace_opt_buffer_mb(void *dest, const char *arg)
{
    trace_option_state_t *r = dest;
    long long v;
    r->settings++;
    if (cli_parse_int("--buffer-mb", arg, 1, 1048576, &v) != 0)
        return -1;
    r->cfg->buffer_mb = (uint32_t)v;
    return 0;
}

/* Kept until settle: the provider it names may come later on the command line. */
static int note_filter(trace_option_state_t *r, const char *arg, int allow)
{
    if (r->filter_count == TRACE_MAX_FILTER_OPTIONS) {
        fprintf(stderr, "clrattach: more than %d event-id filters\n", TRACE_MAX_FILTER_OPTIONS);
        return -1;
    }
    r->filters[r->filter_count] = arg;
    r->filter_allow[r->filter_count++] = allow;
    r->settings++;
    return 0;
}

int trace_opt_event_ids(void *dest, const char *arg)
{
    return note_filter(dest, arg, 1);
}

int trace_opt_exclude_event_ids(void *dest, const char *arg)
{
    return note_filter(dest, arg, 0);
}

/* --buffering-mode: the two words in any case, or 0/1 as dotnet-trace also takes them;
 * conflicts with nothing. */
int trace_opt_buffering_mode(void *dest, const char *arg)
{
    trace_option_state_t *r = dest;
    int block = strcasecmp(arg, "block") == 0 || strcmp(arg, "1") == 0;
    if (!block && strcasecmp(arg, "drop") != 0 && strcmp(arg, "0") != 0) {
        fprintf(stderr, "clrattach: --buffering-mode is drop or block (0 or 1), not '%s'\n",
                cli_vis(arg));
        return -1;
    }
    r->settings++;
    return clra_trace_config_set_buffering(r->cfg, block ? CLRA_TRACE_BUFFERING_BLOCK
                                                         : CLRA_TRACE_BUFFERING_DROP, NULL);
}

/* Only once every option is read can contradictions be told from repetitions. */
int trace_option_settle(const trace_option_state_t *r)
{
    clra_trace_config_t *cfg = r->cfg;
    if (r->rundown_on + r->rundown_off > 1 || (r->rundown_off && r->have_keyword)) {
        fprintf(stderr, "clrattach: give only one of --rundown, --no-rundown, "
                "--rundown-keyword\n");
        return -1;
    }
    if (r->rundown_off)
        cfg->rundown_keyword = 0;
    if (r->have_keyword)
        cfg->rundown_keyword = r->keyword;
    for (int i = 0; i < r->filter_count; i++) {
        clra_status_t st;
        if (clra_trace_config_parse_event_filter(cfg, r->filters[i], r->filter_allow[i], &st)) {
            fprintf(stderr, "clrattach: bad --%s: %s\n",
                    r->filter_allow[i] ? "event-ids" : "exclude-event-ids", st.detail);
            return -1;
        }
    }
    return 0;
}

int trace_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t k = write(fd, p, len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        len -= (size_t)k;
    }
    return 0;
}

int trace_file_sink(void *ctx, const void *data, size_t len)
{
    return trace_write_all(*(const int *)ctx, data, len);
}

const char *trace_state_text(clra_nettrace_state_t s)
{
    return s == CLRA_NETTRACE_VALID ? "valid"
         : s == CLRA_NETTRACE_INCOMPLETE ? "incomplete (no end marker)" : "invalid";
}
