/* profile_events_wait.c - profile --mode wait: time threads spent blocked in wait-handle waits
 * and Monitor.Wait, from WaitHandleWaitStart to WaitHandleWaitStop on the same thread
 * (WaitHandle keyword, .NET 9 and newer), put on the stack where the wait began. */
#include "profile/profile_events.h"


#define WAIT_HANDLE_KEYWORD 0x40000000000ull

static int plan(pe_run_t *r, unsigned major)
{
    if (major && major < 9) {
        r->why = "its runtime is too old for --mode wait: the WaitHandleWaitStart/Stop events "
                 "came with .NET 9";
        r->hint = "use --mode lock for lock contention, or --mode wall for where threads block";
        return -1;
    }
    r->keywords = WAIT_HANDLE_KEYWORD;
    r->source = "WaitHandleWaitStart/WaitHandleWaitStop";
    r->misses = "only waits the runtime reports (WaitHandle.WaitOne/WaitAll/WaitAny, "
                "Monitor.Wait and what is built on them): sleeps, blocking I/O and waits "
                "unfinished at the stop are not seen";
    return 0;
}

static int event(pe_run_t *r, const clra_nettrace_event_t *ev, const char *name)
{
    return pe_pair_event(r, ev, name, "WaitHandleWaitStart", "WaitHandleWaitStop");
}

static void report(const pe_run_t *r, json_out_t *j, FILE *f)
{
    pe_pair_report(r, j, f, "waits");
}

const pe_mode_t pe_mode_wait = {"wait", "wait", "nanoseconds", plan, event, report, NULL};
