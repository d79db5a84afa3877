/* trace_options.c - the trace options `trace` and `launch --trace` share, so both read provider
 * specs, rundown and buffer settings the same way and write files the same way. */
#define _GNU_SOURCE
#include "trace_options.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
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

static int take_providers(clra_trace_config_t *cfg, const char *flag, const char *spec)
{
    clra_status_t st;
    int rc = clra_trace_config_parse_providers(cfg, spec, &st);
    if (rc)
        fprintf(stderr, "clrattach: bad %s: %s\n", flag, st.detail);
    return rc ? -1 : 0;
}

int trace_option_take(clra_trace_config_t *cfg, trace_option_state_t *r, int c, const char *arg)
{
    long long v = 0;
    int bad;
    switch (c) {
    case TRACE_OPT_PROVIDERS:
        return take_providers(cfg, r->providers_flag, arg);
    case TRACE_OPT_RUNDOWN:
        r->rundown_on = 1;
        return 0;
    case TRACE_OPT_NO_RUNDOWN:
        r->rundown_off = 1;
        return 0;
    case TRACE_OPT_RUNDOWN_KEYWORD:
        r->have_keyword = 1;
        return parse_hex64(arg, &r->keyword);
    case TRACE_OPT_NO_STACKWALK:
        cfg->stackwalk = 0;
        return 0;
    case TRACE_OPT_BUFFER_MB:
        bad = cli_parse_int("--buffer-mb", arg, 1, 1048576, &v);
        cfg->buffer_mb = (uint32_t)v;
        return bad;
    default:
        return 1;
    }
}

int trace_option_settle(clra_trace_config_t *cfg, const trace_option_state_t *r)
{
    if (r->rundown_on + r->rundown_off > 1 || (r->rundown_off && r->have_keyword)) {
        fprintf(stderr, "clrattach: give only one of --rundown, --no-rundown, "
                "--rundown-keyword\n");
        return -1;
    }
    if (r->rundown_off)
        cfg->rundown_keyword = 0;
    if (r->have_keyword)
        cfg->rundown_keyword = r->keyword;
    return 0;
}

int trace_output_open(const char *path, const char *flag, int *created)
{
    /* Whether we made the file decides whether a failed start may remove it: an existing path
     * (a device, a FIFO, a link to someone's file) is never ours to delete. */
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    *created = fd >= 0;
    if (fd < 0 && errno == EEXIST)
        fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        fprintf(stderr, "clrattach: cannot write %s: %s\n  what to do: pick a writable path with "
                "%s\n", path, strerror(errno), flag);
    return fd;
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
