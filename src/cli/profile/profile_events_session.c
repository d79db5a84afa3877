/* profile_events_session.c - the EventPipe session behind profile's event modes: the runtime's
 * version (ProcessInfo) picks the events, the session streams into a NetTrace decoder as it
 * arrives (nothing on disk), and the stop drains the rundown that names the methods. */
#define _GNU_SOURCE
#include "base/interrupt.h"
#include "common/mono_clock.h"
#include "profile/profile_events.h"

#include <string.h>
#include <unistd.h>

#define RUNTIME "Microsoft-Windows-DotNETRuntime"
#define JIT_KEYWORD 0x10ull  /* MethodLoadVerbose for the methods compiled while recording */
#define LEVEL_VERBOSE 5
#define PUMP_WAIT_MS 200

typedef struct feeding {
    pe_run_t *r;
    clra_nettrace_decoder_t *d;
    int rc;            /* the decoder's first failure */
    clra_status_t st;
} feeding_t;

/* The stream's bytes into the decoder; after a corruption only drained, so the stop still
 * completes (the failure is reported at the end). */
static int sink(void *ctx, const void *data, size_t len)
{
    feeding_t *f = ctx;
    if (!f->rc)
        f->rc = clra_nettrace_decoder_feed(f->d, data, len, &f->st);
    return f->rc == CLRA_EIO ? -1 : 0; /* out of memory in a callback: give up */
}

/* Streams until the duration ends, an interrupt or the end of the stream. */
static int stream(clra_trace_session_t *s, feeding_t *f, long long duration_s,
                  clra_status_t *st)
{
    double end = mono__s() + (double)duration_s;
    while (!cli_interrupted() && mono__s() < end && !s->eof) {
        int rc = clra_trace_pump(s, sink, f, PUMP_WAIT_MS, st);
        if (rc)
            return f->rc == CLRA_EIO ? CLRA_ENOMEM : rc;
    }
    return 0;
}

/* The session's configuration: the mode's keywords, method loads, stacks, rundown. One
 * provider entry has one level for all its keywords, and the method loads that name the stacks
 * (MethodLoadVerbose) are verbose, so every mode records at verbose: its own events, verbose
 * (GCAllocationTick, WaitHandleWaitStart/Stop) or not, all come at that level. */
static int configure(const pe_run_t *r, clra_trace_config_t *cfg, clra_status_t *st)
{
    clra_trace_config_init(cfg);
    return clra_trace_config_add_provider(cfg, RUNTIME, r->keywords | JIT_KEYWORD, LEVEL_VERBOSE,
                                          NULL, st);
}

/* Starts, streams, stops: the part between the plan and the decoder's end. --timeout is one
 * deadline for the steps around the recording (run's clock), the recording's time added. */
static int record(pe_run_t *r, const pe_session_opts_t *o, cli_run_t *run,
                  const clra_target_t *t, feeding_t *f, pe_session_result_t *res,
                  clra_status_t *st)
{
    clra_trace_config_t cfg;
    clra_trace_session_t s;
    int rc = configure(r, &cfg, st);
    double budget = (double)o->timeout_ms;
    rc = rc ? rc : clra_trace_start(t, &cfg, cli_run_left_ms(run, budget), &s, st);
    clra_trace_config_free(&cfg);
    if (rc)
        return rc;
    double t0 = mono__s();
    if (!o->json)
        fprintf(stderr, "profiling %d (%s: %s) for %lld s; Ctrl-C stops early\n", o->pid,
                r->mode->name, r->source, o->duration_s);
    rc = stream(&s, f, o->duration_s, st);
    res->seconds = mono__s() - t0;
    res->exited = s.eof;
    budget += res->seconds * 1000.0;
    if (!rc && !s.eof)
        rc = clra_trace_stop(&s, t, sink, f, cli_run_left_ms(run, budget), st);
    res->bytes = s.bytes;
    clra_trace_session_close(&s);
    if (rc && f->rc == CLRA_EIO)
        rc = CLRA_ENOMEM;
    return rc;
}

int pe_session_run(pe_run_t *r, const pe_session_opts_t *o, cli_run_t *run,
                   pe_session_result_t *res, clra_status_t *st)
{
    clra_target_t t = clra_target_pid(o->pid);
    memset(res, 0, sizeof *res);
    if (cli_runtime_version(&t, cli_run_left_ms(run, (double)o->timeout_ms), res->runtime_buf,
                            sizeof res->runtime_buf, &r->major) == 0)
        res->runtime = res->runtime_buf; /* unknown (NULL, major 0) when it cannot say */
    if (r->mode->plan(r, r->major))
        return 1;
    clra_nettrace_callbacks_t cb;
    pe_callbacks(&cb);
    feeding_t f = {r, NULL, 0, {0}};
    int rc = clra_nettrace_decoder_new(&cb, r, &f.d);
    if (rc)
        return rc;
    r->pointer_size = 8;
    cli_catch_interrupt();
    rc = record(r, o, run, &t, &f, res, st);
    clra_nettrace_info_t info;
    int end = clra_nettrace_decoder_end(f.d, &info, &f.st);
    clra_nettrace_decoder_free(f.d);
    if (!rc && f.rc) /* corrupt: the stream's fault is the failure */
        rc = f.rc, *st = f.st;
    else if (!rc && end && !res->exited)
        rc = end, *st = f.st;
    return rc;
}
