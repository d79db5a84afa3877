/* cmd_dump.c - `clrattach dump`: the runtime runs createdump on itself and writes a core file. */
#define _GNU_SOURCE
#include "verbs.h"
#include "base/cli.h"
#include "base/options.h"

#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Dumps of big heaps take minutes; the deadline is there to end a hang, not a slow dump. */
#define DEFAULT_DUMP_TIMEOUT_MS 600000

static const char *const type_names[] = {"", "normal", "heap", "triage", "full"};

typedef struct dump_opts {
    int pid, json, type;
    int parse_exit; /* the exit code of a refused command line */
    uint32_t flags;
    long long timeout_ms;
    const char *output; /* as given, or NULL */
    char path[CLRA_PATH_MAX];
} dump_opts_t;

/* --type: the names createdump knows, and "mini" for normal. */
static int parse_type(void *dest, const char *text)
{
    int *type = dest;
    for (int t = 1; t <= 4; t++)
        if (strcmp(text, type_names[t]) == 0)
            *type = t;
    if (strcmp(text, "mini") == 0)
        *type = 1;
    if (*type)
        return 0;
    fprintf(stderr, "clrattach: --type wants normal, mini, heap, triage or full, not '%s'\n", text);
    return -1;
}

/* --crash-report: one more flag for the runtime. */
static int parse_crash_report(void *dest, const char *arg)
{
    (void)arg;
    *(uint32_t *)dest |= CLRA_DUMP_CRASH_REPORT;
    return 0;
}

/* --log or --log=verbose. */
static int parse_log(void *dest, const char *arg)
{
    uint32_t *flags = dest;
    *flags |= CLRA_DUMP_LOGGING;
    if (!arg)
        return 0;
    if (strcmp(arg, "verbose") == 0) {
        *flags |= CLRA_DUMP_VERBOSE;
        return 0;
    }
    fprintf(stderr, "clrattach: --log takes no value or =verbose, not '%s'\n", arg);
    return -1;
}

static const cli_opt_t dump_opts[] = {
    CLI_CALL("type", CLI_ARG_REQUIRED, dump_opts_t, type, "TYPE", parse_type,
             "normal (or mini): stacks, modules, runtime data; heap (default): plus the managed "
             "heap; triage: small, personal data removed; full: all memory of the process (as "
             "big as its RSS and mappings)"),
    CLI_OUTPUT(dump_opts_t, output, "PATH",
               "the dump file, or an existing directory for the default name (default "
               "./core_YYYYMMDD_HHMMSS_PID); made absolute here and then opened by the target, so "
               "it must exist and be writable inside the target's mount namespace, by the "
               "target's user"),
    CLI_CALL("crash-report", CLI_ARG_NONE, dump_opts_t, flags, NULL, parse_crash_report,
             "also write PATH.crashreport.json (.NET 6 and later)"),
    CLI_CALL("log", CLI_ARG_OPTIONAL, dump_opts_t, flags, "verbose", parse_log,
             "createdump logs its progress on the target's stdout"),
    CLI_END,
};

static const cli_verb_t dump_verb = {
    .name = "dump",
    .synopsis = "PID",
    .description =
        "Asks the runtime in .NET process PID to write a core dump of itself (it runs\n"
        "createdump, as the process's user and inside its mount namespace), waits until\n"
        "the dump is finished and checks that the file exists.\n",
    .epilogue =
        "exit codes: 0 written and found, 2 usage, 3 no such process, 5 no endpoint, 6\n"
        "permission denied, 7 timed out, 8 connection/protocol failure, 10 the runtime\n"
        "failed (createdump's message is printed) or answered OK without writing the\n"
        "file.\n",
    .opts = dump_opts,
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT,
    .timeout_help = "deadline for the whole command in milliseconds; a dump still running at "
                    "the deadline is not stopped",
    .default_timeout_ms = DEFAULT_DUMP_TIMEOUT_MS,
    .pid = 1,
    .args_error = "expected one PID",
};

/* The options and the PID; 0, 1 after the help, -1 after saying why. */
static int parse_options(int argc, char **argv, dump_opts_t *o)
{
    cli_args_t a;
    int p = cli_parse(&dump_verb, argc, argv, o, &a);
    o->parse_exit = a.fail_exit;
    o->type = o->type ? o->type : CLRA_DUMP_HEAP;
    o->pid = a.pid;
    o->json = a.json;
    o->timeout_ms = a.timeout_ms;
    return p;
}

/* Chooses the file: --output made absolute, the default name inside it when it is a directory
 * in the target's view, else ./core_<time>_<pid>. */
static int choose_path(dump_opts_t *o)
{
    char name[64], base[CLRA_PATH_MAX], local[CLRA_PATH_MAX];
    struct stat sb;
    int other;
    char stamp[32];
    cli_time_stamp(stamp, sizeof stamp, '_');
    snprintf(name, sizeof name, "core_%s_%d", stamp, o->pid);
    if (cli_absolute_path(o->output ? o->output : ".", base, sizeof base) != 0) {
        cli_say_path_problem("clrattach", o->output ? o->output : ".", sizeof base);
        return -1;
    }
    int is_dir = !o->output ||
                 (clra_target_path_resolve(o->pid, base, local, sizeof local, &other) == 0 &&
                  stat(local, &sb) == 0 && S_ISDIR(sb.st_mode));
    if (!is_dir)
        return (size_t)snprintf(o->path, sizeof o->path, "%s", base) < sizeof o->path ? 0 : -1;
    size_t len = strlen(base); /* "/x/." and "/x/" name the directory "/x" */
    while (len > 1 && (base[len - 1] == '/' || (base[len - 1] == '.' && base[len - 2] == '/')))
        base[--len] = '\0';
    if ((size_t)snprintf(o->path, sizeof o->path, "%s%s%s", base, len > 1 ? "/" : "", name) <
        sizeof o->path)
        return 0;
    fprintf(stderr, "clrattach: the dump path under '%s' is too long\n", base);
    return -1;
}

/* The crash report createdump writes next to the dump, when asked and when it is there. */
static const char *crash_report(const clra_dump_result_t *r, char *buf, size_t cap)
{
    struct stat sb;
    if (!(r->flags_sent & CLRA_DUMP_CRASH_REPORT) ||
        (size_t)snprintf(buf, cap, "%s.crashreport.json", r->local_path) >= cap)
        return NULL;
    return stat(buf, &sb) == 0 ? buf : NULL;
}

/* What to do after the runtime failed: look at the directory as the target sees it. */
static void dump_hint(const dump_opts_t *o, int rc, const clra_status_t *st, char *out,
                      size_t cap)
{
    char dir[CLRA_PATH_MAX], local[CLRA_PATH_MAX];
    struct stat sb;
    int other = 0;
    uint32_t uid;
    snprintf(dir, sizeof dir, "%s", o->path);
    const char *d = dirname(dir);
    int owner = clra_process_owner_get(o->pid, &uid, NULL) == 0 ? (int)uid : -1;
    if (rc == CLRA_ETIMEDOUT) {
        snprintf(out, cap, "raise --timeout; createdump keeps running in the target and may "
                 "still finish %s, and the diagnostics port answers nobody until it does%s",
                 o->path, (o->flags & CLRA_DUMP_LOGGING)
                              ? "; with --log it writes to the target's stdout and stalls when "
                                "nobody reads that (a full pipe): retry without --log"
                              : "");
    } else if (rc == CLRA_ERUNTIME && st->hresult == (int32_t)0x80131385) {
        snprintf(out, cap, "this runtime has no dump command (dumps over the diagnostics port "
                 "came with .NET Core 3.0 on Linux); run createdump or gcore yourself");
    } else if (rc == CLRA_ERUNTIME && st->hresult == (int32_t)0x80131515) {
        snprintf(out, cap, "this runtime flavour (NativeAOT, Mono) cannot write dumps on request; "
                 "use gcore or the system's core dumps");
    } else if (clra_target_path_resolve(o->pid, d, local, sizeof local, &other) == 0 &&
               stat(local, &sb) != 0) {
        snprintf(out, cap, "the directory %s does not exist%s; create it or pick another "
                 "--output", d, other ? " inside the target's mount namespace" : "");
    } else {
#ifdef _WIN32 /* no uids; GenerateCoreDump3 brings no createdump text on Windows */
        (void)owner;
        snprintf(out, cap, "the runtime runs createdump.exe (beside it), which writes the dump "
                 "with dbghelp's MiniDumpWriteDump; its output and any crash report go to the "
                 "target's console (--log adds its progress); make sure %s is writable by the "
                 "target's user", d);
        return;
#endif
        snprintf(out, cap, "make sure %s is writable by the target's user (uid %d): createdump "
                 "runs as that user%s; --log shows its progress on the target's stdout", d,
                 owner, other ? ", inside the target's mount namespace" : "");
    }
}

/* A failure: what to do depends on the directory as the target sees it. */
static cli_failure_t failure(const dump_opts_t *o, int rc, const clra_status_t *st, char *hint,
                             size_t cap)
{
    dump_hint(o, rc, st, hint, cap);
    cli_failure_t f = {.rc = rc, .st = st, .action = "dump",
                       .hint = rc == CLRA_ERUNTIME || rc == CLRA_EIO || rc == CLRA_ETIMEDOUT
                                   ? hint : NULL,
                       .reason = rc == CLRA_EIO ? "no dump was written" : NULL,
                       /* An OK with no file is the runtime's failure, not ours. */
                       .exit_code = rc == CLRA_EIO ? EXIT_REFUSED : 0};
    return f;
}

/* The dump's own fields; the reporter adds the error, exit_code and elapsed_ms. */
static void report_json(json_out_t *j, const dump_opts_t *o, int rc, const clra_dump_result_t *r)
{
    char report[CLRA_PATH_MAX + 32];
    json_str(j, "path", o->path);
    json_str(j, "type", type_names[o->type]);
    json_int(j, "flags_requested", o->flags);
    json_int(j, "flags_sent", r->flags_sent);
    json_int(j, "command", r->command);
    json_bool(j, "other_mount_ns", r->other_mount_ns);
    json_str(j, "local_path", r->local_path[0] ? r->local_path : NULL);
    json_bool(j, "verified", r->verified);
    json_int(j, "size_bytes", r->size);
    json_str(j, "crash_report", rc == 0 ? crash_report(r, report, sizeof report) : NULL);
    if (rc == CLRA_ERUNTIME)
        json_str(j, "createdump_message", r->message);
}

static void human_size(long long bytes, char *out, size_t cap)
{
    const char *units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 4)
        v /= 1024, u++;
    snprintf(out, cap, u ? "%.1f %s" : "%.0f %s", v, units[u]);
}

static void report_success(const dump_opts_t *o, const clra_dump_result_t *r, double ms)
{
    char size[32], report[CLRA_PATH_MAX + 32];
    human_size(r->size, size, sizeof size);
    printf("wrote a %s dump of process %d to %s (%s) in %.2f s\n", type_names[o->type], o->pid,
           o->path, r->verified ? size : "size unknown", ms / 1e3);
    if (r->command != 3)
        printf("  note: this runtime does not know GenerateCoreDump3; GenerateCoreDump%s did it\n",
               r->command == 1 ? "" : "2");
    if ((o->flags & ~r->flags_sent) & (CLRA_DUMP_CRASH_REPORT | CLRA_DUMP_VERBOSE))
        printf("  warning: --crash-report and --log=verbose were not honoured: GenerateCoreDump "
               "(before .NET 6) carries only 'log'\n");
    if (crash_report(r, report, sizeof report))
        printf("  crash report: %s\n", report);
    if (r->other_mount_ns)
        printf("  note: the path is inside the target's mount namespace; from here it is %s\n",
               r->local_path);
    if (!r->verified)
        printf("  note: %s cannot be looked at from here, so the runtime's OK is unconfirmed\n",
               r->local_path);
    if (o->flags & CLRA_DUMP_LOGGING)
        printf("  createdump's log went to the target's stdout\n");
}

/* createdump's lines, without their "[createdump] " prefix, under one heading. */
static void print_message(const char *msg)
{
    fprintf(stderr, "  createdump said:\n");
    for (const char *p = msg; *p;) {
        const char *eol = strchr(p, '\n');
        int len = eol ? (int)(eol - p) : (int)strlen(p);
        if (strncmp(p, "[createdump] ", 13) == 0)
            p += 13, len -= 13;
        fprintf(stderr, "    %.*s\n", len, p);
        p += len + (eol != NULL);
    }
}

/* The runtime's failure in createdump's own words. */
static void say_refused(const cli_failure_t *f, const void *ctx)
{
    const dump_opts_t *o = ((const void *const *)ctx)[0];
    const clra_dump_result_t *r = ((const void *const *)ctx)[1];
    fprintf(stderr, "clrattach: process %d could not write the dump %s: %s (0x%08X)\n", o->pid,
            o->path, clra_hresult_name(f->st->hresult), (unsigned)f->st->hresult);
    if (r->message[0])
        print_message(r->message);
    else
        fprintf(stderr, "  detail: %s\n", cli_vis(f->st->detail));
    fprintf(stderr, "  what to do: %s\n", f->hint);
}

/* The path is chosen before the runtime is asked, so a bad --output is a usage error. */
int cmd_dump(int argc, char **argv)
{
    dump_opts_t o;
    clra_status_t st;
    clra_dump_result_t r;
    cli_run_t run;
    char hint[CLRA_PATH_MAX + 512];
    memset(&o, 0, sizeof o);
    memset(&r, 0, sizeof r);
    int p = parse_options(argc, argv, &o);
    if (p != 0)
        return p > 0 ? EXIT_OK : o.parse_exit;
    if (choose_path(&o) != 0)
        return EXIT_USAGE;
    cli_run_begin(&run, o.pid, o.json);
    clra_target_t target = clra_target_pid(o.pid);
    int rc = clra_dump_create(&target, o.path, (clra_dump_type_t)o.type, o.flags,
                              (int)o.timeout_ms, &r, &st);
    json_out_t *j = cli_result_open(&run, rc == 0);
    if (j)
        report_json(j, &o, rc, &r);
    else if (rc == 0)
        report_success(&o, &r, cli_run_ms(&run));
    if (rc == 0)
        return cli_result_close(&run, NULL);
    const void *ctx[2] = {&o, &r};
    cli_failure_t f = failure(&o, rc, &st, hint, sizeof hint);
    f.say = rc == CLRA_ERUNTIME ? say_refused : NULL;
    f.ctx = ctx;
    return cli_result_close(&run, &f);
}
