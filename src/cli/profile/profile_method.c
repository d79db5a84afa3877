/* profile_method.c - how `profile`, `stack` and `launch --profile` choose the sampler's method
 * (--method, default signal with a fallback to walk) and say which one ran: the sampler's
 * statistics line carries method= and, when it fell back, fallback= with a reason token. */
#define _GNU_SOURCE
#include "base/cli.h"
#include "profile/profile_platform.h"
#include "profile/profile_drain.h"

#include <stdio.h>
#include <string.h>

const char *method_client(const char *given, const char *verb)
{
    if (!given)
        return "auto"; /* signal, or walk where the target refuses signal */
    if (strcmp(given, "walk") == 0)
        return given;
    /* the platform's own method (signal on Linux, suspend on Windows) is the sampler's
     * method=signal; "signal" names it on either */
    if (strcmp(given, "signal") == 0 || strcmp(given, profile_native_method) == 0)
        return "signal";
    fprintf(stderr, "clrattach%s%s: --method is %s or walk, not '%s'\n", verb ? " " : "",
            verb ? verb : "", profile_native_method, cli_vis(given));
    return NULL;
}

/* The value of " key=" in the sampler's statistics line, "" when absent. */
static void info_field(const char *info, const char *key, char *out, size_t cap)
{
    char pat[32];
    snprintf(pat, sizeof pat, " %s=", key);
    const char *at = strstr(info, pat); /* never the first field: that is mode= */
    out[0] = '\0';
    if (at)
        snprintf(out, cap, "%.*s", (int)strcspn(at + strlen(pat), " \n"), at + strlen(pat));
}

/* What a fallback token means, for people. */
static const char *fallback_text(const char *token)
{
    if (strcmp(token, "no_free_signal") == 0)
        return "every real-time signal it could take is handled in the target";
    if (strcmp(token, "signal_sampler_running") == 0)
        return "another signal sampler runs in the target";
    if (strcmp(token, "foreign_proc") == 0)
        return "the target's /proc belongs to another PID namespace, so its thread ids cannot "
               "be signalled";
    if (strcmp(token, "signal_taken") == 0)
        return "the target took the chosen signal before sampling began";
    return token;
}

void method_report(const char *info, const char *given, struct json_out *j)
{
    char ran[16], fallback[48];
    info_field(info, "method", ran, sizeof ran);
    info_field(info, "fallback", fallback, sizeof fallback);
    if (!ran[0]) /* no drain reached the sampler: what was asked */
        snprintf(ran, sizeof ran, "%s", given && strcmp(given, "walk") == 0 ? "walk"
                                        : profile_native_method);
    if (j) {
        json_str(j, "method", ran);
        if (fallback[0])
            json_str(j, "fallback_reason", fallback);
        return;
    }
    if (fallback[0])
        fprintf(stderr, "clrattach: sampled by walk (safe points only), not by signal: %s (%s)\n",
                fallback_text(fallback), fallback);
}
