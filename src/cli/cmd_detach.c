/* cmd_detach.c - `clrattach detach`: ask libclrprof profilers in a process to detach and wait
 * until the runtime has unloaded them. */
#define _GNU_SOURCE
#include "cli.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_DETACH_TIMEOUT_MS 30000
#define MAX_PROFILERS 64

static void detach_usage(FILE *f)
{
    fprintf(f,
            "usage: clrattach detach [options] PID\n"
            "\n"
            "Asks the profilers built on libclrprof in .NET process PID to detach (through their\n"
            "owner-only control endpoint), then waits until the runtime has unloaded each one:\n"
            "its library is gone from /proc/PID/maps. Profilers not built on libclrprof cannot be\n"
            "detached from outside; they must call RequestProfilerDetach themselves.\n"
            "\n"
            "options:\n"
            "  --clsid GUID   only the profiler with this CLSID (default: every one)\n"
            "  --timeout MS   deadline for each profiler's detach, in milliseconds (default %d)\n"
            "  --json         print one JSON object per profiler instead of text\n"
            "  --help         show this help\n"
            "\n"
            "exit codes: 0 detached and unloaded, 2 usage, 3 no such process, 5 no profiler with a\n"
            "control endpoint, 6 permission denied, 7 still loaded at the deadline, 10 the runtime\n"
            "refused (the reason is printed).\n",
            DEFAULT_DETACH_TIMEOUT_MS);
}

typedef struct detach_opts {
    int pid, json, have_clsid;
    char clsid[37];
    long long timeout_ms;
} detach_opts_t;

static int parse_options(int argc, char **argv, detach_opts_t *o)
{
    static const struct option longs[] = {{"clsid", required_argument, 0, 'c'},
                                          {"timeout", required_argument, 0, 't'},
                                          {"json", no_argument, 0, 'j'},
                                          {"help", no_argument, 0, 'h'},
                                          {0, 0, 0, 0}};
    int c, bad = 0;
    clra_guid_t g;
    o->timeout_ms = DEFAULT_DETACH_TIMEOUT_MS;
    optind = 1;
    while (!bad && (c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        if (c == 'c') {
            bad = clra_guid_parse(optarg, &g) != 0;
            if (bad)
                fprintf(stderr, "clrattach: --clsid wants a GUID, not '%s'\n", optarg);
            cli_clsid_lower(&g, o->clsid);
            o->have_clsid = 1;
        } else if (c == 't') {
            bad = cli_parse_int("--timeout", optarg, 1, 86400000, &o->timeout_ms);
        } else if (c == 'j') {
            o->json = 1;
        } else if (c == 'h') {
            detach_usage(stdout);
            exit(EXIT_OK);
        } else {
            bad = 1;
        }
    }
    if (bad)
        return -1;
    if (argc - optind != 1) {
        fprintf(stderr, "clrattach detach: expected one PID (see --help)\n");
        return -1;
    }
    if (cli_parse_pid(argv[optind], &o->pid) != 0)
        return -1;
    return 0;
}

static void report(const detach_opts_t *o, const clra_profiler_ref_t *ref, int rc,
                   const clra_detach_result_t *r, const clra_status_t *st)
{
    if (o->json) {
        json_out_t j;
        char hr[16];
        snprintf(hr, sizeof hr, "0x%08X", (unsigned)r->hresult);
        json_begin(&j, stdout);
        json_bool(&j, "ok", rc == 0);
        json_int(&j, "pid", o->pid);
        json_str(&j, "clsid", ref->clsid);
        json_str(&j, "name", r->name);
        json_str(&j, "hresult", hr);
        json_int(&j, "expected_ms", r->expected_ms);
        json_int(&j, "elapsed_ms", r->elapsed_ms);
        json_int(&j, "exit_code", cli_exit_code(rc));
        if (rc) {
            json_str(&j, "error", clra_err_name(rc));
            json_str(&j, "detail", st->detail);
        }
        json_end(&j);
    } else if (rc == 0) {
        printf("detached %s {%s} from process %d: unloaded in %d ms (expected_ms=%u)\n", r->name,
               ref->clsid, o->pid, r->elapsed_ms, (unsigned)r->expected_ms);
    } else if (rc == CLRA_ERUNTIME) {
        fprintf(stderr, "clrattach: process %d refused to detach %s: %s (0x%08X)\n  why: %s\n",
                o->pid, r->name[0] ? r->name : ref->clsid, clra_hresult_name(r->hresult),
                (unsigned)r->hresult, r->message);
    } else {
        fprintf(stderr, "clrattach: cannot detach {%s} from process %d: %s\n  detail: %s\n"
                "  what to do: %s\n", ref->clsid, o->pid, clra_strerror(rc), st->detail,
                rc == CLRA_ETIMEDOUT ? "raise --timeout; the runtime unloads only once no callback "
                                       "is running and every profiler thread has stopped"
                                     : cli_local_hint(rc));
    }
}

void cli_sweep_stage(int pid, int quiet)
{
    int removed = 0;
    clra_status_t st;
    if (clra_stage_sweep(pid, &removed, &st) == 0 && removed > 0 && !quiet)
        printf("removed %d staged profiler cop%s from process %d's temp directory\n", removed,
               removed == 1 ? "y" : "ies", pid);
}

/* Puts notification-only profilers before the main one. .NET 10 crashes in
 * RequestProfilerDetach of a notification profiler that is still loaded after another
 * notification profiler and then the main profiler were detached (see the README); detaching
 * every notification profiler before the main one never meets that order. */
static void notification_first(clra_profiler_ref_t *refs, int n)
{
    int front = 0;
    for (int i = 0; i < n; i++) {
        char reply[512];
        clra_status_t st;
        if (clra_profiler_status(&refs[i], 2000, reply, sizeof reply, &st) != 0 ||
            !strstr(reply, " notification_only=1"))
            continue;
        clra_profiler_ref_t t = refs[front];
        refs[front++] = refs[i];
        refs[i] = t;
    }
}

int cmd_detach(int argc, char **argv)
{
    detach_opts_t o;
    clra_status_t st;
    memset(&o, 0, sizeof o);
    if (parse_options(argc, argv, &o) != 0)
        return EXIT_USAGE;
    clra_profiler_ref_t *refs = calloc(MAX_PROFILERS, sizeof *refs);
    if (!refs)
        return EXIT_INTERNAL;
    int n = clra_profiler_list(o.pid, refs, MAX_PROFILERS, &st), worst = 0, tried = 0;
    if (n <= 0) {
        int rc = n < 0 ? n : CLRA_ENOENDPOINT;
        fprintf(stderr, "clrattach: cannot detach from process %d: %s\n  detail: %s\n"
                "  what to do: %s\n", o.pid, n < 0 ? clra_strerror(rc) : "no profiler to detach",
                st.detail, n < 0 ? cli_local_hint(rc) : "check the pid; profilers not built on "
                "libclrprof must call RequestProfilerDetach themselves");
        free(refs);
        cli_sweep_stage(o.pid, o.json);
        return cli_exit_code(rc);
    }
    if (n > MAX_PROFILERS)
        n = MAX_PROFILERS;
    notification_first(refs, n);
    for (int i = 0; i < n; i++) {
        if (o.have_clsid && strcmp(o.clsid, refs[i].clsid) != 0)
            continue;
        clra_detach_result_t r;
        int rc = clra_profiler_detach(&refs[i], (int)o.timeout_ms, &r, &st);
        report(&o, &refs[i], rc, &r, &st);
        tried++;
        if (rc && !worst)
            worst = rc;
    }
    free(refs);
    cli_sweep_stage(o.pid, o.json);
    if (!tried) {
        fprintf(stderr, "clrattach: process %d has no libclrprof profiler with CLSID %s\n", o.pid, o.clsid);
        return cli_exit_code(CLRA_ENOENDPOINT);
    }
    return cli_exit_code(worst);
}
