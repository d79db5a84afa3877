/* profile_events_cmd.c - profile's event modes from start to report: the session, the
 * profile in the mode's unit, the writer, and what the run saw (text or one JSON object). */
#include "profile/profile_events.h"

#include <stdlib.h>
#include <string.h>

/* A weight in the mode's unit for people: " (12.3 MiB allocated)", " (45.6 ms waited)", or
 * nothing for counts (the events are the count). */
static void human(const char *unit, uint64_t v, char *out, size_t cap)
{
    if (strcmp(unit, "bytes") == 0)
        snprintf(out, cap, " (%.1f MiB allocated)", (double)v / 1048576.0);
    else if (strcmp(unit, "nanoseconds") == 0)
        snprintf(out, cap, " (%.1f ms waited)", (double)v / 1e6);
    else
        out[0] = 0;
}

static int report(cli_run_t *run, const pe_cmd_t *c, const pe_run_t *r,
                  const pe_session_result_t *res, const profile_t *p, int written,
                  const char *text)
{
    json_out_t *j = cli_result_open(run, written == 0);
    char total[64];
    human(r->mode->unit, profile_total_weight(p), total, sizeof total);
    if (j) {
        json_str(j, "mode", r->mode->name);
        json_str(j, "source", r->source);
        json_str(j, "runtime", res->runtime);
        json_str(j, "unit", r->mode->unit);
        json_int(j, "events", (long long)r->events);
        json_int(j, "weight", (long long)profile_total_weight(p));
        json_int(j, "stacks", (long long)p->nstacks);
        json_int(j, "methods", (long long)r->nmethods);
        json_double(j, "seconds", res->seconds);
        json_int(j, "stream_bytes", (long long)res->bytes);
        json_bool(j, "target_exited", res->exited);
        r->mode->report(r, j, NULL);
        if (c->output)
            json_str(j, "output", c->output);
        else if (text)
            json_str(j, "profile", text);
    } else {
        FILE *f = c->output ? stdout : stderr;
        r->mode->report(r, NULL, f);
        fprintf(f, "%llu %s events%s, %zu distinct stacks%s%s%s\n",
                (unsigned long long)r->events, r->mode->name, total, p->nstacks,
                c->output ? " written to " : "", c->output ? cli_vis(c->output) : "",
                res->exited ? " (the process exited while profiled: these are the events "
                "until then, without the rundown that names methods)" : "");
    }
    int code = written ? EXIT_INTERNAL : res->exited ? 11 : EXIT_OK;
    cli_failure_t f = {.exit_code = code, .exit_code_set = 1};
    return cli_result_close(run, code == EXIT_OK ? NULL : &f);
}

/* The profile's names for the mode's weight, and its title. */
static void label(profile_t *p, const pe_cmd_t *c, const pe_run_t *r, char *title, size_t cap)
{
    snprintf(title, cap, "clrattach profile %d (%s, %s)", c->pid, r->mode->name, r->source);
    p->title = title;
    p->weight_name = r->mode->weight_name;
    p->weight_unit = r->mode->unit;
    p->untimed = 1;
    p->folded_weights = 1;
    p->pid = (uint32_t)c->pid;
}

int profile_events_cmd(const pe_cmd_t *c)
{
    cli_run_t run;
    clra_status_t st = {0};
    pe_run_t r = {.mode = c->mode};
    pe_session_result_t res;
    pe_session_opts_t so = {c->pid, c->duration_s, c->timeout_ms, c->json};
    cli_run_begin(&run, c->pid, c->json);
    int rc = pe_session_run(&r, &so, &run, &res, &st);
    if (rc == 1 || (rc && !(res.exited && rc != CLRA_ENOMEM))) {
        cli_failure_t f = {.rc = rc == 1 ? CLRA_EINVAL : rc, .st = &st, .action = "profile",
                           .reason = r.why, .hint = r.hint,
                           .exit_code = rc == 1 ? EXIT_REFUSED : 0};
        pe_free(&r);
        return cli_fail(&run, &f);
    }
    profile_t p;
    char title[160], *text = NULL;
    profile_init(&p);
    label(&p, c, &r, title, sizeof title);
    p.duration_ns = (uint64_t)(res.seconds * 1e9);
    int written = pe_resolve(&r, &p) ? -1
                  : profile_write_output(&p, c->output, c->threads, c->fmt, c->json, &text);
    int code = report(&run, c, &r, &res, &p, written, text);
    free(text);
    profile_free(&p);
    pe_free(&r);
    return code;
}
