/* cmd_info.c - `clrattach info`: what the runtime says about its process (ProcessInfo3/2/1). */
#define _GNU_SOURCE
#include "verbs.h"
#include "base/cli.h"
#include "base/options.h"

#include <string.h>
#include <time.h>

#define DEFAULT_INFO_TIMEOUT_MS 5000

static const cli_verb_t info_verb = {
    .name = "info",
    .synopsis = "PID",
    .description =
        "Asks the runtime in .NET process PID who it is: its pid inside its own\n"
        "namespace, command line, OS, architecture, entry assembly, runtime version, RID\n"
        "and runtime cookie. Uses ProcessInfo3 (.NET 8+), falling back to ProcessInfo2\n"
        "(.NET 6) and ProcessInfo (.NET 5) only when the runtime does not know the newer\n"
        "command.\n",
    .epilogue = "exit codes: 0 answered, 2 usage, 3 no such process, 4 not .NET, 5 no endpoint,\n"
                "6 permission denied, 7 timed out, 8 connection/protocol failure,\n"
                "10 runtime refused.\n",
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT,
    .default_timeout_ms = DEFAULT_INFO_TIMEOUT_MS,
    .pid = 1,
    .args_error = "expected PID",
};

static const char *command_name(int command)
{
    return command == 3 ? "ProcessInfo3" : command == 2 ? "ProcessInfo2" : "ProcessInfo";
}

/* A field as text: the absent string and a field the answering command lacks read apart. */
static const char *shown(const char *value, int present_in_command)
{
    if (!present_in_command)
        return "(not reported by this runtime)";
    return value ? cli_vis(value) : "(absent)"; /* the target chose it */
}

/* Every field, absent ones as null, so scripts need not know the runtime's version. */
static int print_json(cli_run_t *run, const clra_endpoint_t *ep, const clra_process_info_t *in)
{
    char cookie[37];
    json_out_t *j = cli_result_open(run, 1);
    clra_guid_format(&in->cookie, cookie);
    json_int(j, "process_id", (long long)in->pid);
    json_int(j, "ns_pid", ep->ns_pid);
    json_str(j, "command", command_name(in->command));
    json_int(j, "version", in->version);
    json_str(j, "runtime_cookie", cookie);
    json_str(j, "command_line", in->command_line);
    json_str(j, "os", in->os);
    json_str(j, "arch", in->arch);
    json_str(j, "entry_assembly", in->entry_assembly);
    json_str(j, "clr_version", in->clr_version);
    json_str(j, "rid", in->rid);
    json_str(j, "endpoint", ep->path);
    return cli_result_close(run, NULL);
}

static void print_text(const cli_args_t *o, const clra_endpoint_t *ep,
                       const clra_process_info_t *in)
{
    char cookie[37];
    clra_guid_format(&in->cookie, cookie);
#ifdef _WIN32 /* no pid namespaces: the runtime's pid is the pid */
    printf("process %d\n", o->pid);
#else
    printf("process %d (pid %llu in its own namespace)\n", o->pid, (unsigned long long)in->pid);
#endif
    printf("  command line    %s\n", shown(in->command_line, 1));
    printf("  os / arch       %s / %s\n", shown(in->os, 1), shown(in->arch, 1));
    printf("  runtime         %s\n", shown(in->clr_version, in->command >= 2));
    printf("  rid             %s\n", shown(in->rid, in->command == 3 && in->version >= 1));
    printf("  entry assembly  %s\n", shown(in->entry_assembly, in->command >= 2));
    printf("  runtime cookie  %s\n", cookie);
    if (in->command == 3)
        printf("  answered by     %s (version %u)\n", command_name(3), (unsigned)in->version);
    else
        printf("  answered by     %s (the runtime predates ProcessInfo3)\n",
               command_name(in->command));
    printf("  endpoint        %s\n", cli_vis(ep->path));
}

/* One deadline covers finding the endpoint and asking it. */
int cmd_info(int argc, char **argv)
{
    cli_args_t a;
    cli_run_t run;
    clra_status_t st;
    clra_endpoint_t ep;
    clra_process_info_t info;
    int p = cli_parse(&info_verb, argc, argv, NULL, &a);
    if (p != 0)
        return p > 0 ? EXIT_OK : a.fail_exit;
    cli_run_begin(&run, a.pid, a.json);
    int rc = clra_endpoint_find(a.pid, &ep, &st);
    if (rc == 0) {
        /* The deadline covers the search too, which can be slow on a busy /proc. */
        double spent = cli_run_ms(&run);
        int left = (int)(spent < (double)a.timeout_ms ? (double)a.timeout_ms - spent : 1);
        clra_target_t target = clra_target_pid(a.pid);
        rc = clra_process_info_get(&target, left < 1 ? 1 : left, &info, &st);
    }
    if (rc != 0)
        return cli_fail(&run, &(cli_failure_t){.rc = rc, .st = &st, .action = "ask about"});
    int code = EXIT_OK;
    if (a.json)
        code = print_json(&run, &ep, &info);
    else
        print_text(&a, &ep, &info);
    clra_process_info_free(&info);
    return code;
}
