/* profile_events_lock.c - profile --mode lock: time threads waited to enter a contended lock
 * (Monitor, lock statement), from ContentionStart to ContentionStop on the same thread
 * (Contention keyword), put on the stack where the wait began. */
#include "profile/profile_events.h"

#include <string.h>

#define CONTENTION_KEYWORD 0x4000ull

static int plan(pe_run_t *r, unsigned major)
{
    (void)major;
    r->keywords = CONTENTION_KEYWORD;
    r->level = 4;
    r->source = "ContentionStart/ContentionStop";
    r->misses = "only waits that blocked: a lock won by spinning sends no event, and waits that "
                "began before the session or had not ended at its stop are left out";
    return 0;
}

static int event(pe_run_t *r, const clra_nettrace_event_t *ev, const char *name)
{
    if (strcmp(name, "ContentionStart") == 0)
        return pe_pair_start(r, ev);
    return strcmp(name, "ContentionStop") == 0 ? pe_pair_stop(r, ev) : 0;
}

static void report(const pe_run_t *r, json_out_t *j, FILE *f)
{
    if (j) {
        json_str(j, "can_miss", r->misses);
        json_int(j, "unpaired", (long long)r->unpaired);
        json_int(j, "unfinished", (long long)r->npending);
    } else
        fprintf(f, "lock waits from %s events: %s\n", r->source, r->misses);
}

const pe_mode_t pe_mode_lock = {"lock", "contention", "nanoseconds", plan, event, report, NULL};
