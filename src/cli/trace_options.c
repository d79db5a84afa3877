/* trace_options.c - the trace options `trace` and `launch --trace` share, so both read provider
 * specs, rundown and buffer settings the same way and write files the same way. */
#define _GNU_SOURCE
#include "trace_options.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
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

/* --buffering-mode: only the two words; conflicts with nothing. */
int trace_opt_buffering_mode(void *dest, const char *arg)
{
    trace_option_state_t *r = dest;
    int block = strcmp(arg, "block") == 0;
    if (!block && strcmp(arg, "drop") != 0) {
        fprintf(stderr, "clrattach: --buffering-mode is drop or block, not '%s'\n", arg);
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

#ifdef _WIN32
/* Windows: no symbolic-link or owner checks (docs/windows.md); an existing file is emptied.
 * Binary mode, or msvcrt would turn every LF byte of the trace into CR LF. */
int trace_output_open(const char *path, const char *flag, int *created)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_BINARY | O_NOINHERIT, 0644);
    *created = fd >= 0;
    if (fd < 0 && errno == EEXIST)
        fd = open(path, O_WRONLY | O_TRUNC | O_BINARY | O_NOINHERIT);
    if (fd < 0)
        fprintf(stderr, "clrattach: cannot write %s: %s\n  what to do: pick a writable path with "
                "%s\n", path, strerror(errno), flag);
    return fd;
}
#else
/* Refuses a path whose last component is a link someone else owns (root's and our own are
 * trusted, as the kernel's protected_symlinks does): a user who can write the directory could
 * otherwise point root's output at any file. 0 to go on, -1 after saying why. */
static int refuse_foreign_link(const char *path, const char *flag)
{
    struct stat sb;
    if (lstat(path, &sb) != 0 || !S_ISLNK(sb.st_mode))
        return 0;
    if (sb.st_uid == geteuid() || sb.st_uid == 0)
        return 0;
    fprintf(stderr, "clrattach: refusing to write %s: it is a symbolic link owned by uid %u, "
            "who could point it at any file\n  what to do: remove it, or pick another path with "
            "%s\n", path, (unsigned)sb.st_uid, flag);
    return -1;
}

/* An existing file is reused only when it is ours; a regular one is then emptied (after the
 * check, not by O_TRUNC, so someone else's file is never cut short). 0, or -1 after saying
 * why. */
static int reuse_existing(int fd, const char *path, const char *flag)
{
    struct stat sb;
    if (fstat(fd, &sb) != 0)
        sb.st_mode = 0; /* unknown: written to, not emptied */
    if (S_ISREG(sb.st_mode) && sb.st_uid != geteuid()) {
        fprintf(stderr, "clrattach: refusing to overwrite %s: it exists and is owned by uid %u, "
                "not by us\n  what to do: remove it, or pick another path with %s\n", path,
                (unsigned)sb.st_uid, flag);
        return -1;
    }
    if (S_ISREG(sb.st_mode) && ftruncate(fd, 0) != 0) {
        fprintf(stderr, "clrattach: cannot empty %s: %s\n  what to do: pick a writable path "
                "with %s\n", path, strerror(errno), flag);
        return -1;
    }
    return 0;
}

int trace_output_open(const char *path, const char *flag, int *created)
{
    /* Whether we made the file decides whether a failed start may remove it: an existing path
     * (a device, a FIFO, a link to someone's file) is never ours to delete. */
    *created = 0;
    if (refuse_foreign_link(path, flag) != 0)
        return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    *created = fd >= 0;
    if (fd < 0 && errno == EEXIST) {
        /* Checked again: a link swapped in since the first look is refused too. */
        if (refuse_foreign_link(path, flag) != 0)
            return -1;
        fd = open(path, O_WRONLY | O_CLOEXEC);
        int refused = fd >= 0 ? reuse_existing(fd, path, flag) : 0;
        if (refused) {
            close(fd);
            return -1;
        }
    }
    if (fd < 0)
        fprintf(stderr, "clrattach: cannot write %s: %s\n  what to do: pick a writable path with "
                "%s\n", path, strerror(errno), flag);
    return fd;
}
#endif

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
