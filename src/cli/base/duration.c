/* duration.c - `--duration` as seconds (ours) or as the TimeSpan text the dotnet tools take
 * ("00:00:00:05" is dd:hh:mm:ss, "00:00:05" hh:mm:ss), so their users' habits work unchanged. */
#include "base/cli.h"

#include <string.h>

/* Reads the digits at *p (at most 9) into *v; 0, or -1 when there are none or too many. */
static int digits(const char **p, long long *v)
{
    int n = 0;
    *v = 0;
    while (**p >= '0' && **p <= '9' && n < 10) {
        *v = *v * 10 + (**p - '0');
        (*p)++;
        n++;
    }
    return n == 0 || n > 9 ? -1 : 0;
}

/* Seconds in "hh:mm:ss" or "dd:hh:mm:ss" (hours < 24 after days, minutes and seconds < 60,
 * as TimeSpan reads them); -1 for anything else. */
static long long timespan_seconds(const char *text)
{
    long long part[4];
    int n = 0;
    const char *p = text;
    while (n < 4) {
        if (digits(&p, &part[n++]) != 0)
            return -1;
        if (*p != ':')
            break;
        p++;
    }
    if (*p || n < 3)
        return -1;
    long long d = n == 4 ? part[0] : 0, h = part[n - 3], m = part[n - 2], s = part[n - 1];
    if ((n == 4 && h > 23) || m > 59 || s > 59)
        return -1;
    return ((d * 24 + h) * 60 + m) * 60 + s;
}

int cli_parse_duration(const char *what, const char *text, long long min, long long max,
                       long long *out)
{
    long long v = -1;
    const char *p = text;
    if (strchr(text, ':'))
        v = timespan_seconds(text);
    else if (digits(&p, &v) != 0 || *p)
        v = -1;
    if (v < min || v > max) {
        fprintf(stderr, "clrattach: %s must be whole seconds (5) or [dd:]hh:mm:ss "
                "(00:00:00:05), from %lld to %lld seconds, not '%s'\n", what, min, max, text);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_take_duration_day(void *dest, const char *arg)
{
    return cli_parse_duration("--duration", arg, 1, 86400, dest);
}

int cli_take_duration_year(void *dest, const char *arg)
{
    return cli_parse_duration("--duration", arg, 1, 86400LL * 365, dest);
}
