/* trace_providers.c - dotnet-trace's provider list syntax, parsed strictly.
 *
 *   Name[:Keywords[:Level[:Arguments]]][,Name...]
 *
 * Keywords are hex ("0x" optional); empty means 0, which an EventSource reads as "every
 * keyword" (native runtime providers read it as "only events without keywords"), and "*" sets
 * all 64 bits. Level is 0-5 or its name; empty means Informational (current dotnet-trace
 * defaults; releases before 2024 used all keywords and Verbose). Arguments are
 * key=value;key2=value2 and may contain ':'; a key or value in double quotes may contain ';',
 * '=' or ','. Unlike dotnet-trace, a level above 5 is an error rather than Verbose, and a
 * quote inside a value is an error rather than silently kept, and blanks around a name are
 * dropped (so "A, B" enables B, not " B").
 */
#define _GNU_SOURCE
#include "trace.h"
#include "util/file_io.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct span {
    const char *p;
    size_t n;
} span_t;

/* The first sep in s outside double quotes, or s.p + s.n; *unterminated set on an odd quote. */
static const char *find_unquoted(span_t s, char sep, int *unterminated)
{
    int quoted = 0;
    const char *p = s.p, *end = s.p + s.n;
    for (; p < end; p++) {
        if (*p == '"')
            quoted = !quoted;
        else if (*p == sep && !quoted)
            break;
    }
    if (unterminated)
        *unterminated = quoted;
    return p;
}

/* Cuts s at the first unquoted sep: returns the head, leaves the tail (after sep) in *s.
 * *found says whether a separator was there at all. */
static span_t cut(span_t *s, char sep, int *found)
{
    const char *at = find_unquoted(*s, sep, NULL);
    span_t head = {s->p, (size_t)(at - s->p)};
    *found = at < s->p + s->n;
    s->p = *found ? at + 1 : at;
    s->n = *found ? s->n - head.n - 1 : 0;
    return head;
}

/* "A, B" means B: blanks around a name, keywords or level would only make them match
 * nothing or fail to parse. */
static void trim(span_t *s)
{
    while (s->n && (s->p[0] == ' ' || s->p[0] == '\t')) {
        s->p++;
        s->n--;
    }
    while (s->n && (s->p[s->n - 1] == ' ' || s->p[s->n - 1] == '\t'))
        s->n--;
}

static int span_is(span_t s, const char *word)
{
    return strlen(word) == s.n && strncasecmp(s.p, word, s.n) == 0;
}

/* Hex with an optional 0x, or "*" for every bit; empty is 0 as in dotnet-trace. */
static int parse_keywords(span_t s, uint64_t *out)
{
    *out = 0;
    if (s.n == 0)
        return 0;
    if (span_is(s, "*")) {
        *out = CLRA_TRACE_ALL_KEYWORDS;
        return 0;
    }
    if (s.n > 2 && s.p[0] == '0' && (s.p[1] == 'x' || s.p[1] == 'X')) {
        s.p += 2;
        s.n -= 2;
    }
    if (s.n == 0 || s.n > 16)
        return -1;
    for (size_t i = 0; i < s.n; i++) {
        char c = s.p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        *out = (*out << 4) | (uint64_t)d;
    }
    return 0;
}

/* A number 0-5 or an EventLevel name in any case; empty is Informational. */
int clra__trace_parse_level(const char *text, size_t len, uint32_t *out)
{
    span_t s = {text, len};
    static const char *const names[] = {"LogAlways", "Critical",      "Error",
                                        "Warning",   "Informational", "Verbose"};
    if (s.n == 0) {
        *out = 4;
        return 0;
    }
    if (s.n == 1 && s.p[0] >= '0' && s.p[0] <= '5') {
        *out = (uint32_t)(s.p[0] - '0');
        return 0;
    }
    for (uint32_t i = 0; i < 6; i++)
        if (span_is(s, names[i])) {
            *out = i;
            return 0;
        }
    return -1;
}

/* Strips one pair of enclosing quotes; a quote anywhere else is refused (-1). */
static int unquote(span_t *s)
{
    if (s->n >= 2 && s->p[0] == '"' && s->p[s->n - 1] == '"') {
        s->p++;
        s->n -= 2;
    }
    return memchr(s->p, '"', s->n) ? -1 : 0;
}

/* Appends a key or value, in quotes when it holds a separator (what the runtime's argument
 * parser and the managed client agree on). */
static char *put_part(char *out, span_t s)
{
    int quote = memchr(s.p, ';', s.n) || memchr(s.p, '=', s.n);
    if (quote)
        *out++ = '"';
    memcpy(out, s.p, s.n);
    out += s.n;
    if (quote)
        *out++ = '"';
    return out;
}

typedef struct spec_ctx {
    const char *name; /* for messages: the provider's name, or NULL before it is known */
    int index;        /* 1-based position in the list */
    clra_status_t *st;
} spec_ctx_t;

/* Checks one key=value pair and appends its canonical form. */
static int put_argument(const spec_ctx_t *c, span_t pair, char **out)
{
    int has_eq;
    span_t rest = pair, key = cut(&rest, '=', &has_eq), value = rest;
    if (!has_eq) {
        clra__detail(c->st, "provider '%s': argument '%.*s' has no '=' (write "
                     "key=value;key2=value2)", c->name, (int)pair.n, pair.p);
        return CLRA_EINVAL;
    }
    if (unquote(&key) != 0 || unquote(&value) != 0) {
        clra__detail(c->st, "provider '%s': in argument '%.*s' a double quote must enclose the "
                     "whole key or value", c->name, (int)pair.n, pair.p);
        return CLRA_EINVAL;
    }
    if (key.n == 0) {
        clra__detail(c->st, "provider '%s': argument '%.*s' has an empty key", c->name,
                     (int)pair.n, pair.p);
        return CLRA_EINVAL;
    }
    *out = put_part(*out, key);
    *(*out)++ = '=';
    *out = put_part(*out, value);
    return 0;
}

/* Turns the Arguments part into key=value;key2=value2 (NULL when empty). */
static int parse_arguments(const spec_ctx_t *c, span_t s, char **result)
{
    int unterminated, more = 1;
    *result = NULL;
    find_unquoted(s, '\0', &unterminated);
    if (unterminated) {
        clra__detail(c->st, "provider '%s': unterminated double quote in arguments '%.*s'",
                     c->name, (int)s.n, s.p);
        return CLRA_EINVAL;
    }
    if (s.n == 0)
        return 0;
    char *buf = malloc(2 * s.n + 1), *out = buf; /* quotes at most double the length */
    if (!buf)
        return CLRA_ENOMEM;
    while (more) {
        span_t pair = cut(&s, ';', &more);
        if (pair.n == 0)
            continue; /* "a=1;" and ";;" are tolerated, as dotnet-trace does */
        if (out > buf)
            *out++ = ';';
        int rc = put_argument(c, pair, &out);
        if (rc) {
            free(buf);
            return rc;
        }
    }
    *out = '\0';
    if (out == buf) {
        free(buf);
        buf = NULL;
    }
    *result = buf;
    return 0;
}

/* Folds a repeated provider into the first, as dotnet-trace does: keywords OR-ed, the more
 * verbose level kept (LogAlways, 0, counts as most verbose), arguments given only once. */
static int merge(const spec_ctx_t *c, clra_trace_provider_t *into, uint64_t keywords,
                 uint32_t level, char **arguments)
{
    if (into->arguments && *arguments) {
        clra__detail(c->st, "provider '%s' is given twice with arguments; give its arguments "
                     "once", c->name);
        return CLRA_EINVAL;
    }
    into->keywords |= keywords;
    if (into->level == 0 || level == 0)
        into->level = 0;
    else if (level > into->level)
        into->level = level;
    if (*arguments) {
        into->arguments = *arguments;
        *arguments = NULL;
    }
    return 0;
}

static clra_trace_provider_t *find_provider(clra_trace_config_t *cfg, const char *name)
{
    for (size_t i = 0; i < cfg->provider_count; i++)
        if (strcasecmp(cfg->providers[i].name, name) == 0)
            return &cfg->providers[i];
    return NULL;
}

/* Keywords and level of one provider, each error naming the provider and the bad part. */
static int parse_filters(const spec_ctx_t *c, span_t kw, span_t lv, uint64_t *keywords,
                         uint32_t *level)
{
    if (parse_keywords(kw, keywords) != 0) {
        clra__detail(c->st, "provider '%s': keywords '%.*s' are not hexadecimal (write e.g. "
                     "0x1F, or * for all)", c->name, (int)kw.n, kw.p);
        return CLRA_EINVAL;
    }
    if (clra__trace_parse_level(lv.p, lv.n, level) != 0) {
        clra__detail(c->st, "provider '%s': level '%.*s' is not 0-5 or one of LogAlways, "
                     "Critical, Error, Warning, Informational, Verbose", c->name, (int)lv.n, lv.p);
        return CLRA_EINVAL;
    }
    return 0;
}

/* Parses one Name[:Keywords[:Level[:Arguments]]] into cfg, merging repeats. */
static int parse_one(spec_ctx_t *c, span_t s, clra_trace_config_t *cfg)
{
    int more;
    span_t name = cut(&s, ':', &more), kw = cut(&s, ':', &more), lv = cut(&s, ':', &more);
    trim(&name);
    trim(&kw);
    trim(&lv);
    uint64_t keywords;
    uint32_t level;
    char *arguments = NULL, *name_z = clra__strndup(name.p, name.n);
    if (!name_z)
        return CLRA_ENOMEM;
    c->name = name_z;
    int rc = 0;
    if (name.n == 0) {
        clra__detail(c->st, "provider %d has no name (write Name[:Keywords[:Level[:Arguments]]], "
                     "providers separated by commas)", c->index);
        rc = CLRA_EINVAL;
    }
    if (!rc)
        rc = parse_filters(c, kw, lv, &keywords, &level);
    if (!rc)
        rc = parse_arguments(c, s, &arguments);
    clra_trace_provider_t *seen = rc ? NULL : find_provider(cfg, name_z);
    if (seen)
        rc = merge(c, seen, keywords, level, &arguments);
    else if (!rc)
        rc = clra_trace_config_add_provider(cfg, name_z, keywords, level, arguments, c->st);
    free(arguments);
    free(name_z);
    c->name = NULL;
    return rc;
}

/* Appends every provider of from to cfg (merging repeats) or, on any conflict, nothing. */
static int move_all(clra_trace_config_t *cfg, clra_trace_config_t *from, clra_status_t *st)
{
    clra_trace_config_t work;
    clra_trace_config_init(&work);
    int rc = 0;
    for (size_t i = 0; !rc && i < cfg->provider_count + from->provider_count; i++) {
        const clra_trace_provider_t *p = i < cfg->provider_count
                                             ? &cfg->providers[i]
                                             : &from->providers[i - cfg->provider_count];
        spec_ctx_t c = {p->name, (int)i + 1, st};
        char *args = p->arguments ? strdup(p->arguments) : NULL;
        clra_trace_provider_t *seen = find_provider(&work, p->name);
        if (p->arguments && !args)
            rc = CLRA_ENOMEM;
        else if (seen)
            rc = merge(&c, seen, p->keywords, p->level, &args);
        else
            rc = clra_trace_config_add_provider(&work, p->name, p->keywords, p->level, args, st);
        free(args);
    }
    if (rc) {
        clra_trace_config_free(&work);
        return rc;
    }
    clra__trace_free_providers(cfg); /* not the whole cfg: its session settings stay */
    cfg->providers = work.providers;
    cfg->provider_count = work.provider_count;
    cfg->provider_cap = work.provider_cap;
    return 0;
}

int clra_trace_config_parse_providers(clra_trace_config_t *cfg, const char *spec,
                                      clra_status_t *st)
{
    clra_status_t local;
    clra_trace_config_t parsed;
    st = st ? st : &local;
    memset(st, 0, sizeof *st);
    if (!cfg || !spec || !spec[strspn(spec, " \t")]) {
        clra__detail(st, "no providers given (write Name[:Keywords[:Level[:Arguments]]], "
                     "providers separated by commas)");
        return CLRA_EINVAL;
    }
    clra_trace_config_init(&parsed);
    span_t rest = {spec, strlen(spec)};
    int more = 1, rc = 0;
    for (int index = 1; more && !rc; index++) {
        span_t one = cut(&rest, ',', &more);
        spec_ctx_t c = {NULL, index, st};
        rc = parse_one(&c, one, &parsed);
    }
    if (!rc)
        rc = move_all(cfg, &parsed, st);
    clra_trace_config_free(&parsed);
    return rc;
}
