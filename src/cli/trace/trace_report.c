/* trace_report.c - the last word of `clrattach trace`: what was written and whether it is a
 * complete trace, in text or as one JSON object. */
#define _GNU_SOURCE
#include "trace/trace_options.h"
#include "trace/trace_record.h"

#include <string.h>
#include <unistd.h>

/* Nothing was recorded: only the command version tells what would have been sent. */
void trace_report_failure(const trace_opts_t *o, int rc, const clra_status_t *st)
{
    json_out_t *j = cli_result_open(o->run, 0);
    if (j)
        json_int(j, "command_version", clra_trace_config_version(&o->cfg));
    cli_result_close(o->run, &(cli_failure_t){.rc = rc, .st = st, .action = "trace"});
}

/* Why the stream ended before we stopped it: the process went away (its end of the socket
 * closes a moment before it is gone, hence the short wait), or someone else ended the
 * session (another tool's StopTracing, the runtime). */
static const char *early_end_cause(int pid)
{
    for (int i = 0; i < 20; i++) {
        if (!clra_process_is_alive(pid))
            return "the process exited";
        usleep(50000);
    }
    return "the session was ended by the runtime or another tool";
}

static int exit_code(const trace_result_t *res, const clra_nettrace_info_t *info)
{
    if (info->state == CLRA_NETTRACE_VALID)
        return EXIT_OK;
    return res->rc ? cli_exit_code(res->rc) : EXIT_CONNECTION;
}

/* The --format conversions: which format, where, whether it was written. */
static void report_conversions(json_out_t *j, const trace_converted_t *done)
{
    json_array(j, "converted");
    for (int i = 0; i < done->count; i++) {
        json_object(j, NULL);
        json_str(j, "format", done->items[i].format);
        json_str(j, "path", done->items[i].path);
        json_bool(j, "ok", done->items[i].ok);
        json_close(j);
    }
    json_close(j);
}

/* The trace's own fields; the reporter adds the error, exit_code and elapsed_ms. launch
 * --json writes the same inside its "trace" member. */
void trace_json_fields(json_out_t *j, const char *output, const trace_result_t *res,
                       const clra_nettrace_info_t *info, const trace_converted_t *done)
{
    char id[24];
    snprintf(id, sizeof id, "0x%llx", (unsigned long long)res->session_id);
    json_str(j, "output", output);
    json_int(j, "bytes", (long long)res->bytes);
    json_double(j, "duration_s", res->seconds);
    json_str(j, "session_id", id);
    json_int(j, "command_version", res->command_version);
    json_str(j, "stopped_by", res->stopped_by);
    json_bool(j, "valid", info->state == CLRA_NETTRACE_VALID);
    json_str(j, "status", info->state == CLRA_NETTRACE_VALID ? "valid"
                          : info->state == CLRA_NETTRACE_INCOMPLETE ? "incomplete" : "invalid");
    json_str(j, "problem", info->problem);
    json_int(j, "nettrace_version", info->version);
    json_int(j, "event_blocks", info->event_blocks);
    report_conversions(j, done);
}

/* One line on stdout: what was written and whether it is a complete trace. */
static void report_text(const trace_opts_t *o, const trace_result_t *res,
                        const clra_nettrace_info_t *info)
{
    printf("wrote %s: %llu bytes in %.1f s from process %d, session 0x%llx, "
           "CollectTracing%d: %s", o->output, (unsigned long long)res->bytes, res->seconds,
           o->pid, (unsigned long long)res->session_id, res->command_version,
           trace_state_text(info->state));
    if (info->state == CLRA_NETTRACE_VALID)
        printf(" (NetTrace %d, %u event blocks)\n", (int)info->version, info->event_blocks);
    else
        printf(": %s\n", cli_vis(info->problem));
    fflush(stdout);
}

/* After the report of a stream that ended by itself: why it did. */
static void early_end_note(const trace_opts_t *o, const trace_result_t *res,
                           const clra_nettrace_info_t *info)
{
    if (o->json || res->rc || strcmp(res->stopped_by, "stream-end") != 0)
        return;
    if (info->state == CLRA_NETTRACE_VALID)
        fprintf(stderr, "note: the stream ended before the trace was stopped (%s); the runtime "
                "ended the session itself, rundown and end marker included\n",
                early_end_cause(o->pid));
    else
        fprintf(stderr, "clrattach: the stream ended before the trace was stopped: %s; the "
                "file holds what was received\n", early_end_cause(o->pid));
}

int trace_report(const trace_opts_t *o, const trace_result_t *res)
{
    clra_nettrace_info_t info;
    clra_status_t st;
    if (clra_nettrace_check_file(o->output, &info, &st) != 0) {
        memset(&info, 0, sizeof info);
        info.state = CLRA_NETTRACE_INVALID;
        snprintf(info.problem, sizeof info.problem, "%.150s", st.detail);
    }
    int code = exit_code(res, &info);
    trace_converted_t done = {0};
    if (!o->json)
        report_text(o, res, &info);
    /* what an invalid file holds is not worth converting; a cut one's beginning is */
    if (info.state != CLRA_NETTRACE_INVALID && trace_convert_formats(o, &done) != 0 &&
        code == EXIT_OK)
        code = EXIT_INTERNAL;
    json_out_t *j = cli_result_open(o->run, code == EXIT_OK);
    if (j)
        trace_json_fields(j, o->output, res, &info, &done);
    cli_failure_t f = {.rc = res->rc, .st = res->st, .action = "stop tracing", .exit_code = code,
                       .exit_code_set = 1,
                       .hint = res->rc == CLRA_ETIMEDOUT ? "raise --timeout; the rundown of a "
                               "large process can take a while, and the file is incomplete "
                               "without it" : NULL};
    code = cli_result_close(o->run, code == EXIT_OK && !res->rc ? NULL : &f);
    early_end_note(o, res, &info);
    return code;
}
