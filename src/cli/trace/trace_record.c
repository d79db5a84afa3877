/* trace_record.c - records one EventPipe session into a file: start, stream with progress,
 * stop on duration or signal (draining rundown), check the file, report. */
#define _GNU_SOURCE
#include "base/interrupt.h"
#include "common/mono_clock.h"
#include "base/output_file.h"
#include "trace/trace_options.h"
#include "trace/trace_record.h"
#include "trace/trace_stop_event.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PUMP_WAIT_MS 200
#define TTY_REDRAW_S 0.25
#define LOG_EVERY_S 5.0

static volatile sig_atomic_t interrupts;

/* The first interrupt asks for a clean stop; the second (or one during the stop) gives up. */
static void on_interrupt(void)
{
    static const char msg[] = "\nclrattach: second interrupt: aborting; the trace file is "
                              "incomplete\n";
    if (++interrupts >= 2) {
        int n = (int)write(2, msg, sizeof msg - 1);
        (void)n;
        _exit(130);
    }
}

/* The output file with its hard cap: --max-size stops the session, and this bounds the rundown
 * that follows, so a hostile target cannot fill the disk (issue 17, --max-size). */
typedef struct capped_file {
    int fd;
    uint64_t written, hard; /* hard 0: no cap */
    int cut;                /* a write past hard was refused */
    trace_stop_monitor_t *watch; /* the stopping event's decoder, fed what was written; NULL
                                  * when none is asked for or once the stop began */
} capped_file_t;

#define RUNDOWN_ALLOWANCE_MIN (16ull << 20)

static int capped_sink(void *ctx, const void *data, size_t len)
{
    capped_file_t *f = ctx;
    if (f->hard && f->written + len > f->hard) {
        f->cut = 1;
        return -1;
    }
    f->written += len;
    int rc = trace_file_sink(&f->fd, data, len);
    if (rc == 0 && f->watch)
        trace_stop_monitor_feed(f->watch, data, len);
    return rc;
}

typedef struct recording {
    const trace_opts_t *o;
    capped_file_t out;
    out_file_t file; /* a failed start removes it when we created it */
    clra_trace_session_t s;
    double t0, last_progress;
    int tty;
    const char *stopped_by; /* "duration", "signal", "max-size", "stopping-event",
                             * "stream-end" or "error" */
    trace_stop_monitor_t watch;
} recording_t;

/* "1.5 MiB"-style sizes for people. */
static void human(double bytes, char *out, size_t cap)
{
    const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    while (bytes >= 1024 && i < 4) {
        bytes /= 1024;
        i++;
    }
    snprintf(out, cap, i ? "%.1f %s" : "%.0f %s", bytes, unit[i]);
}

/* On a terminal the line is redrawn in place; in a log, one line every few seconds. */
static void progress(recording_t *r, int final)
{
    double now = mono__s(), every = r->tty ? TTY_REDRAW_S : LOG_EVERY_S;
    if (r->o->json || (!final && now - r->last_progress < every) || (final && !r->tty))
        return;
    char size[32], rate[32];
    double secs = now - r->t0;
    human((double)r->s.bytes, size, sizeof size);
    human(secs > 0 ? (double)r->s.bytes / secs : 0, rate, sizeof rate);
    fprintf(stderr, "%srecording: %s written, %s/s, %.0f s%s", r->tty ? "\r" : "", size, rate,
            secs, r->tty ? "   " : "\n");
    if (final)
        fputc('\n', stderr);
    fflush(stderr);
    r->last_progress = now;
}

/* Streams until the duration ends, a signal comes, the stream ends or an error. */
static int stream(recording_t *r, clra_status_t *st)
{
    double end = r->o->duration_s ? r->t0 + (double)r->o->duration_s : 0;
    for (;;) {
        int rc = clra_trace_pump(&r->s, capped_sink, &r->out, PUMP_WAIT_MS, st);
        progress(r, 0);
        if (rc) {
            r->stopped_by = "error";
            return rc;
        }
        if (r->s.eof) {
            r->stopped_by = "stream-end";
            return 0;
        }
        if (interrupts) {
            r->stopped_by = "signal";
            return 0;
        }
        if (end && mono__s() >= end) {
            r->stopped_by = "duration";
            return 0;
        }
        if (r->o->max_size && r->s.bytes >= (uint64_t)r->o->max_size) {
            r->stopped_by = "max-size";
            return 0;
        }
        if (r->watch.matched) {
            r->stopped_by = "stopping-event";
            return 0;
        }
    }
}

/* Stops the session on a second connection while the stream keeps flowing into the file. */
static int stop(recording_t *r, clra_status_t *st)
{
    clra_target_t target;
    interrupts = 1; /* from here one Ctrl-C is the "second" one: it aborts the wait */
    r->out.watch = NULL; /* the rundown is only saved */
    if (!r->o->json && r->watch.matched)
        fprintf(stderr, "stopping: the stopping event %s arrived\n", r->watch.what);
    if (!r->o->json) {
        progress(r, 1);
        fprintf(stderr, "stopping: waiting for the rundown and the end of the stream (Ctrl-C "
                "aborts)...\n");
    }
    if (!r->o->json && strcmp(r->stopped_by, "max-size") == 0)
        fprintf(stderr, "stopping: the file reached --max-size (%lld bytes)\n", r->o->max_size);
    int rc = diagnostic_port_next_target(r->o->dport, r->o->pid, r->o->timeout_ms, &target, st);
    return rc ? rc : clra_trace_stop(&r->s, &target, capped_sink, &r->out,
                                     (int)r->o->timeout_ms, st);
}

int trace_record(const trace_opts_t *o)
{
    recording_t r = {.o = o, .tty = isatty(2)};
    clra_endpoint_t ep;
    clra_status_t st;
    int rc = o->dport->spec ? 0 : clra_endpoint_find(o->pid, &ep, &st);
    if (rc) {
        trace_report_failure(o, rc, &st);
        return cli_exit_code(rc);
    }
    /* Opened once the target is known to exist, before the session starts: a bad path costs
     * no session. */
    if (out_file_open(&r.file, o->output, "--output", "clrattach") != 0)
        return EXIT_USAGE;
    if (trace_stop_monitor_open(&r.watch, &o->stop_event) != 0) {
        out_file_discard(&r.file);
        return EXIT_INTERNAL;
    }
    cli_on_interrupt(on_interrupt);
    r.out.fd = r.file.fd;
    r.out.watch = r.watch.d ? &r.watch : NULL;
    if (o->max_size) {
        uint64_t cap = (uint64_t)o->max_size;
        r.out.hard = cap + (cap > RUNDOWN_ALLOWANCE_MIN ? cap : RUNDOWN_ALLOWANCE_MIN);
    }
    clra_target_t target;
    rc = diagnostic_port_next_target(o->dport, o->pid, o->timeout_ms, &target, &st);
    if (rc == 0)
        rc = trace_start_session(o, &target, &r.s, &st);
    if (rc == 0 && (rc = diagnostic_port_resume(o->dport, o->timeout_ms, &st)) != 0)
        clra_trace_session_close(&r.s);
    if (rc) {
        out_file_discard(&r.file);
        trace_stop_monitor_close(&r.watch);
        trace_report_failure(o, rc, &st);
        return cli_exit_code(rc);
    }
    r.t0 = r.last_progress = mono__s();
    if (!o->json)
        fprintf(stderr, "tracing process %d into %s (session 0x%llx, CollectTracing%d); Ctrl-C "
                "to stop\n", o->pid, o->output, (unsigned long long)r.s.id, r.s.command_version);
    rc = stream(&r, &st);
    if (rc == 0 && !r.s.eof)
        rc = stop(&r, &st);
    else if (!o->json)
        progress(&r, 1);
    clra_trace_session_close(&r.s);
    trace_stop_monitor_close(&r.watch);
    if (r.out.cut)
        snprintf(st.detail, sizeof st.detail, "the target kept streaming after the stop: the "
                 "file was cut at %llu bytes (--max-size %lld plus the rundown allowance)",
                 (unsigned long long)r.out.written, o->max_size);
    if (out_file_close(&r.file) != 0 && rc == 0) {
        rc = CLRA_EIO;
        snprintf(st.detail, sizeof st.detail, "closing the output: %s", strerror(errno));
    }
    trace_result_t res = {r.s.id, r.s.command_version, r.s.bytes, mono__s() - r.t0, r.stopped_by,
                          rc, &st};
    return trace_report(o, &res);
}
