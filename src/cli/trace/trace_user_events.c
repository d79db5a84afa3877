/* trace_user_events.c - `clrattach trace --user-events`: a session whose events the runtime
 * writes to Linux user_events tracepoints (CollectTracing5 session type 1) instead of a
 * stream, so there is no file: start it, hold it until the duration ends or a signal comes,
 * stop it, report. The events are read with perf or ftrace meanwhile. */
#define _GNU_SOURCE
#include "base/interrupt.h"
#include "common/mono_clock.h"
#include "trace/trace_options.h"
#include "trace/trace_record.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

int trace_opt_tracepoint(void *dest, const char *arg)
{
    struct trace_tracepoints *t = dest;
    if (t->count == TRACE_MAX_FILTER_OPTIONS) {
        fprintf(stderr, "clrattach: more than %d --tracepoint options\n",
                TRACE_MAX_FILTER_OPTIONS);
        return -1;
    }
    t->spec[t->count++] = arg;
    return 0;
}

int trace_user_events_settle(trace_opts_t *o)
{
    clra_status_t st;
    if (!o->user_events && o->tracepoints.count) {
        fprintf(stderr, "clrattach: --tracepoint needs --user-events (see --help)\n");
        return -1;
    }
    if (!o->user_events)
        return 0;
    if (o->output_arg) {
        fprintf(stderr, "clrattach: --user-events writes no file, so --output has no place; "
                "read the tracepoints with perf or ftrace\n");
        return -1;
    }
    if (clra_trace_config_set_user_events(&o->cfg, o->user_events, -1, &st) != 0) {
        fprintf(stderr, "clrattach: bad --user-events: %s\n", cli_vis(st.detail));
        return -1;
    }
    for (int i = 0; i < o->tracepoints.count; i++)
        if (clra_trace_config_parse_tracepoint(&o->cfg, o->tracepoints.spec[i], &st) != 0) {
            fprintf(stderr, "clrattach: bad --tracepoint: %s\n", cli_vis(st.detail));
            return -1;
        }
    return 0;
}

/* Sleeps until the duration ends or a signal comes; says which. */
static const char *hold(const trace_opts_t *o)
{
    double t0 = mono__s();
    for (;;) {
        if (cli_interrupted())
            return "signal";
        if (o->duration_s && mono__s() - t0 >= (double)o->duration_s)
            return "duration";
        usleep(100000);
    }
}

/* The stop's sink: a user_events session has no stream, so no byte may come. */
static int no_stream(void *ctx, const void *data, size_t len)
{
    (void)ctx;
    (void)data;
    return len ? -1 : 0;
}

static void report(const trace_opts_t *o, const clra_trace_session_t *s, const char *by, int rc,
                   const clra_status_t *st)
{
    char id[24];
    snprintf(id, sizeof id, "0x%llx", (unsigned long long)s->id);
    json_out_t *j = cli_result_open(o->run, rc == 0);
    if (j) {
        json_str(j, "user_events", o->user_events);
        json_str(j, "session_id", id);
        json_int(j, "command_version", s->command_version);
        json_str(j, "stopped_by", by);
    } else if (rc == 0) {
        printf("stopped user_events session %s of process %d (%s); its events went to "
               "tracepoint %s\n", id, o->pid, by, o->user_events);
        fflush(stdout);
    }
    cli_result_close(o->run, rc ? &(cli_failure_t){.rc = rc, .st = st, .action = "stop tracing"}
                                : NULL);
}

int trace_user_events_record(const trace_opts_t *o)
{
    clra_trace_session_t s;
    clra_status_t st;
    clra_target_t target = clra_target_pid(o->pid);
    cli_catch_interrupt();
    int rc = clra_trace_start(&target, &o->cfg, (int)o->timeout_ms, &s, &st);
    if (rc) {
        trace_report_failure(o, rc, &st);
        return cli_exit_code(rc);
    }
    if (!o->json)
        fprintf(stderr, "process %d writes its events to user_events tracepoint %s (session "
                "0x%llx, CollectTracing%d); read them with e.g. perf record -e "
                "'user_events:%s*'; Ctrl-C to stop\n", o->pid, o->user_events,
                (unsigned long long)s.id, s.command_version, o->user_events);
    const char *by = hold(o);
    rc = clra_trace_stop(&s, &target, no_stream, NULL, (int)o->timeout_ms, &st);
    clra_trace_session_close(&s);
    report(o, &s, by, rc, &st);
    return rc ? cli_exit_code(rc) : EXIT_OK;
}
