/* format.c - which format a --format word or a file name asks for, and writing it. */
#include "render/format.h"

#include <string.h>

/* Whether s ends with suffix: the file name's extension picks the format. */
static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Longer extensions first: .chromium.json before .json, .pb.gz before .pb. */
int profile_format_from_path(const char *path)
{
    if (ends_with(path, ".html") || ends_with(path, ".htm"))
        return FMT_FLAMEGRAPH;
    if (ends_with(path, ".folded") || ends_with(path, ".collapsed") || ends_with(path, ".txt"))
        return FMT_FOLDED;
    if (ends_with(path, ".chromium.json"))
        return FMT_CHROMIUM;
    if (ends_with(path, ".json"))
        return FMT_SPEEDSCOPE;
    if (ends_with(path, ".pb.gz"))
        return FMT_PPROF_GZ;
    if (ends_with(path, ".pb") || ends_with(path, ".pprof"))
        return FMT_PPROF;
    return -1;
}

/* The index of a word is its enum profile_format value (pprof.gz has no word of its own). */
int profile_format_parse(const char *word)
{
    static const char *const names[] = {"flamegraph", "folded", "speedscope", "pprof", NULL, "top",
                                        "chromium"};
    for (int i = 0; i < 7; i++)
        if (names[i] && strcmp(word, names[i]) == 0)
            return i;
    return -1;
}

/* One switch over the writers, so the verbs name a format and never a writer. */
int profile_write(const profile_t *p, const profile_write_opts_t *o, int fmt, FILE *f)
{
    switch (fmt) {
    case FMT_FLAMEGRAPH: return profile_write_flamegraph(p, o, f);
    case FMT_FOLDED: return profile_write_folded(p, o, f);
    case FMT_SPEEDSCOPE: return profile_write_speedscope(p, o, f);
    case FMT_PPROF: return profile_write_pprof(p, o, 0, f);
    case FMT_PPROF_GZ: return profile_write_pprof(p, o, 1, f);
    case FMT_TOP: return profile_write_top(p, o, f);
    case FMT_CHROMIUM: return profile_write_chromium(p, o, f);
    }
    return -1;
}
