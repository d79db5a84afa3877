/* profile_events_lock.c - profile --mode lock: time threads waited to enter a contended lock
 * (Monitor, lock statement), from ContentionStart to ContentionStop on the same thread
 * (Contention keyword), put on the stack where the wait began. */
#include "profile/profile_events.h"


#define CONTENTION_KEYWORD 0x4000ull

static int plan(pe_run_t *r, unsigned major)
{
    (void)major;
    r->keywords = CONTENTION_KEYWORD;
    r->source = "ContentionStart/ContentionStop";
    r->misses = "only waits that blocked: a lock won by spinning sends no event, and waits that "
                "began before the session or had not ended at its stop are left out";
    return 0;
}

static int event(pe_run_t *r, const clra_nettrace_event_t *ev, const char *name)
{
    return pe_pair_event(r, ev, name, "ContentionStart", "ContentionStop");
}

static void report(const pe_run_t *r, json_out_t *j, FILE *f)
{
    pe_pair_report(r, j, f, "lock waits");
}

const pe_mode_t pe_mode_lock = {"lock", "contention", "nanoseconds", plan, event, report, NULL};
