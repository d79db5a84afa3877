/* json_check.h - whether a text is one well-formed JSON value (RFC 8259 syntax only), for tests
 * that promise parseable output. Test code only. */
#ifndef CLRA_JSON_CHECK_H
#define CLRA_JSON_CHECK_H

#include <ctype.h>
#include <string.h>

static const char *jc_value(const char *p, int depth);

static const char *jc_ws(const char *p)
{
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
        p++;
    return p;
}

static const char *jc_string(const char *p)
{
    if (*p++ != '"')
        return NULL;
    for (; *p && *p != '"'; p++) {
        if ((unsigned char)*p < 0x20)
            return NULL;
        if (*p == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!isxdigit((unsigned char)p[i]))
                        return NULL;
                p += 4;
            } else if (!strchr("\"\\/bfnrt", *p) || !*p) {
                return NULL;
            }
        }
    }
    return *p == '"' ? p + 1 : NULL;
}

static const char *jc_number(const char *p)
{
    const char *s = p;
    p += *p == '-';
    if (*p == '0')
        p++;
    else if (isdigit((unsigned char)*p))
        while (isdigit((unsigned char)*p))
            p++;
    else
        return NULL;
    if (*p == '.') {
        if (!isdigit((unsigned char)*++p))
            return NULL;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        p += *p == '+' || *p == '-';
        if (!isdigit((unsigned char)*p))
            return NULL;
        while (isdigit((unsigned char)*p))
            p++;
    }
    return p > s ? p : NULL;
}

/* An object or array: members separated by commas, no trailing comma. */
static const char *jc_group(const char *p, int depth, char close, int object)
{
    p = jc_ws(p + 1);
    if (*p == close)
        return p + 1;
    for (;;) {
        if (object) {
            p = jc_string(jc_ws(p));
            if (!p || *(p = jc_ws(p)) != ':')
                return NULL;
            p++;
        }
        p = jc_value(p, depth + 1);
        if (!p)
            return NULL;
        p = jc_ws(p);
        if (*p == close)
            return p + 1;
        if (*p++ != ',')
            return NULL;
    }
}

static const char *jc_value(const char *p, int depth)
{
    p = jc_ws(p);
    if (depth > 64)
        return NULL;
    if (*p == '{')
        return jc_group(p, depth, '}', 1);
    if (*p == '[')
        return jc_group(p, depth, ']', 0);
    if (*p == '"')
        return jc_string(p);
    for (const char *w = "true\0false\0null\0"; *w; w += strlen(w) + 1)
        if (strncmp(p, w, strlen(w)) == 0)
            return p + strlen(w);
    return jc_number(p);
}

/* 1 when text is exactly one JSON value (blanks around it allowed). */
static __attribute__((unused)) int json_is_valid(const char *text)
{
    const char *end = jc_value(text, 0);
    return end && *jc_ws(end) == '\0';
}

#endif
