/* cmd_profile.c - `clrattach profile`: attach the sampling profiler, sample for a while (or
 * until Ctrl-C), drain the samples every second, detach and wait until the library is gone,
 * then write the profile (render/). A target that exits keeps what the last drain brought. */
#define _GNU_SOURCE
#include "verbs.h"
#include "base/cli.h"
#include "common/mono_clock.h"
#include "base/interrupt.h"
#include "base/mem_stream.h"
#include "base/options.h"
#include "base/output_file.h"
#include "profile/profile_drain.h"
#include "profile/profile_events.h"
#include "render/format.h"
#include "trace/trace_options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DRAIN_EVERY_MS 1000
#define STEP_MS 100

typedef struct profile_opts {
    long long duration_s, hz;
    const char *mode, *method, *output, *format, *profiler;
    const char *client_method; /* method= for the sampler: auto when --method is not given */
    int threads, stage, notification_only;
} profile_opts_t;

static const cli_opt_t profile_opts[] = {
    CLI_DURATION_DAY("duration", profile_opts_t, duration_s,
                 "sample for S seconds, or dd:hh:mm:ss (default 10; Ctrl-C stops early)"),
    CLI_STRING("mode", profile_opts_t, mode, "MODE",
               "cpu: threads that ran, weighted by CPU time (default); wall: every\n"
               "thread (walk: every managed one), blocked ones marked [blocked].\n"
               "Without a profiler in the target, from the runtime's events with\n"
               "their stacks: alloc: bytes allocated, the type as the top frame\n"
               "(.NET 10: AllocationSampled, upscaled; 8 and 9: GCAllocationTick,\n"
               "one per ~100 KB); lock: nanoseconds waited for contended locks;\n"
               "exception: throws counted, the type as the top frame; wait:\n"
               "nanoseconds blocked in wait handles and Monitor.Wait (.NET 9+).\n"
               "--method, --hz, --profiler, --stage and --notification-only are\n"
               "cpu and wall's"),
    CLI_STRING("method", profile_opts_t, method, "signal|suspend|walk",
               "signal (default): each thread sampled where it runs, by a CPU-timer\n"
               "signal (cpu) or one the sampler sends (wall); no safe-point bias,\n"
               "native frames named. Falls back to walk (said on stderr and in\n"
               "--json) when the target has no free real-time signal. On Windows\n"
               "suspend (default; signal names it too): each thread suspended in turn,\n"
               "its stack copied and unwound. walk: stop the runtime each tick,\n"
               "threads seen at safe points only"),
    CLI_INT("hz", profile_opts_t, hz, "N", 1, 1000, "samples per second (default 99)"),
    CLI_FLAG("threads", profile_opts_t, threads, "one root per thread in the output"),
    CLI_OUTPUT(profile_opts_t, output, "FILE",
               "write the profile to FILE (default: the top table on stdout)"),
    CLI_STRING("format", profile_opts_t, format, "FORMAT",
               "flamegraph|folded|speedscope|pprof|top (default: from the extension of\n"
               "FILE: .html, .folded/.txt, .json, .pb/.pb.gz)"),
    CLI_STRING("profiler", profile_opts_t, profiler, "PATH",
               "the sampler library (default: the one installed with clrattach)"),
    CLI_FLAG("stage", profile_opts_t, stage, "copy the sampler into the target's file tree first"),
    CLI_FLAG("notification-only", profile_opts_t, notification_only,
             "load the sampler notification-only, beside a main profiler (without\n"
             "it: when one is found, or the runtime refuses the sampler as main)"),
    CLI_END,
};

static const cli_verb_t profile_verb = {
    .name = "profile",
    .synopsis = "PID",
    .description =
        "Profiles .NET process PID for --duration seconds (Ctrl-C stops early), then\n"
        "writes the profile: a flame graph (.html), collapsed stacks (.folded),\n"
        "speedscope (.json), pprof (.pb, .pb.gz) or the hottest methods (top).\n"
        "cpu and wall modes sample the managed stacks with clrattach's sampling\n"
        "profiler: it is attached, samples at --hz, is detached, and profile waits until\n"
        "the runtime has unloaded it. alloc, lock, exception and wait modes load nothing\n"
        "into the target: they record the runtime's own events with their stacks over\n"
        "the diagnostics port, weighed in bytes allocated, nanoseconds waited or throws.\n"
        "A target that exits while profiled still gives what was gathered until then.\n"
        "docs/profiling.md explains the mechanisms and their limits.\n",
    .epilogue =
        "exit codes: 0 written, 2 usage, 3 no such process, 4 not .NET, 5 no endpoint,\n"
        "6 permission denied, 7 timed out, 8 connection lost, 10 the runtime refused the\n"
        "profiler or is too old for the mode (wait: .NET 9+); 11 the target exited while\n"
        "sampled (the samples so far are written).\n",
    .opts = profile_opts,
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT,
    .json_help = "print one JSON object instead of text; without --output it holds the\n"
                 "profile itself (\"profile\": the top table, or --format's text)",
    .timeout_help = "deadline for the whole command besides the sampling itself (attach,\n"
                    "drains, detach and unload share it), in milliseconds: it ends within\n"
                    "--duration plus this",
    .default_timeout_ms = 30000,
    .pid = 1,
    .args_error = "expected one PID",
};

/* Checks the options; the output format in *fmt. 0 or -1 after saying why. */
static int check_opts(profile_opts_t *o, int json, int *fmt)
{
    if (strcmp(o->mode, "cpu") != 0 && strcmp(o->mode, "wall") != 0 &&
        !pe_mode_find(o->mode)) {
        fprintf(stderr, "clrattach: --mode is cpu, wall, alloc, lock, exception or wait, not "
                "'%s'\n", o->mode);
        return -1;
    }
    if (!(o->client_method = method_client(o->method, NULL)))
        return -1;
    *fmt = o->format ? profile_format_parse(o->format)
                     : o->output ? profile_format_from_path(o->output) : FMT_TOP;
    if (*fmt == FMT_CHROMIUM) /* the sampler's drains carry no times to draw a timeline from */
        *fmt = -1;
    if (*fmt < 0 && o->format)
        fprintf(stderr, "clrattach: --format is flamegraph, folded, speedscope, pprof or top, "
                "not '%s'\n", o->format);
    else if (*fmt < 0)
        fprintf(stderr, "clrattach: cannot tell the format from '%s'\n  what to do: use .html, "
                ".folded, .txt, .json, .pb or .pb.gz, or give --format\n", o->output);
    if (*fmt == FMT_PPROF && o->output && profile_format_from_path(o->output) == FMT_PPROF_GZ)
        *fmt = FMT_PPROF_GZ;
    if (*fmt == FMT_PPROF && json && !o->output) {
        fprintf(stderr, "clrattach: --json puts one JSON object on stdout, where binary pprof "
                "cannot go\n  what to do: give --output FILE.pb\n");
        return -1;
    }
    return *fmt < 0 ? -1 : 0;
}

/* Samples until the duration ends, a signal arrives or the target goes away; drains each
 * second and shows progress on a terminal. The time spent sampling (up to --duration) is added
 * to the session's budget: --timeout bounds only the waiting around it, so the command ends
 * within --duration + --timeout whatever the target does. */
static int sample_loop(sampler_session_t *s, const profile_opts_t *o, clra_status_t *st)
{
    double timeout_ms = s->budget_ms;
    long long t0 = mono__ms();
    long long last_drain = 0, elapsed = 0, duration_ms = o->duration_s * 1000;
    int tty = isatty(2), rc = 0;
    while (!cli_interrupted() && elapsed < duration_ms && !rc) {
        nanosleep(&(struct timespec){0, STEP_MS * 1000000L}, NULL);
        elapsed = mono__ms() - t0;
        s->budget_ms = timeout_ms + (double)(elapsed < duration_ms ? elapsed : duration_ms);
        if (elapsed - last_drain < DRAIN_EVERY_MS)
            continue;
        last_drain = elapsed;
        rc = session_drain(s, session_left_ms(s), st);
        if (tty)
            fprintf(stderr, "\rprofiling %d (%s, %lld Hz): %lld/%lld s, %llu samples ", s->pid,
                    o->mode, o->hz, elapsed / 1000, o->duration_s,
                    (unsigned long long)s->map.samples);
    }
    if (tty)
        fputc('\n', stderr);
    s->profile->duration_ns = (uint64_t)elapsed * 1000000ULL;
    return rc;
}

/* Writes the profile where --output says, or without it to stdout; with --json into *text
 * instead (malloc'd), for the one JSON object that is all --json puts on stdout. */
int profile_write_output(const profile_t *p, const char *output, int threads, int fmt, int json,
                         char **text)
{
    profile_write_opts_t wo = {threads, 20};
    if (!output && json) {
        mem_stream_t m;
        int rc = mem_stream_open(&m) ? profile_write(p, &wo, fmt, m.f) : -1;
        if (m.f && mem_stream_close(&m) != 0)
            rc = -1;
        *text = m.text;
        return rc;
    }
    if (!output)
        return profile_write(p, &wo, fmt, stdout);
    FILE *f = out_file_fopen(output, "--output", "clrattach profile");
    if (!f)
        return -1;
    int rc = profile_write(p, &wo, fmt, f);
    if (fclose(f) != 0)
        rc = -1;
    if (rc)
        fprintf(stderr, "clrattach: writing %s failed: %s\n", output, strerror(errno));
    return rc;
}

static int report(cli_run_t *run, const profile_opts_t *o, const sampler_session_t *s, int fmt,
                  int written, const char *text)
{
    uint64_t n = profile_total_count(s->profile);
    json_out_t *j = cli_result_open(run, written == 0);
    if (j) {
        json_str(j, "mode", o->mode);
        method_report(s->map.info, o->method, j);
        json_int(j, "hz", o->hz);
        json_int(j, "samples", (long long)n);
        json_int(j, "stacks", (long long)s->profile->nstacks);
        json_int(j, "dropped", (long long)s->map.dropped);
        json_bool(j, "target_exited", s->exited);
        json_str(j, "sampler", s->map.info);
        json_int(j, "detach_expected_ms", s->detach_expected_ms);
        json_int(j, "unload_ms", s->unload_ms);
        session_report_load(s, j);
        if (o->output)
            json_str(j, "output", o->output);
        else if (text) /* the top table, or the --format asked for */
            json_str(j, "profile", text);
    } else {
        session_report_load(s, NULL);
        method_report(s->map.info, o->method, NULL);
        fprintf(o->output ? stdout : stderr, "%llu samples, %zu distinct stacks%s%s%s\n",
                (unsigned long long)n, s->profile->nstacks, o->output ? " written to " : "",
                o->output ? cli_vis(o->output) : "", s->exited ? " (the process exited while "
                "sampled: these are the samples gathered until then)" : "");
    }
    (void)fmt;
    int code = written ? EXIT_INTERNAL : s->exited ? 11 : EXIT_OK;
    cli_failure_t f = {.exit_code = code, .exit_code_set = 1};
    return cli_result_close(run, code == EXIT_OK ? NULL : &f);
}

int cmd_profile(int argc, char **argv)
{
    profile_opts_t o = {.duration_s = 10, .hz = 99, .mode = "cpu"};
    cli_args_t a;
    cli_run_t run;
    clra_status_t st;
    int fmt;
    char options[256], title[128];
    int p = cli_parse(&profile_verb, argc, argv, &o, &a);
    if (p != 0)
        return p > 0 ? EXIT_OK : a.fail_exit;
    if (check_opts(&o, a.json, &fmt) != 0)
        return EXIT_USAGE;
    const pe_mode_t *events = pe_mode_find(o.mode);
    if (events) {
        pe_cmd_t c = {a.pid, a.json, o.threads, fmt, o.duration_s, a.timeout_ms, o.output, events};
        return profile_events_cmd(&c);
    }
    const char *lib = sampler_path(o.profiler);
    if (!lib)
        return EXIT_USAGE;
    cli_run_begin(&run, a.pid, a.json);
    profile_t prof;
    profile_init(&prof);
    snprintf(title, sizeof title, "clrattach profile %d (%s, %lld Hz)", a.pid, o.mode, o.hz);
    prof.title = title;
    prof.weight_name = o.mode;
    sampler_session_t s = {.profile = &prof,
                           .load = o.notification_only ? SAMPLER_LOAD_BESIDE : SAMPLER_LOAD_AUTO,
                           .run = &run, .budget_ms = (double)a.timeout_ms};
    snprintf(options, sizeof options, "mode=%s;method=%s;hz=%lld;detach_on_disconnect;"
             "log=/dev/null", o.mode, o.client_method, o.hz);
    int rc = session_start(&s, a.pid, lib, options, o.stage, &st);
    if (rc) {
        profile_free(&prof);
        int no_signal = (uint32_t)st.hresult == SAMPLER_E_NO_SIGNAL;
        cli_failure_t f = {.rc = rc, .st = &st, .action = "profile",
                           .reason = no_signal ? NO_SIGNAL : s.unsafe_beside ? UNSAFE_BESIDE : NULL,
                           .hint = no_signal ? NO_SIGNAL_HINT :
                                   s.unsafe_beside ? UNSAFE_BESIDE_HINT : NULL,
                           .exit_code = s.unsafe_beside ? 10 : 0};
        return cli_fail(&run, &f);
    }
    cli_catch_interrupt();
    rc = sample_loop(&s, &o, &st);
    int stop = session_stop(&s, rc ? &(clra_status_t){0} : &st);
    if (!rc && stop && !s.exited)
        rc = stop;
    if (rc && !s.exited) {
        profile_free(&prof);
        cli_failure_t f = {.rc = rc, .st = &st, .action = "profile",
                           .reason = s.unsafe_beside ? UNSAFE_BESIDE : NULL,
                           .hint = s.unsafe_beside ? UNSAFE_BESIDE_HINT : NULL,
                           .exit_code = s.unsafe_beside ? 10 : 0};
        return cli_fail(&run, &f);
    }
    char *text = NULL;
    int written = profile_write_output(&prof, o.output, o.threads, fmt, a.json, &text);
    int code = report(&run, &o, &s, fmt, written, text);
    free(text);
    profile_free(&prof);
    return code;
}
