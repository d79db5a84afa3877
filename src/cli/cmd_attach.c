/* cmd_attach.c - `clrattach attach`: load a profiler into a running process. */
#define _GNU_SOURCE
#include "verbs.h"
#include "base/cli.h"
#include "base/platform.h"
#include "base/options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The hello profiler's class, used when --clsid is not given. */
#define DEFAULT_ATTACH_TIMEOUT_MS 10000
#define DEFAULT_TIMEOUT_MS 30000

typedef struct attach_opts {
    int data_sources; /* first: the --data* options get the whole struct (offset 0) */
    int parse_exit;   /* the exit code of a refused command line */
    clra_guid_t clsid;
    unsigned char *data;
    size_t data_len;
    long long attach_timeout_ms;
    long long timeout_ms;
    int json;
    int hold;
    int stage;
    int pid;
    char path[CLRA_PATH_MAX];
} attach_opts_t;

/* Decodes hex digits (spaces allowed between bytes) into a new buffer. */
static int parse_hex(const char *text, unsigned char **out, size_t *len)
{
    size_t n = 0, cap = strlen(text) / 2 + 1;
    unsigned char *buf = malloc(cap);
    for (const char *p = text; buf && *p;) {
        if (*p == ' ' || *p == ':') {
            p++;
            continue;
        }
        if (!p[1] || strspn(p, "0123456789abcdefABCDEF") < 2) {
            fprintf(stderr, "clrattach: --data-hex wants pairs of hex digits, not '%s'\n", text);
            free(buf);
            return -1;
        }
        char pair[3] = {p[0], p[1], '\0'};
        buf[n++] = (unsigned char)strtoul(pair, NULL, 16);
        p += 2;
    }
    *out = buf;
    *len = n;
    return buf ? 0 : -1;
}

/* Reads FILE whole, refusing anything larger than the protocol can carry. */
static int read_data_file(const char *path, unsigned char **out, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "clrattach: cannot read --data-file %s: %s\n", path, strerror(errno));
        return -1;
    }
    unsigned char *buf = malloc(CLRA_MAX_CLIENT_DATA + 1);
    size_t n = buf ? fread(buf, 1, CLRA_MAX_CLIENT_DATA + 1, f) : 0;
    int bad = !buf || ferror(f) || n > CLRA_MAX_CLIENT_DATA;
    fclose(f);
    if (bad) {
        fprintf(stderr, "clrattach: --data-file %s is unreadable or over %d bytes\n", path,
                CLRA_MAX_CLIENT_DATA);
        free(buf);
        return -1;
    }
    *out = buf;
    *len = n;
    return 0;
}

/* Stores one client-data source; only one of --data, --data-file, --data-hex may be given. */
static int take_data(attach_opts_t *o, int which, const char *arg)
{
    if (o->data_sources++) {
        fprintf(stderr, "clrattach: give only one of --data, --data-file, --data-hex\n");
        return -1;
    }
    if (which == 'd') {
        o->data_len = strlen(arg);
        o->data = (unsigned char *)strdup(arg);
        return o->data ? 0 : -1;
    }
    return which == 'f' ? read_data_file(arg, &o->data, &o->data_len)
                        : parse_hex(arg, &o->data, &o->data_len);
}

/* The three client-data options, for the option table. */
static int take_text(void *o, const char *arg)
{
    return take_data(o, 'd', arg);
}

/* --data-file: the bytes of a file. */
static int take_file(void *o, const char *arg)
{
    return take_data(o, 'f', arg);
}

/* --data-hex: bytes spelled in hex. */
static int take_hex(void *o, const char *arg)
{
    return take_data(o, 'x', arg);
}

/* --hold: text client data gains detach_on_disconnect, so the profiler also detaches if this
 * command dies before it holds the endpoint. Binary data is left exactly as given. */
static int add_disconnect_option(attach_opts_t *o)
{
    static const char opt[] = "detach_on_disconnect";
    for (size_t i = 0; i < o->data_len; i++)
        if (o->data[i] < 0x20 || o->data[i] >= 0x7F)
            return 0;
    unsigned char *grown = realloc(o->data, o->data_len + sizeof opt + 1);
    if (!grown)
        return -1;
    int n = sprintf((char *)grown + o->data_len, "%s%s", o->data_len ? ";" : "", opt);
    o->data = grown;
    o->data_len += (size_t)n;
    return 0;
}

static const cli_opt_t attach_opts[] = {
    CLI_GUID("clsid", attach_opts_t, clsid,
             "the profiler's CLSID (default: the hello profiler's, " CLSID_HELLO_TEXT ")"),
    CLI_CALL("data", CLI_ARG_REQUIRED, attach_opts_t, data_sources, "TEXT", take_text,
             "client data: the bytes of TEXT"),
    CLI_CALL("data-file", CLI_ARG_REQUIRED, attach_opts_t, data_sources, "FILE", take_file,
             "client data: the bytes of FILE"),
    CLI_CALL("data-hex", CLI_ARG_REQUIRED, attach_opts_t, data_sources, "HEX", take_hex,
             "client data: bytes written in hex (e.g. 00ff10)"),
    CLI_INT("attach-timeout", attach_opts_t, attach_timeout_ms, "MS", 0, 0xFFFFFFFFLL,
            "how long the runtime may wait for a background GC while the profiler initializes, "
            "in milliseconds (default " CLI_STR(DEFAULT_ATTACH_TIMEOUT_MS) "; sent as is)"),
    CLI_FLAG("hold", attach_opts_t, hold,
             "stay running after the attach; the profiler (built on libclrprof) detaches when "
             "this command ends, even by kill -9. Adds detach_on_disconnect to text client data, "
             "so a hold that never starts also ends in a detach"),
    CLI_FLAG("stage", attach_opts_t, stage,
             "copy PROFILER_PATH (a file here) into a new private directory in the process's "
             "temp directory (its TMPDIR or /tmp, inside its mount namespace), owned by its "
             "user, and attach that copy; removed if the attach fails, else by clrattach detach "
             "or the end of --hold once the runtime has unloaded it"),
    CLI_END,
};

static const cli_verb_t attach_verb = {
    .name = "attach",
    .synopsis = "PID PROFILER_PATH",
    .description =
        "Loads the profiler library PROFILER_PATH into .NET process PID; the runtime\n"
        "calls its ICorProfilerCallback3::InitializeForAttach with the client data.\n"
        "PROFILER_PATH is opened by the target, inside its own mount namespace; a\n"
        "relative path is made absolute against the current directory. For a process in a\n"
        "container, PID is the pid seen from here, and the path must exist inside the\n"
        "container (checked first) unless\n"
        "--stage copies the library there.\n",
    .epilogue =
        "exit codes: 0 attached, 2 usage, 3 no such process, 4 not .NET, 5 no endpoint, 6\n"
        "permission denied, 7 timed out, 8 connection/protocol failure, 10 runtime\n"
        "refused (the HRESULT's name, value, meaning and a hint are printed).\n",
    .opts = attach_opts,
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT,
    .timeout_help = "deadline for this whole command in milliseconds",
    .default_timeout_ms = DEFAULT_TIMEOUT_MS,
    .pid = 1,
    .min_args = 1,
    .max_args = 1,
    .args_error = "expected PID and PROFILER_PATH",
};

/* The options, PID and PROFILER_PATH; 0, 1 after the help, -1 after saying why. */
static int parse_options(int argc, char **argv, attach_opts_t *o)
{
    cli_args_t a;
    clra_guid_parse(CLSID_HELLO_TEXT, &o->clsid);
    o->attach_timeout_ms = DEFAULT_ATTACH_TIMEOUT_MS;
    int p = cli_parse(&attach_verb, argc, argv, o, &a);
    o->parse_exit = a.fail_exit;
    if (p != 0)
        return p;
    o->pid = a.pid;
    o->json = a.json;
    o->timeout_ms = a.timeout_ms;
    if (o->hold && add_disconnect_option(o) != 0)
        return -1;
    if (cli_absolute_path(a.args[0], o->path, sizeof o->path) != 0) {
        cli_say_path_problem("clrattach", a.args[0], sizeof o->path);
        return -1;
    }
    return 0;
}

/* What one attach did, for the reports. */
typedef struct outcome {
    int rc;
    int staging;              /* rc is the failure to stage the copy */
    const clra_stage_t *copy; /* the staged copy attached (--stage), else NULL */
    clra_status_t st;
    double ms;
} outcome_t;

/* The advice for a local failure; a path missing inside a container gets its own. */
static const char *local_hint(const outcome_t *r)
{
    if (r->rc == CLRA_EINVAL && !r->staging && r->st.sys_errno == ENOENT)
        return "add --stage to copy the library into the process's file tree, or pass a path "
               "that exists inside its mount namespace (the container)";
    if (r->rc == CLRA_ETIMEDOUT) /* only an attach can still be finished after we gave up */
        return "raise --timeout; the runtime may still finish loading the profiler";
    return cli_local_hint(r->rc);
}

/* The attach's own fields of the JSON object. */
static void report_json(json_out_t *j, const attach_opts_t *o, const outcome_t *r)
{
    char clsid[37];
    clra_guid_format(&o->clsid, clsid);
    json_str(j, "profiler_path", o->path);
    if (r->copy) {
        json_str(j, "staged_path", clra_stage_target_path(r->copy));
        json_str(j, "staged_local_path", clra_stage_local_path(r->copy));
    }
    json_str(j, "clsid", clsid);
    json_int(j, "client_data_bytes", (long long)o->data_len);
}

/* The text of a success: where the copy is when one was staged, for the later detach. */
static void report_success(const attach_opts_t *o, const outcome_t *r)
{
    if (r->copy)
        printf("attached %s to process %d in %.1f ms\n  a staged copy of %s, here %s;\n"
               "  clrattach detach removes it once the runtime has unloaded it\n",
               clra_stage_target_path(r->copy), o->pid, r->ms, o->path,
               clra_stage_local_path(r->copy));
    else
        printf("attached %s to process %d in %.1f ms\n", o->path, o->pid, r->ms);
}

/* What the text adds after a refusal: whether the path exists here, what became of a copy. */
static void refusal_notes(const attach_opts_t *o, const outcome_t *r)
{
    struct stat sb;
    if ((unsigned)r->st.hresult == 0x8007007Eu && !o->stage && stat(o->path, &sb) != 0)
        fprintf(stderr, "  note: %s does not exist here either\n", o->path);
    if (o->stage)
        fprintf(stderr, "  note: the staged copy was removed\n");
}

/* Reports the attach (success or failure) through the one reporter; returns the exit code. */
static int report(cli_run_t *run, const attach_opts_t *o, const outcome_t *r)
{
    json_out_t *j = cli_result_open(run, r->rc == 0);
    if (j)
        report_json(j, o, r);
    else if (r->rc == 0)
        report_success(o, r);
    if (r->rc == 0)
        return cli_result_close(run, NULL);
    int missing = r->rc == CLRA_EINVAL && !r->staging && r->st.sys_errno == ENOENT;
    cli_failure_t f = {.rc = r->rc, .st = &r->st, .refusal = "refused the profiler",
                       .action = r->staging ? "stage the profiler for" : "attach to",
                       .reason = missing ? "the profiler path does not exist inside its file "
                                 "system (it runs in another mount namespace)" : NULL,
                       .hint = r->rc == CLRA_ERUNTIME ? NULL : local_hint(r)};
    int code = cli_result_close(run, &f);
    if (!o->json && r->rc == CLRA_ERUNTIME)
        refusal_notes(o, r);
    return code;
}

/* Whether an SDK profiler with this CLSID is already loaded as the main profiler: the runtime
 * would refuse the attach (CORPROF_E_PROFILER_ALREADY_ACTIVE) yet keep a reference to the
 * library it refused, so the loaded one could never be unmapped by a detach again (issue 17
 * #1). Such an attach is refused here, unsent, as the runtime would. */
static int already_active(const attach_opts_t *o, const cli_run_t *run, outcome_t *r)
{
    enum { MAX_REFS = 16 };
    char want[37], reply[512];
    clra_status_t st;
    int found = 0;
    clra_profiler_ref_t *refs = calloc(MAX_REFS, sizeof *refs);
    int n = refs ? clra_profiler_list(o->pid, refs, MAX_REFS, &st) : 0;
    cli_clsid_lower(&o->clsid, want);
    for (int i = 0; i < n && i < MAX_REFS && !found; i++) {
        double left = (double)o->timeout_ms - cli_run_ms(run);
        found = strcmp(refs[i].clsid, want) == 0 && left >= 1 &&
                clra_profiler_status(&refs[i], left < 2000 ? (int)left : 2000, reply,
                                     sizeof reply, &st) == 0 &&
                cli_contains(reply, " notification_only=0");
    }
    free(refs);
    if (!found)
        return 0;
    memset(r, 0, sizeof *r);
    r->rc = CLRA_ERUNTIME;
    r->st.hresult = (int32_t)0x8013136Au; /* CORPROF_E_PROFILER_ALREADY_ACTIVE */
    snprintf(r->st.detail, sizeof r->st.detail, "the profiler {%s} is already loaded in process "
             "%d as its main profiler (its control endpoint says so); clrattach did not send the "
             "attach, since the runtime refuses it and keeps the refused library referenced, so "
             "a later detach could not unload it", want, o->pid);
    r->ms = cli_run_ms(run);
    return 1;
}

/* Stages the copy when asked, attaches, and removes the copy again when the attach failed:
 * a copy the runtime never loaded must not stay behind in the target's file tree. */
static void attach(const attach_opts_t *o, const cli_run_t *run, clra_stage_t **stage,
                   outcome_t *r)
{
    clra_stage_t *copy = NULL;
    memset(r, 0, sizeof *r);
    if (already_active(o, run, r))
        return;
    if (o->stage && (r->rc = clra_stage_create(o->pid, o->path, &copy, &r->st)) != 0) {
        r->staging = 1;
        r->ms = cli_run_ms(run);
        return;
    }
    double left = (double)o->timeout_ms - cli_run_ms(run);
    clra_target_t target = clra_target_pid(o->pid);
    r->rc = clra_profiler_attach(&target, &o->clsid,
                                 o->stage ? clra_stage_target_path(copy) : o->path, o->data,
                                 o->data_len, (uint32_t)o->attach_timeout_ms, 0,
                                 left < 1 ? 1 : (int)left, &r->st);
    r->ms = cli_run_ms(run);
    if (!o->stage)
        return;
    if (r->rc == 0) {
        r->copy = copy; /* released once reported */
        *stage = copy;
        return;
    }
    /* Past the deadline the runtime may still be loading the copy: leave it to the sweep of
     * the next --stage or detach, which removes it once it is not mapped. */
    if (r->rc == CLRA_ETIMEDOUT) {
        fprintf(stderr, "clrattach: the staged copy %s stays until the runtime is done with it; "
                "the next 'clrattach detach %d' or --stage removes it\n",
                clra_stage_local_path(copy),
                o->pid);
        clra_stage_release(copy);
        return;
    }
    clra_status_t ust;
    if (clra_stage_remove(copy, &ust) != 0)
        fprintf(stderr, "clrattach: the staged copy could not be removed: %s\n", cli_vis(ust.detail));
}

/* --hold of a profiler this command could not then hold would leave it loaded with no one to
 * release it: the control endpoint is checked before the attach. EXIT_OK, or the failure's. */
static int refuse_unholdable(const attach_opts_t *o, cli_run_t *run)
{
    clra_status_t st;
    int rc = cli_control_check(o->pid, &st);
    if (!rc)
        return EXIT_OK;
    cli_failure_t f = {.rc = rc, .st = &st, .action = "attach and hold a profiler in"};
    return cli_fail(run, &f);
}

/* Parse, attach, report, and hold the profiler when asked; usage errors exit 2. */
int cmd_attach(int argc, char **argv)
{
    attach_opts_t o;
    clra_stage_t *copy = NULL;
    outcome_t r;
    cli_run_t run;
    memset(&o, 0, sizeof o);
    int p = parse_options(argc, argv, &o);
    if (p != 0) {
        free(o.data);
        return p > 0 ? EXIT_OK : o.parse_exit;
    }
    int code;
    cli_run_begin(&run, o.pid, o.json);
    if (o.hold && (code = refuse_unholdable(&o, &run)) != EXIT_OK) {
        free(o.data);
        return code;
    }
    attach(&o, &run, &copy, &r);
    code = report(&run, &o, &r);
    clra_stage_release(copy);
    free(o.data);
    if (r.rc == 0 && o.hold)
        return cli_hold(o.pid, &o.clsid, (int)o.timeout_ms, o.json);
    return code;
}
