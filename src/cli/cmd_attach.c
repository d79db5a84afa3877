/* cmd_attach.c - `clrattach attach`: load a profiler into a running process. */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The hello profiler's class, used when --clsid is not given. */
#define DEFAULT_ATTACH_TIMEOUT_MS 10000
#define DEFAULT_TIMEOUT_MS 30000

static void attach_usage(FILE *f)
{
    fprintf(f,
            "usage: clrattach attach [options] PID PROFILER_PATH\n"
            "\n"
            "Loads the profiler library PROFILER_PATH into .NET process PID; the runtime calls its\n"
            "ICorProfilerCallback3::InitializeForAttach with the client data. PROFILER_PATH is\n"
            "opened by the target, inside its own mount namespace; a relative path is made absolute\n"
            "against the current directory. For a process in a container, PID is the pid seen\n"
            "from here, and the path must exist inside the container (checked first) unless\n"
            "--stage copies the library there.\n"
            "\n"
            "options:\n"
            "  --clsid GUID          the profiler's CLSID (default: the hello profiler's, %s)\n"
            "  --data TEXT           client data: the bytes of TEXT\n"
            "  --data-file FILE      client data: the bytes of FILE\n"
            "  --data-hex HEX        client data: bytes written in hex (e.g. 00ff10)\n"
            "  --attach-timeout MS   how long the runtime may wait for a background GC while the\n"
            "                        profiler initializes, in milliseconds (default %d; sent as is)\n"
            "  --timeout MS          deadline for this whole command in milliseconds (default %d)\n"
            "  --hold                stay running after the attach; the profiler (built on libclrprof)\n"
            "                        detaches when this command ends, even by kill -9. Adds\n"
            "                        detach_on_disconnect to text client data, so a hold that never\n"
            "                        starts also ends in a detach\n"
            "  --stage               copy PROFILER_PATH (a file here) into a new private directory\n"
            "                        in the process's temp directory (its TMPDIR or /tmp, inside\n"
            "                        its mount namespace), owned by its user, and attach that copy;\n"
            "                        removed if the attach fails, else by clrattach detach or the\n"
            "                        end of --hold once the runtime has unloaded it\n"
            "  --json                print one JSON object instead of text\n"
            "  --help                show this help\n"
            "\n"
            "exit codes: 0 attached, 2 usage, 3 no such process, 4 not .NET, 5 no endpoint,\n"
            "6 permission denied, 7 timed out, 8 connection/protocol failure, 10 runtime refused\n"
            "(the HRESULT's name, value, meaning and a hint are printed).\n",
            HELLO_CLSID, DEFAULT_ATTACH_TIMEOUT_MS, DEFAULT_TIMEOUT_MS);
}

typedef struct attach_opts {
    clra_guid_t clsid;
    unsigned char *data;
    size_t data_len;
    int data_sources;
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
        unsigned v;
        if (!p[1] || sscanf(p, "%2x", &v) != 1 || strspn(p, "0123456789abcdefABCDEF") < 2) {
            fprintf(stderr, "clrattach: --data-hex wants pairs of hex digits, not '%s'\n", text);
            free(buf);
            return -1;
        }
        buf[n++] = (unsigned char)v;
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

static int parse_options(int argc, char **argv, attach_opts_t *o)
{
    static const struct option longs[] = {
        {"clsid", required_argument, 0, 'c'},     {"data", required_argument, 0, 'd'},
        {"data-file", required_argument, 0, 'f'}, {"data-hex", required_argument, 0, 'x'},
        {"attach-timeout", required_argument, 0, 'a'}, {"timeout", required_argument, 0, 't'},
        {"json", no_argument, 0, 'j'},            {"help", no_argument, 0, 'h'},
        {"hold", no_argument, 0, 'H'},            {"stage", no_argument, 0, 'S'},
        {0, 0, 0, 0}};
    int c, bad = 0;
    clra_guid_parse(HELLO_CLSID, &o->clsid);
    o->attach_timeout_ms = DEFAULT_ATTACH_TIMEOUT_MS;
    o->timeout_ms = DEFAULT_TIMEOUT_MS;
    optind = 1;
    while (!bad && (c = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        switch (c) {
        case 'c':
            if (clra_guid_parse(optarg, &o->clsid) != 0) {
                fprintf(stderr, "clrattach: --clsid wants a GUID like %s, not '%s'\n", HELLO_CLSID, optarg);
                bad = 1;
            }
            break;
        case 'd': case 'f': case 'x':
            bad = take_data(o, c, optarg) != 0;
            break;
        case 'a':
            bad = cli_parse_int("--attach-timeout", optarg, 0, 0xFFFFFFFFLL, &o->attach_timeout_ms);
            break;
        case 't':
            bad = cli_parse_int("--timeout", optarg, 1, 86400000, &o->timeout_ms);
            break;
        case 'j':
            o->json = 1;
            break;
        case 'H':
            o->hold = 1;
            break;
        case 'S':
            o->stage = 1;
            break;
        case 'h':
            attach_usage(stdout);
            exit(EXIT_OK);
        default:
            bad = 1;
        }
    }
    if (bad)
        return -1;
    if (argc - optind != 2) {
        fprintf(stderr, "clrattach attach: expected PID and PROFILER_PATH (see --help)\n");
        return -1;
    }
    if (cli_parse_pid(argv[optind], &o->pid) != 0)
        return -1;
    if (o->hold && add_disconnect_option(o) != 0)
        return -1;
    if (cli_absolute_path(argv[optind + 1], o->path, sizeof o->path) != 0) {
        fprintf(stderr, "clrattach: cannot make '%s' an absolute path\n", argv[optind + 1]);
        return -1;
    }
    return 0;
}

static double elapsed_ms(const struct timespec *t0)
{
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (t1.tv_sec - t0->tv_sec) * 1e3 + (t1.tv_nsec - t0->tv_nsec) / 1e6;
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
    return cli_local_hint(r->rc);
}

static void report_json(const attach_opts_t *o, const outcome_t *r)
{
    json_out_t j;
    char clsid[37], hr[16];
    clra_guid_format(&o->clsid, clsid);
    json_begin(&j, stdout);
    json_bool(&j, "ok", r->rc == 0);
    json_int(&j, "pid", o->pid);
    json_str(&j, "profiler_path", o->path);
    if (r->copy) {
        json_str(&j, "staged_path", clra_stage_target_path(r->copy));
        json_str(&j, "staged_local_path", clra_stage_local_path(r->copy));
    }
    json_str(&j, "clsid", clsid);
    json_int(&j, "client_data_bytes", (long long)o->data_len);
    json_int(&j, "exit_code", cli_exit_code(r->rc));
    json_double(&j, "elapsed_ms", r->ms);
    if (r->rc == CLRA_ERUNTIME) {
        snprintf(hr, sizeof hr, "0x%08X", (unsigned)r->st.hresult);
        json_str(&j, "error", clra_err_name(r->rc));
        json_str(&j, "message", clra_strerror(r->rc));
        json_str(&j, "detail", r->st.detail);
        json_str(&j, "hresult", hr);
        json_str(&j, "hresult_name", clra_hresult_name(r->st.hresult));
        json_str(&j, "meaning", clra_hresult_describe(r->st.hresult));
        json_str(&j, "hint", clra_hresult_hint(r->st.hresult));
    } else if (r->rc != 0) {
        json_str(&j, "error", clra_err_name(r->rc));
        json_str(&j, "message", clra_strerror(r->rc));
        json_str(&j, "detail", r->st.detail);
        json_str(&j, "hint", local_hint(r));
    }
    json_end(&j);
}

static void report_text(const attach_opts_t *o, const outcome_t *r)
{
    struct stat sb;
    if (r->rc == 0 && r->copy) {
        printf("attached %s to process %d in %.1f ms\n  a staged copy of %s, here %s;\n"
               "  clrattach detach removes it once the runtime has unloaded it\n",
               clra_stage_target_path(r->copy), o->pid, r->ms, o->path,
               clra_stage_local_path(r->copy));
    } else if (r->rc == 0) {
        printf("attached %s to process %d in %.1f ms\n", o->path, o->pid, r->ms);
    } else if (r->rc == CLRA_ERUNTIME) {
        fprintf(stderr, "clrattach: process %d refused the profiler: %s (0x%08X)\n  meaning: %s\n"
                "  what to do: %s\n", o->pid, clra_hresult_name(r->st.hresult),
                (unsigned)r->st.hresult, clra_hresult_describe(r->st.hresult),
                clra_hresult_hint(r->st.hresult));
        if ((unsigned)r->st.hresult == 0x8007007Eu && !o->stage && stat(o->path, &sb) != 0)
            fprintf(stderr, "  note: %s does not exist here either\n", o->path);
        if (o->stage)
            fprintf(stderr, "  note: the staged copy was removed\n");
    } else {
        int missing = r->rc == CLRA_EINVAL && !r->staging && r->st.sys_errno == ENOENT;
        fprintf(stderr, "clrattach: cannot %s process %d: %s\n", r->staging ? "stage the "
                "profiler for" : "attach to", o->pid, missing ? "the profiler path does not "
                "exist inside its file system (it runs in another mount namespace)"
                : clra_strerror(r->rc));
        if (r->st.detail[0])
            fprintf(stderr, "  detail: %s\n", r->st.detail);
        fprintf(stderr, "  what to do: %s\n", local_hint(r));
    }
}

/* Stages the copy when asked, attaches, and removes the copy again when the attach failed:
 * a copy the runtime never loaded must not stay behind in the target's file tree. */
static void attach(const attach_opts_t *o, clra_stage_t **stage, outcome_t *r)
{
    clra_stage_t *copy = NULL;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(r, 0, sizeof *r);
    if (o->stage && (r->rc = clra_stage_create(o->pid, o->path, &copy, &r->st)) != 0) {
        r->staging = 1;
        r->ms = elapsed_ms(&t0);
        return;
    }
    double left = (double)o->timeout_ms - elapsed_ms(&t0);
    clra_target_t target = clra_target_pid(o->pid);
    r->rc = clra_profiler_attach(&target, &o->clsid,
                                 o->stage ? clra_stage_target_path(copy) : o->path, o->data,
                                 o->data_len, (uint32_t)o->attach_timeout_ms, 0,
                                 left < 1 ? 1 : (int)left, &r->st);
    r->ms = elapsed_ms(&t0);
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
        fprintf(stderr, "clrattach: the staged copy could not be removed: %s\n", ust.detail);
}

int cmd_attach(int argc, char **argv)
{
    attach_opts_t o;
    clra_stage_t *copy = NULL;
    outcome_t r;
    memset(&o, 0, sizeof o);
    if (parse_options(argc, argv, &o) != 0) {
        free(o.data);
        return EXIT_USAGE;
    }
    attach(&o, &copy, &r);
    if (o.json)
        report_json(&o, &r);
    else
        report_text(&o, &r);
    clra_stage_release(copy);
    free(o.data);
    if (r.rc == 0 && o.hold)
        return cli_hold(o.pid, &o.clsid, (int)o.timeout_ms, o.json);
    return cli_exit_code(r.rc);
}
