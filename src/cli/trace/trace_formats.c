/* trace_formats.c - `clrattach trace --format`: the .nettrace is always written; each other
 * format asked for is converted from it when the recording ends, with convert's decoder and
 * writers, into a file beside it named as dotnet-trace names its conversions (the .nettrace
 * extension replaced: trace.speedscope.json, trace.chromium.json, ...). */
#define _GNU_SOURCE
#include "convert/convert.h"
#include "render/format.h"
#include "trace/trace_record.h"

#include <string.h>

typedef struct trace_format_name {
    const char *word, *extension;
    int fmt; /* render/profile.h's FMT_*, -1 for nettrace */
} trace_format_name_t;

static const trace_format_name_t names[TRACE_FORMATS] = {
    {"nettrace", ".nettrace", -1},
    {"speedscope", ".speedscope.json", FMT_SPEEDSCOPE},
    {"chromium", ".chromium.json", FMT_CHROMIUM},
    {"flamegraph", ".html", FMT_FLAMEGRAPH},
    {"folded", ".folded", FMT_FOLDED},
    {"pprof", ".pb.gz", FMT_PPROF_GZ},
};

/* Each comma-separated word sets its bit; the words are dotnet-trace's, any case. */
int trace_opt_format(void *dest, const char *arg)
{
    unsigned *mask = dest;
    char word[32];
    for (const char *p = arg;; p++) {
        size_t n = strcspn(p, ",");
        int found = -1;
        for (int i = 0; i < TRACE_FORMATS && n < sizeof word; i++)
            if (strncasecmp(p, names[i].word, n) == 0 && names[i].word[n] == '\0')
                found = i;
        if (found < 0) {
            snprintf(word, sizeof word, "%.*s", (int)(n < 31 ? n : 31), p);
            fprintf(stderr, "clrattach: --format is nettrace, speedscope, chromium, flamegraph, "
                    "folded or pprof (comma-separated or repeated), not '%s'\n", cli_vis(word));
            return -1;
        }
        *mask |= 1u << found;
        p += n;
        if (!*p)
            return 0;
    }
}

/* The nettrace path with its last extension replaced by the format's (appended when the name
 * has none). 0, or -1 when it does not fit. */
static int converted_path(const char *nettrace, int format, char *out, size_t cap)
{
    const char *base = strrchr(nettrace, '/');
    base = base ? base + 1 : nettrace;
    const char *dot = strrchr(base, '.');
    size_t keep = dot && dot != base ? (size_t)(dot - nettrace) : strlen(nettrace);
    return snprintf(out, cap, "%.*s%s", (int)keep, nettrace, names[format].extension) <
                   (int)cap ? 0 : -1;
}

int trace_convert_formats(const trace_opts_t *o, trace_converted_t *done)
{
    return trace_convert_file(o->output, o->formats, o->json ? NULL : stdout, "--output",
                              "clrattach trace", done);
}

int trace_convert_file(const char *nettrace, unsigned formats, FILE *say, const char *flag,
                       const char *who, trace_converted_t *done)
{
    int fmts[TRACE_FORMATS], codes[TRACE_FORMATS], n = 0, failed = 0;
    const char *paths[TRACE_FORMATS];
    done->count = 0;
    for (int i = 1; i < TRACE_FORMATS; i++) {
        if (!(formats & (1u << i)))
            continue;
        trace_conversion_t *c = &done->items[done->count++];
        c->format = names[i].word;
        c->ok = converted_path(nettrace, i, c->path, sizeof c->path) == 0;
        if (!c->ok)
            fprintf(stderr, "%s: the %s file's name would be too long\n", who, c->format);
        else
            fmts[n] = names[i].fmt, paths[n++] = c->path;
    }
    /* One read of the trace for every format. */
    if (n)
        convert_samples_each(nettrace, fmts, paths, codes, n, flag, who);
    for (int i = 0, k = 0; i < done->count; i++) {
        trace_conversion_t *c = &done->items[i];
        if (c->ok) /* a cut trace (EXIT_CONNECTION) still gives what came before */
            c->ok = codes[k] == 0 || codes[k] == EXIT_CONNECTION, k++;
        failed |= !c->ok;
        if (c->ok && say)
            fprintf(say, "%s%swrote %s (%s, from the trace's CPU samples)\n",
                    say == stderr ? who : "", say == stderr ? ": " : "", c->path, c->format);
    }
    if (say)
        fflush(say);
    return failed ? -1 : 0;
}
