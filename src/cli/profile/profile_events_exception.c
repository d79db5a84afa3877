/* profile_events_exception.c - profile --mode exception: where exceptions are thrown, the
 * exception's type as the top frame, one count per throw (ExceptionThrown, Exception keyword).
 * The types and messages are also counted for --json (the first MAX_KINDS distinct pairs; the
 * rest only in the profile). */
#define _GNU_SOURCE
#include "profile/profile_events.h"

#include <stdlib.h>
#include <string.h>

#define EXCEPTION_KEYWORD 0x8000ull
#define MAX_KINDS 1000

typedef struct kind {
    char *type, *message;
    uint64_t count;
} kind_t;

typedef struct kinds {
    kind_t *k;
    size_t n, cap;
    uint64_t other; /* throws past MAX_KINDS distinct pairs */
} kinds_t;

static int plan(pe_run_t *r, unsigned major)
{
    (void)major;
    r->keywords = EXCEPTION_KEYWORD;
    r->source = "ExceptionThrown";
    r->misses = "every managed throw is seen, rethrows count again; exceptions raised and "
                "handled inside native code are not";
    r->state = calloc(1, sizeof(kinds_t));
    r->why = r->state ? NULL : "out of memory";
    r->hint = "give clrattach more memory";
    return r->state ? 0 : -1;
}

/* Counts (type, message); -1 out of memory. */
static int count_kind(kinds_t *ks, const char *type, const char *message)
{
    for (size_t i = 0; i < ks->n; i++)
        if (strcmp(ks->k[i].type, type) == 0 && strcmp(ks->k[i].message, message) == 0)
            return ks->k[i].count++, 0;
    if (ks->n >= MAX_KINDS)
        return ks->other++, 0;
    if (pe_grow((void **)&ks->k, &ks->cap, ks->n + 1, sizeof *ks->k))
        return -1;
    kind_t *k = &ks->k[ks->n];
    k->type = strdup(type);
    k->message = strdup(message);
    k->count = 1;
    if (!k->type || !k->message)
        return free(k->type), free(k->message), -1;
    ks->n++;
    return 0;
}

static int event(pe_run_t *r, const clra_nettrace_event_t *ev, const char *name)
{
    if (strcmp(name, "ExceptionThrown") != 0)
        return 0;
    pe_field_t f[2] = {{.name = "ExceptionType"}, {.name = "ExceptionMessage"}};
    pe_fields(r, ev, f, 2);
    const char *type = f[0].text[0] ? f[0].text : "[type unknown]";
    r->events++;
    if (count_kind(r->state, type, f[1].text))
        return r->oom = 1, -1;
    return pe_add(r, ev->thread_id, ev->stack, ev->stack_len, type, 1);
}

static int by_count(const void *a, const void *b)
{
    const kind_t *x = a, *y = b;
    return x->count < y->count ? 1 : x->count > y->count ? -1 : strcmp(x->type, y->type);
}

/* The types' totals, each type once (the list is sorted by count: its first row per type). */
static void report_types(const kinds_t *ks, json_out_t *j)
{
    json_array(j, "types");
    for (size_t i = 0; i < ks->n; i++) {
        size_t seen = 0;
        uint64_t total = 0;
        for (size_t k = 0; k < ks->n; k++) {
            if (strcmp(ks->k[k].type, ks->k[i].type) != 0)
                continue;
            seen += k < i;
            total += ks->k[k].count;
        }
        if (seen)
            continue;
        json_object(j, NULL);
        json_str(j, "type", ks->k[i].type);
        json_int(j, "count", (long long)total);
        json_close(j);
    }
    json_close(j);
}

static void report(const pe_run_t *r, json_out_t *j, FILE *f)
{
    kinds_t *ks = r->state;
    if (ks->n)
        qsort(ks->k, ks->n, sizeof *ks->k, by_count);
    if (!j) {
        fprintf(f, "exceptions from %s events: %s\n", r->source, r->misses);
        return;
    }
    json_str(j, "can_miss", r->misses);
    report_types(ks, j);
    json_array(j, "messages");
    for (size_t i = 0; i < ks->n; i++) {
        json_object(j, NULL);
        json_str(j, "type", ks->k[i].type);
        json_str(j, "message", ks->k[i].message);
        json_int(j, "count", (long long)ks->k[i].count);
        json_close(j);
    }
    json_close(j);
    json_int(j, "messages_not_listed", (long long)ks->other);
}

static void release(pe_run_t *r)
{
    kinds_t *ks = r->state;
    for (size_t i = 0; ks && i < ks->n; i++)
        free(ks->k[i].type), free(ks->k[i].message);
    if (ks)
        free(ks->k);
    free(ks);
    r->state = NULL;
}

const pe_mode_t pe_mode_exception = {"exception", "exceptions", "count", plan, event, report,
                                     release};
