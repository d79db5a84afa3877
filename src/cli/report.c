/* report.c - how every verb reports a failure, so all of them read alike in text and JSON. */
#include "cli.h"

void cli_report_error(const char *action, int pid, int rc, const clra_status_t *st, json_out_t *j)
{
    char hr[16];
    if (j) {
        json_str(j, "error", clra_err_name(rc));
        json_str(j, "message", clra_strerror(rc));
        json_str(j, "detail", st->detail);
        if (rc == CLRA_ERUNTIME) {
            snprintf(hr, sizeof hr, "0x%08X", (unsigned)st->hresult);
            json_str(j, "hresult", hr);
            json_str(j, "hresult_name", clra_hresult_name(st->hresult));
            json_str(j, "meaning", clra_hresult_describe(st->hresult));
            json_str(j, "hint", clra_hresult_hint(st->hresult));
        } else {
            json_str(j, "hint", cli_local_hint(rc));
        }
        return;
    }
    if (rc == CLRA_ERUNTIME) {
        fprintf(stderr, "clrattach: process %d refused to %s: %s (0x%08X)\n  meaning: %s\n"
                "  what to do: %s\n", pid, action, clra_hresult_name(st->hresult),
                (unsigned)st->hresult, clra_hresult_describe(st->hresult),
                clra_hresult_hint(st->hresult));
        if (st->detail[0])
            fprintf(stderr, "  detail: %s\n", st->detail);
        return;
    }
    fprintf(stderr, "clrattach: cannot %s process %d: %s\n", action, pid, clra_strerror(rc));
    if (st->detail[0])
        fprintf(stderr, "  detail: %s\n", st->detail);
    fprintf(stderr, "  what to do: %s\n", cli_local_hint(rc));
}

int cli_parse_pid(const char *text, int *pid)
{
    long long v;
    if (cli_parse_int("PID", text, 1, 0x7fffffff, &v) != 0)
        return -1;
    *pid = (int)v;
    return 0;
}

json_out_t *cli_json_start(const cli_common_t *o, json_out_t *j, int rc)
{
    if (!o->json)
        return NULL;
    json_begin(j, stdout);
    json_bool(j, "ok", rc == 0);
    json_int(j, "pid", o->pid);
    return j;
}

int cli_finish(json_out_t *j, const char *action, const cli_common_t *o, int rc,
               const clra_status_t *st)
{
    if (rc)
        cli_report_error(action, o->pid, rc, st, j);
    if (j)
        json_end(j);
    return cli_exit_code(rc);
}
