/* cmd_detach.c - `clrattach detach`: ask libclrprof profilers in a process to detach and wait
 * until the runtime has unloaded them. */
#define _GNU_SOURCE
#include "verbs.h"
#include "base/cli.h"
#include "base/options.h"

#include <stdlib.h>
#include <string.h>

#define DEFAULT_DETACH_TIMEOUT_MS 30000
#define MAX_PROFILERS 64

typedef struct detach_opts {
    int have_clsid;
    char clsid[37];
} detach_opts_t;

/* --clsid: kept lowercase, as the control endpoints spell it. */
static int take_clsid(void *dest, const char *arg)
{
    clra_guid_t g;
    if (clra_guid_parse(arg, &g) != 0) {
        fprintf(stderr, "clrattach: --clsid wants a GUID, not '%s'\n", arg);
        return -1;
    }
    cli_clsid_lower(&g, dest);
    CLI_CONTAINER(dest, detach_opts_t, clsid)->have_clsid = 1;
    return 0;
}

static const cli_opt_t detach_opts[] = {
    CLI_CALL("clsid", CLI_ARG_REQUIRED, detach_opts_t, clsid, "GUID", take_clsid,
             "only the profiler with this CLSID (default: every one)"),
    CLI_END,
};

static const cli_verb_t detach_verb = {
    .name = "detach",
    .synopsis = "PID",
    .description =
        "Asks the profilers built on libclrprof in .NET process PID to detach (through\n"
        "their owner-only control endpoint), then waits until the runtime has unloaded\n"
        "each one: its library is gone from /proc/PID/maps. Profilers not built on\n"
        "libclrprof cannot be detached from outside; they must call RequestProfilerDetach\n"
        "themselves.\n",
    .epilogue =
        "exit codes: 0 detached and unloaded (or detached and said to stay mapped, when\n"
        "the runtime keeps another reference to the library), 2 usage, 3 no such process,\n"
        "5 no profiler with a control endpoint, 6 permission denied, 7 still loaded at\n"
        "the deadline, 10 the runtime refused (the reason is printed).\n",
    .opts = detach_opts,
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT,
    .json_help = "print one JSON object per profiler instead of text",
    .timeout_help = "deadline for each profiler's detach, in milliseconds",
    .default_timeout_ms = DEFAULT_DETACH_TIMEOUT_MS,
    .pid = 1,
    .args_error = "expected one PID",
};

/* One profiler's detach, for the text report of a refusal. */
typedef struct detach_one {
    int pid;
    const clra_profiler_ref_t *ref;
    const clra_detach_result_t *r;
} detach_one_t;

/* The runtime's refusal in its own words (the profiler's message says why). */
static void say_refused(const cli_failure_t *f, const void *ctx)
{
    const detach_one_t *d = ctx;
    (void)f;
    fprintf(stderr, "clrattach: process %d refused to detach %s: %s (0x%08X)\n  why: %s\n",
            d->pid, d->r->name[0] ? d->r->name : d->ref->clsid, clra_hresult_name(d->r->hresult),
            (unsigned)d->r->hresult, d->r->message);
}

/* One profiler's outcome: a line, or one JSON object per profiler. */
static int report(const cli_args_t *a, const clra_profiler_ref_t *ref, int rc,
                  const clra_detach_result_t *r, const clra_status_t *st, cli_run_t *run)
{
    char hr[16], action[64];
    detach_one_t d = {a->pid, ref, r};
    json_out_t *j = cli_result_open(run, rc == 0);
    if (j) {
        json_str(j, "clsid", ref->clsid);
        json_str(j, "name", r->name);
        snprintf(hr, sizeof hr, "0x%08X", (unsigned)r->hresult);
        if (rc != CLRA_ERUNTIME) /* a refusal's HRESULT comes with the failure */
            json_str(j, "hresult", hr);
        json_int(j, "expected_ms", r->expected_ms);
        if (rc == 0)
            json_int(j, "library_refs", r->library_refs);
    } else if (rc == 0 && r->library_refs) {
        printf("detached %s {%s} from process %d in %d ms (expected_ms=%u); its library is "
               "still mapped: the runtime keeps %u more reference%s to it (an attach of the same "
               "library it refused keeps one, so does another profiler from it), so the file "
               "stays in use until the process exits\n", cli_vis(r->name), ref->clsid, a->pid,
               r->elapsed_ms, (unsigned)r->expected_ms, (unsigned)r->library_refs,
               r->library_refs == 1 ? "" : "s");
    } else if (rc == 0) {
        printf("detached %s {%s} from process %d: unloaded in %d ms (expected_ms=%u)\n",
               cli_vis(r->name),
               ref->clsid, a->pid, r->elapsed_ms, (unsigned)r->expected_ms);
    }
    snprintf(action, sizeof action, "detach {%s} from", ref->clsid);
    cli_failure_t f = {.rc = rc, .st = st, .action = action, .ctx = &d,
                       .say = rc == CLRA_ERUNTIME ? say_refused : NULL,
                       .hint = rc == CLRA_ETIMEDOUT ? "raise --timeout; the runtime unloads only "
                               "once no callback is running and every profiler thread has stopped"
                                                    : NULL};
    return cli_result_close(run, rc ? &f : NULL);
}

/* Puts notification-only profilers before the main one (--timeout counts from the start of the
 * run, so these status checks and each detach share it). .NET 10 crashes in
 * RequestProfilerDetach of a notification profiler that is still loaded after another
 * notification profiler and then the main profiler were detached
 * (docs/runtime-behaviour.md); detaching every notification profiler before the main one
 * never meets that order. */
static void notification_first(clra_profiler_ref_t *refs, int n, const cli_run_t *run,
                               long long timeout_ms)
{
    int front = 0;
    for (int i = 0; i < n; i++) {
        char reply[512];
        clra_status_t st;
        int left = cli_run_left_ms(run, (double)timeout_ms);
        if (left <= 1 || clra_profiler_status(&refs[i], left, reply, sizeof reply, &st) != 0 ||
            !cli_contains(reply, " notification_only=1"))
            continue;
        clra_profiler_ref_t t = refs[front];
        refs[front++] = refs[i];
        refs[i] = t;
    }
}

/* Nothing to detach, or the process could not be searched: one failure for the process. */
static int nothing_found(cli_run_t *run, int n, clra_status_t *st)
{
    int rc = n < 0 ? n : CLRA_ENOENDPOINT;
    cli_failure_t f = {.rc = rc, .st = st, .action = "detach from",
                       .reason = n < 0 ? NULL : "no profiler to detach",
                       .hint = n < 0 ? NULL : "check the pid; profilers not built on libclrprof "
                                              "must call RequestProfilerDetach themselves"};
    return cli_fail(run, &f);
}

/* Detaches each chosen profiler in turn; the first failure decides the exit code. */
static int detach_all(const cli_args_t *a, const detach_opts_t *o, clra_profiler_ref_t *refs,
                      int n, int *tried, const cli_run_t *whole)
{
    int worst = EXIT_OK;
    for (int i = 0; i < n; i++) {
        if (o->have_clsid && strcmp(o->clsid, refs[i].clsid) != 0)
            continue;
        clra_detach_result_t r;
        clra_status_t st;
        cli_run_t run;
        cli_run_begin(&run, a->pid, a->json);
        int left = cli_run_left_ms(whole, (double)a->timeout_ms);
        int rc = clra_profiler_detach(&refs[i], left, &r, &st);
        int code = report(a, &refs[i], rc, &r, &st, &run);
        (*tried)++;
        if (code && !worst)
            worst = code;
    }
    return worst;
}

/* --clsid named none of the profilers found. */
static int no_such_clsid(cli_run_t *run, const char *clsid)
{
    char reason[96];
    clra_status_t st;
    memset(&st, 0, sizeof st);
    snprintf(reason, sizeof reason, "it has no libclrprof profiler with CLSID %s", clsid);
    cli_failure_t f = {.rc = CLRA_ENOENDPOINT, .st = &st, .action = "detach from",
                       .reason = reason, .hint = "check the CLSID, or leave out --clsid to "
                       "detach every libclrprof profiler in the process"};
    return cli_fail(run, &f);
}

/* Every profiler found is detached even when one fails; staged copies are swept after. */
int cmd_detach(int argc, char **argv)
{
    detach_opts_t o;
    cli_args_t a;
    cli_run_t run;
    clra_status_t st;
    memset(&o, 0, sizeof o);
    int p = cli_parse(&detach_verb, argc, argv, &o, &a);
    if (p != 0)
        return p > 0 ? EXIT_OK : a.fail_exit;
    clra_profiler_ref_t *refs = calloc(MAX_PROFILERS, sizeof *refs);
    if (!refs)
        return EXIT_INTERNAL;
    cli_run_begin(&run, a.pid, a.json);
    int n = clra_profiler_list(a.pid, refs, MAX_PROFILERS, &st), tried = 0, code;
    if (n <= 0) {
        code = nothing_found(&run, n, &st);
    } else {
        int m = n < MAX_PROFILERS ? n : MAX_PROFILERS;
        notification_first(refs, m, &run, a.timeout_ms);
        code = detach_all(&a, &o, refs, m, &tried, &run);
    }
    free(refs);
    cli_sweep_stage(a.pid, a.json);
    return n > 0 && !tried ? no_such_clsid(&run, o.clsid) : code;
}
