/* report.c - the one reporter of every verb's outcome: a failure reads alike in text on stderr
 * and in the JSON object (ok, error, message, detail, hint, exit_code, elapsed_ms). */
#define _GNU_SOURCE
#include "base/cli.h"
#include "common/mono_clock.h"

/* The clock starts once the options are read, so elapsed_ms is the work, not the parsing. */
void cli_run_begin(cli_run_t *r, int pid, int json)
{
    r->pid = pid;
    r->json = json;
    r->t0_ns = mono__ns();
}

/* Monotonic, so a clock change during a long dump or trace does not skew it. */
double cli_run_ms(const cli_run_t *r)
{
    return (double)(mono__ns() - r->t0_ns) / 1e6;
}

int cli_run_left_ms(const cli_run_t *r, double budget_ms)
{
    double left = budget_ms - cli_run_ms(r);
    return left < 1 ? 1 : left > 0x7fffffff ? 0x7fffffff : (int)left;
}

/* "ok" first, so a reader sees the outcome before the details. */
json_out_t *cli_result_open(cli_run_t *r, int ok)
{
    if (!r->json)
        return NULL;
    json_begin(&r->j, stdout);
    json_bool(&r->j, "ok", ok);
    if (r->pid > 0)
        json_int(&r->j, "pid", r->pid);
    return &r->j;
}

/* The advice: the hint the verb chose, else the runtime's for its HRESULT (written for
 * profiler loads, so only a refused profiler gets it: a refused ProcessInfo read like a
 * profiler-path problem), else ours. */
const char *cli_hint_of(const cli_failure_t *f)
{
    if (f->hint)
        return f->hint;
    if (f->rc == CLRA_ERUNTIME && f->refusal)
        return clra_hresult_hint(f->st->hresult);
    if (f->rc == CLRA_ERUNTIME)
        return "the runtime refused this request (the meaning above is the HRESULT's general "
               "one); check that the runtime's version supports it (ps and info show the "
               "version) and that the options sent are ones it accepts";
    return cli_local_hint(f->rc);
}

/* The failure as JSON members: the same names for every verb. */
static void failure_json(json_out_t *j, const cli_failure_t *f)
{
    char hr[16];
    json_str(j, "error", clra_err_name(f->rc));
    json_str(j, "message", clra_strerror(f->rc));
    json_str(j, "detail", f->st->detail);
    if (f->rc == CLRA_ERUNTIME) {
        snprintf(hr, sizeof hr, "0x%08X", (unsigned)f->st->hresult);
        json_str(j, "hresult", hr);
        json_str(j, "hresult_name", clra_hresult_name(f->st->hresult));
        json_str(j, "meaning", clra_hresult_describe(f->st->hresult));
    }
    json_str(j, "hint", cli_hint_of(f));
}

/* The runtime said no: its HRESULT by name and value, what it means and what to do. */
static void refusal_text(const cli_run_t *r, const cli_failure_t *f)
{
    int32_t hr = f->st->hresult;
    fprintf(stderr, "clrattach: process %d ", r->pid);
    if (f->refusal)
        fputs(f->refusal, stderr);
    else
        fprintf(stderr, "refused to %s", f->action);
    fprintf(stderr, ": %s (0x%08X)\n  meaning: %s\n  what to do: %s\n", clra_hresult_name(hr),
            (unsigned)hr, clra_hresult_describe(hr), cli_hint_of(f));
    if (f->st->detail[0])
        fprintf(stderr, "  detail: %s\n", cli_vis(f->st->detail));
}

/* The failure as text: what could not be done, why, the detail and what to do. */
static void failure_text(const cli_run_t *r, const cli_failure_t *f)
{
    if (f->say) {
        f->say(f, f->ctx);
        return;
    }
    if (f->rc == CLRA_ERUNTIME) {
        refusal_text(r, f);
        return;
    }
    fprintf(stderr, "clrattach: cannot %s", f->action);
    if (r->pid > 0)
        fprintf(stderr, " process %d", r->pid);
    fprintf(stderr, ": %s\n", f->reason ? f->reason : clra_strerror(f->rc));
    if (f->st->detail[0])
        fprintf(stderr, "  detail: %s\n", cli_vis(f->st->detail));
    fprintf(stderr, "  what to do: %s\n", cli_hint_of(f));
}

/* The one place the error fields, exit_code and elapsed_ms are written. */
int cli_result_close(cli_run_t *r, const cli_failure_t *f)
{
    int code = !f ? EXIT_OK
               : f->exit_code || f->exit_code_set ? f->exit_code : cli_exit_code(f->rc);
    if (!r->json) {
        if (f && f->rc)
            failure_text(r, f);
        return code;
    }
    if (f && f->rc)
        failure_json(&r->j, f);
    json_int(&r->j, "exit_code", code);
    json_double(&r->j, "elapsed_ms", cli_run_ms(r));
    json_end(&r->j);
    return code;
}

/* For failures before the verb has anything of its own to say. */
int cli_fail(cli_run_t *r, const cli_failure_t *f)
{
    cli_result_open(r, 0);
    return cli_result_close(r, f);
}
