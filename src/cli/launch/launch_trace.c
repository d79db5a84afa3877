/* launch_trace.c - the trace of `clrattach launch`: started on the paused runtime, drained by a
 * thread of its own while the program runs, finished by the runtime when the program exits.
 * Shared by both platforms: the thread's signals and the wait status are behind
 * launch/launch_platform.h. */
#define _GNU_SOURCE /* clock_gettime for common/mono_clock.h under -std=c11 */
#include "launch/launch.h"
#include "launch/launch_platform.h"
#include "common/mono_clock.h"
#include "trace/trace_options.h"

#include <errno.h>
#include <string.h>

#define PUMP_WAIT_MS 200

int launch_trace_open(launch_trace_t *t, const char *path, const trace_stop_event_t *e,
                      int quiet)
{
    memset(t, 0, sizeof *t);
    t->quiet = quiet;
    t->s.fd = -1;
    t->file.fd = t->file.dir = -1;
    t->path = path;
    if (trace_stop_monitor_open(&t->watch, e) != 0)
        return -1;
    if (out_file_open(&t->file, path, "--trace-output", "clrattach launch") == 0)
        return 0;
    int err = errno; /* why, for launch --json */
    trace_stop_monitor_close(&t->watch);
    errno = err;
    return -1;
}

/* The file, and the stopping event's watch until it matched. */
static int watched_sink(void *ctx, const void *data, size_t len)
{
    launch_trace_t *t = ctx;
    int rc = trace_file_sink(&t->file.fd, data, len);
    if (rc == 0 && t->watch.d && !t->watch.matched) {
        trace_stop_monitor_feed(&t->watch, data, len);
        if (t->watch.matched)
            atomic_store(&t->matched, 1);
    }
    return rc;
}

const char *launch_trace_due(launch_trace_t *t, long long duration_s, char *why, size_t cap)
{
    if (t->finished || !t->thread_started)
        return NULL;
    if (atomic_load(&t->matched)) { /* the drain wrote what, and touches it no more */
        snprintf(why, cap, "the stopping event %s arrived", t->watch.what);
        return "stopping-event";
    }
    if (duration_s && mono__s() - t->t0 >= (double)duration_s) {
        snprintf(why, cap, "--duration %lld s passed", duration_s);
        return "duration";
    }
    return NULL;
}

/* Moves the stream into the file until it ends or the launcher asks. After a failure the
 * stream is closed at once: a runtime writing into a socket nobody reads would block its
 * shutdown, and the program with it. */
static void *drain(void *arg)
{
    launch_trace_t *t = arg;
    int rc = 0;
    while (!atomic_load(&t->stop) && !t->s.eof && rc == 0)
        rc = clra_trace_pump(&t->s, watched_sink, t, PUMP_WAIT_MS, &t->st);
    if (rc) {
        t->rc = rc;
        clra_trace_session_close(&t->s);
    }
    atomic_store(&t->done, 1);
    return NULL;
}

/* The drain is started where it cannot take the signals launch passes on (Unix). */
static int start_drain(launch_trace_t *t)
{
    int err = launch_thread_start(&t->thread, drain, t);
    t->thread_started = err == 0;
    return err;
}

int launch_trace_start(launch_trace_t *t, const clra_target_t *target,
                       const clra_trace_config_t *cfg, int timeout_ms, int pid,
                       clra_status_t *st)
{
    int rc = clra_trace_start(target, cfg, timeout_ms, &t->s, st);
    if (rc)
        return rc;
    t->t0 = mono__s();
    int err = start_drain(t);
    if (err) {
        st->sys_errno = err;
        snprintf(st->detail, sizeof st->detail, "cannot start the thread that saves the trace: "
                 "%s", strerror(err));
        clra_trace_session_close(&t->s);
        return CLRA_EIO;
    }
    if (!t->quiet)
        fprintf(stderr, "clrattach launch: tracing process %d from its first instruction into "
                "%s (session 0x%llx, CollectTracing%d)\n", pid, t->path,
                (unsigned long long)t->s.id, t->s.command_version);
    return 0;
}

/* Stops and joins the drain; the stream stays open. */
static void end_drain(launch_trace_t *t)
{
    atomic_store(&t->stop, 1);
    if (t->thread_started)
        pthread_join(t->thread, NULL);
    t->thread_started = 0;
}

int launch_trace_stop(launch_trace_t *t, const clra_target_t *target, int timeout_ms,
                      const char *why, clra_status_t *st)
{
    end_drain(t);
    if (!t->stopped_by)
        t->stopped_by = why;
    if (t->s.fd < 0 || t->s.eof)
        return 0; /* it has ended already; the report says how */
    int rc = clra_trace_stop(&t->s, target, trace_file_sink, &t->file.fd, timeout_ms, st);
    /* Nobody reads the stream from here on: a runtime still writing must get an error, not
     * block its shutdown on a full socket. */
    if (rc) {
        t->rc = rc;
        t->st = *st;
        clra_trace_session_close(&t->s);
    }
    return rc;
}

void launch_trace_abandon(launch_trace_t *t)
{
    end_drain(t);
    trace_stop_monitor_close(&t->watch);
    clra_trace_session_close(&t->s);
    out_file_discard(&t->file); /* only a file we made: never a device or someone's file */
}

/* Why a file is not complete, in words a user can act on (t->why; "" when there is nothing to
 * add to the checker's problem). */
static void explain_incomplete(launch_trace_t *t, int status, int waited_out)
{
    char killed[96];
    if (launch_status_killed(status, killed, sizeof killed))
        snprintf(t->why, sizeof t->why, "the program was killed by %s, so its runtime could not "
                 "end the trace; it holds what was written before", killed);
    else if (t->rc)
        snprintf(t->why, sizeof t->why, "%s: %s", clra_strerror(t->rc), t->st.detail);
    else if (waited_out)
        snprintf(t->why, sizeof t->why, "the stream was still open after the program exited "
                 "(another process holds its socket?); raise --timeout to wait longer");
}

/* Checks the closed file into t->info. */
static void check_file(launch_trace_t *t)
{
    clra_status_t st;
    if (clra_nettrace_check_file(t->path, &t->info, &st) == 0)
        return;
    memset(&t->info, 0, sizeof t->info);
    t->info.state = CLRA_NETTRACE_INVALID;
    snprintf(t->info.problem, sizeof t->info.problem, "%.150s", st.detail);
}

/* The last word on stderr: what the file holds, and why it is not complete. */
static void say_written(const launch_trace_t *t, int pid)
{
    const clra_nettrace_info_t *info = &t->info;
    fprintf(stderr, "clrattach launch: wrote %s: %llu bytes in %.1f s from process %d, session "
            "0x%llx, CollectTracing%d: %s", t->path, (unsigned long long)t->s.bytes, t->seconds,
            pid, (unsigned long long)t->s.id, t->s.command_version,
            trace_state_text(info->state));
    if (info->state == CLRA_NETTRACE_VALID)
        fprintf(stderr, " (NetTrace %d, %u event blocks)\n", (int)info->version,
                info->event_blocks);
    else
        fprintf(stderr, ": %s\n", info->problem);
    if (t->why[0])
        fprintf(stderr, "  why: %s\n", cli_vis(t->why));
}

void launch_trace_finish(launch_trace_t *t, int timeout_ms, int pid, int status)
{
    if (t->finished)
        return;
    t->finished = 1;
    /* The runtime writes rundown and the end marker before it exits: what is left is in the
     * socket already, unless something else still holds the runtime's end of it. */
    for (int waited = 0; t->thread_started && !atomic_load(&t->done) && waited < timeout_ms;
         waited += 20)
        launch_sleep_ms(20);
    int waited_out = t->thread_started && !atomic_load(&t->done);
    end_drain(t);
    trace_stop_monitor_close(&t->watch);
    clra_trace_session_close(&t->s);
    t->seconds = mono__s() - t->t0;
    if (out_file_close(&t->file) != 0 && t->rc == 0) {
        t->rc = CLRA_EIO;
        snprintf(t->st.detail, sizeof t->st.detail, "closing %s: %s", t->path, strerror(errno));
    }
    if (!t->stopped_by)
        t->stopped_by = t->rc ? "error" : "program-exit";
    check_file(t);
    if (t->info.state != CLRA_NETTRACE_VALID)
        explain_incomplete(t, status, waited_out);
    if (!t->quiet)
        say_written(t, pid);
}

int launch_trace_convert(launch_trace_t *t, unsigned formats)
{
    if (!(formats & ~1u))
        return 0;
    return trace_convert_file(t->path, formats, t->quiet ? NULL : stderr, "--trace-output",
                              "clrattach launch", &t->converted);
}

/* As `trace --json` says it, and why a file is not complete. */
void launch_trace_json(json_out_t *j, const launch_trace_t *t)
{
    trace_result_t res = {t->s.id, t->s.command_version, t->s.bytes, t->seconds, t->stopped_by,
                          t->rc, &t->st};
    trace_json_fields(j, t->path, &res, &t->info, &t->converted);
    if (t->why[0])
        json_str(j, "why", t->why);
}
