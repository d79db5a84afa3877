/* cmd_ps.c - `clrattach ps`: the .NET processes this user can see, in any TMPDIR or namespace. */
#define _GNU_SOURCE
#include "verbs.h"
#include "base/cli.h"
#include "base/options.h"
#include "base/platform.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_PS_TIMEOUT_MS 10000
#define DEFAULT_PROBE_TIMEOUT_MS 1000
#define STALE_SHOWN 3

typedef struct ps_opts {
    long long probe_ms;
} ps_opts_t;

static const cli_opt_t ps_opts[] = {
    CLI_INT("probe-timeout", ps_opts_t, probe_ms, "MS", 1, CLI_TIMEOUT_MAX_MS,
            "deadline for asking one process, in milliseconds (default "
            CLI_STR(DEFAULT_PROBE_TIMEOUT_MS) ")"),
    CLI_END,
};

static const cli_verb_t ps_verb = {
    .name = "ps",
    .synopsis = "",
    .description =
        "Lists every .NET process this user can see: those with a diagnostics socket in\n"
        "their own TMPDIR, ours or /tmp (through /proc/PID/root when they live in another\n"
        "mount namespace) and those running a runtime without one. Each is asked\n"
        "ProcessInfo for its command line, runtime version and RID; STATUS says why one\n"
        "could not be asked (permission, no-endpoint, refused, timeout, ...). PID is the\n"
        "pid here, NSPID the pid inside its own PID namespace. Socket files left by\n"
        "processes that died are reported as stale, not listed.\n",
    .epilogue = "exit codes: 0 listed (even none), 1 /proc could not be read, 2 usage.\n",
    .opts = ps_opts,
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT,
    .json_help = "print one JSON object (a \"processes\" array) instead of text",
    .timeout_help = "deadline for the whole listing in milliseconds; processes not asked by "
                    "then are listed with status timeout",
    .default_timeout_ms = DEFAULT_PS_TIMEOUT_MS,
};

/* One word for the STATUS column. */
static const char *status_word(int reach)
{
    switch (reach) {
    case 0:
        return "ok";
    case CLRA_EACCES:
        return "permission";
    case CLRA_EUNSAFE:
        return "unsafe";
    case CLRA_ENOENDPOINT:
        return "no-endpoint";
    case CLRA_ECONNREFUSED:
        return "refused";
    case CLRA_ETIMEDOUT:
        return "timeout";
    case CLRA_ERUNTIME:
        return "runtime-error";
    case CLRA_ECONNLOST:
        return "conn-lost";
    case CLRA_EPROTO:
        return "protocol";
    default:
        return "error";
    }
}

static void json_entry(json_out_t *j, const clra_process_entry_t *e)
{
    const clra_process_info_t *in = &e->info;
    json_object(j, NULL);
    json_int(j, "pid", e->pid);
    json_int(j, "ns_pid", e->ns_pid);
    json_int(j, "uid", e->uid);
    json_str(j, "user", e->user);
    json_bool(j, "other_mount_ns", e->other_mount_ns);
    json_bool(j, "reachable", e->reach == 0);
    json_str(j, "status", status_word(e->reach));
    json_str(j, "command_line", e->command_line);
    json_str(j, "clr_version", in->clr_version);
    json_str(j, "rid", in->rid);
    json_str(j, "os", in->os);
    json_str(j, "arch", in->arch);
    json_str(j, "entry_assembly", in->entry_assembly);
    json_str(j, "endpoint", e->endpoint);
    if (e->reach == 0) {
        json_str(j, "answered_by", in->command == 3 ? "ProcessInfo3"
                                   : in->command == 2 ? "ProcessInfo2" : "ProcessInfo");
    } else {
        json_str(j, "error", clra_err_name(e->reach));
        json_str(j, "reason", e->reason);
    }
    if (e->reach == CLRA_ERUNTIME) {
        char hr[16];
        snprintf(hr, sizeof hr, "0x%08X", (unsigned)e->hresult);
        json_str(j, "hresult", hr);
    }
    json_close(j);
}

/* One object: the processes, then what could not be looked at. */
static int print_json(cli_run_t *run, const clra_process_list_t *l)
{
    json_out_t *j = cli_result_open(run, 1);
    json_int(j, "count", (long long)l->count);
    json_array(j, "processes");
    for (size_t i = 0; i < l->count; i++)
        json_entry(j, &l->entries[i]);
    json_close(j);
    json_int(j, "unreadable", l->unreadable);
    json_array(j, "stale_sockets");
    for (size_t i = 0; i < l->stale_count; i++)
        json_str(j, NULL, l->stale[i]);
    json_close(j);
    return cli_result_close(run, NULL);
}

/* The version without its "+commit" build suffix, which only widens the table. */
static void short_version(const char *v, char *out, size_t cap)
{
    snprintf(out, cap, "%.*s", v ? (int)strcspn(v, "+") : 1, v ? v : "-");
}

static void print_text(const clra_process_list_t *l)
{
    if (l->count == 0)
        printf("no .NET processes found\n");
    else
        printf("%-8s %-6s %-10s %-10s %-12s %-13s %s\n", "PID", "NSPID", "USER", "RUNTIME",
               "RID", "STATUS", "COMMAND");
    for (size_t i = 0; i < l->count; i++) {
        const clra_process_entry_t *e = &l->entries[i];
        char version[64];
        short_version(e->info.clr_version, version, sizeof version);
        printf("%-8d %-6d %-10s %-10s %-12s %-13s %s\n", e->pid, e->ns_pid, cli_vis(e->user),
               cli_vis(version), e->info.rid ? cli_vis(e->info.rid) : "-", status_word(e->reach),
               e->command_line ? cli_vis(e->command_line) : "?");
    }
    for (size_t i = 0; i < l->count; i++)
        if (l->entries[i].reach != 0)
            fprintf(stderr, "clrattach: process %d: %s\n", l->entries[i].pid,
                    cli_vis(l->entries[i].reason));
    if (l->unreadable)
        cli_platform_say_unreadable(l->unreadable);
    if (l->stale_count) {
        fprintf(stderr, "clrattach: %zu stale diagnostics socket%s (no live process here owns "
                "them):", l->stale_count, l->stale_count == 1 ? "" : "s");
        for (size_t i = 0; i < l->stale_count && i < STALE_SHOWN; i++)
            fprintf(stderr, " %s", cli_vis(l->stale[i]));
        fprintf(stderr, "%s\n", l->stale_count > STALE_SHOWN ? " ..." : "");
    }
}

/* Listing fails only when /proc cannot be read, hence exit 1 rather than a target's code. */
int cmd_ps(int argc, char **argv)
{
    ps_opts_t o = {DEFAULT_PROBE_TIMEOUT_MS};
    cli_args_t a;
    cli_run_t run;
    clra_status_t st;
    clra_process_list_t list;
    int p = cli_parse(&ps_verb, argc, argv, &o, &a);
    if (p != 0)
        return p > 0 ? EXIT_OK : EXIT_USAGE;
    cli_run_begin(&run, 0, a.json);
    int rc = clra_process_list((int)a.timeout_ms, (int)o.probe_ms, &list, &st);
    if (rc != 0)
        return cli_fail(&run, &(cli_failure_t){.rc = rc, .st = &st, .action = "list processes",
                                               .exit_code = EXIT_INTERNAL});
    int code = EXIT_OK;
    if (a.json)
        code = print_json(&run, &list);
    else
        print_text(&list);
    clra_process_list_free(&list);
    return code;
}
