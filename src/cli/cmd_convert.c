/* cmd_convert.c - `clrattach convert`: a .nettrace file read by the library's decoder and
 * written in another format (JSON lines of every event, payloads decoded). */
#define _GNU_SOURCE
#include "verbs.h"
#include "base/cli.h"
#include "convert/convert.h"
#include "base/options.h"
#include "base/output_file.h"
#include "render/format.h"

#include <errno.h>
#include <string.h>

typedef struct convert_opts {
    const char *format, *output;
} convert_opts_t;

typedef struct convert_run {
    FILE *f;
    unsigned pointer_size;
} convert_run_t;

static const cli_opt_t convert_opts[] = {
    CLI_STRING("format", convert_opts_t, format, "FORMAT",
               "json (default): one JSON object per line, the trace's header first, then every "
               "event with its stack's addresses and its payload decoded from the metadata; "
               "flamegraph, folded, speedscope, pprof or top: the trace's CPU samples "
               "(SampleProfiler) as clrattach profile writes them; chromium: those samples on a "
               "timeline in the Chrome trace-event format (chrome://tracing, Perfetto)"),
    CLI_OUTPUT(convert_opts_t, output, "FILE", "write there instead of stdout"),
    CLI_END,
};

static const cli_verb_t convert_verb = {
    .name = "convert",
    .synopsis = "FILE",
    .description =
        "Reads the .nettrace FILE (from clrattach trace, dotnet-trace or any EventPipe\n"
        "writer) with clrattach's own decoder, in bounded memory whatever its size, and\n"
        "writes it in another format. A truncated or corrupt file is converted up to\n"
        "where it breaks and the command says where and why.\n"
        "\n"
        "Limits (docs/nettrace.md): blocks of at most 64 MiB; at most 1024 fields in one\n"
        "event description and 16 MiB of descriptions in all (past either the file is\n"
        "corrupt); a payload is walked only while its arrays fit its bytes and it yields\n"
        "at most 16 values a byte (else it is written as payload_hex with payload_error);\n"
        "CPU samples keep at most 4096 frames, the leaf-most.\n",
    .epilogue =
        "examples:\n"
        "  clrattach convert trace.nettrace > trace.jsonl\n"
        "  clrattach convert --output trace.jsonl trace.nettrace\n"
        "  clrattach convert --format flamegraph --output cpu.html trace.nettrace\n"
        "  clrattach convert --format folded trace.nettrace | sort -k2 -n | tail\n"
        "  clrattach convert --format chromium --output trace.chromium.json\n"
        "      trace.nettrace\n"
        "\n"
        "exit codes: 0 the whole file was converted, 1 the output could not be written, 2\n"
        "usage, the file cannot be read or (profile formats) holds no CPU samples, 8 the\n"
        "file is truncated or corrupt (what came before the break is written).\n",
    .opts = convert_opts,
    .min_args = 1,
    .max_args = 1,
    .args_error = "expected one FILE",
};

static int on_header(void *ctx, const clra_nettrace_header_t *h)
{
    convert_run_t *r = ctx;
    r->pointer_size = h->pointer_size;
    convert_json_header(r->f, h);
    return 0;
}

static int on_event(void *ctx, const clra_nettrace_event_t *ev)
{
    convert_run_t *r = ctx;
    convert_json_event(r->f, ev, r->pointer_size);
    return ferror(r->f) ? 1 : 0;
}

/* FILE must be readable before --output is made: a mistyped name leaves the output alone. */
static int input_readable(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f)
        return fclose(f), 1;
    fprintf(stderr, "clrattach convert: cannot read %s: %s\n", cli_vis(path), strerror(errno));
    return 0;
}

int cmd_convert(int argc, char **argv)
{
    convert_opts_t o = {0};
    cli_args_t a;
    int p = cli_parse(&convert_verb, argc, argv, &o, &a);
    if (p)
        return p > 0 ? EXIT_OK : EXIT_USAGE;
    if (o.format && strcmp(o.format, "json") != 0) {
        int fmt = profile_format_parse(o.format);
        if (fmt < 0) {
            fprintf(stderr, "clrattach convert: --format %s: expected json, flamegraph, folded, "
                    "speedscope, pprof, top or chromium\n", cli_vis(o.format));
            return EXIT_USAGE;
        }
        if (fmt == FMT_PPROF && o.output && profile_format_from_path(o.output) == FMT_PPROF_GZ)
            fmt = FMT_PPROF_GZ;
        return convert_samples(a.args[0], fmt, o.output, "clrattach convert");
    }
    convert_run_t r = {stdout, 8};
    if (!input_readable(a.args[0]))
        return EXIT_USAGE;
    if (o.output && !(r.f = out_file_fopen(o.output, "--output", "clrattach convert")))
        return EXIT_INTERNAL;
    clra_nettrace_callbacks_t cb = {0};
    cb.header = on_header;
    cb.event = on_event;
    clra_nettrace_info_t info;
    clra_status_t st;
    int rc = clra_nettrace_decode_file(a.args[0], &cb, &r, &info, &st);
    int bad_out = fflush(r.f) != 0 || ferror(r.f) || (r.f != stdout && fclose(r.f) != 0);
    if (bad_out) {
        fprintf(stderr, "clrattach convert: writing %s failed\n",
                o.output ? cli_vis(o.output) : "stdout");
        return EXIT_INTERNAL;
    }
    if (rc == CLRA_EPROTO) {
        fprintf(stderr, "clrattach convert: %s is %s: %s\n", cli_vis(a.args[0]),
                info.state == CLRA_NETTRACE_INCOMPLETE ? "truncated" : "corrupt",
                cli_vis(st.detail));
        return EXIT_CONNECTION;
    }
    if (rc) {
        convert_say_failure("clrattach convert", a.args[0], rc, &st);
        return rc == CLRA_ENOMEM ? EXIT_INTERNAL : EXIT_USAGE;
    }
    return EXIT_OK;
}
