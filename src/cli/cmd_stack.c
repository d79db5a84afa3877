/* cmd_stack.c - `clrattach stack`: the managed stack of every thread right now, by a short
 * attach of the sampler in snapshot mode (one suspension, every thread walked), a drain and a
 * detach. */
#define _GNU_SOURCE
#include "verbs.h"
#include "base/cli.h"
#include "base/options.h"
#include "profile/profile_drain.h"

#include <string.h>
#include <time.h>

#define SNAPSHOT_WAIT_STEP_MS 20

typedef struct stack_opts {
    const char *profiler, *method;
    int stage, notification_only, signatures;
} stack_opts_t;

static const cli_opt_t stack_opts[] = {
    CLI_STRING("method", stack_opts_t, method, "signal|suspend|walk",
               "signal (default): every thread signalled once, its stack taken where\n"
               "it is, native frames included (falls back to walk when the target\n"
               "has no free real-time signal); on Windows suspend (default; signal\n"
               "names it too): each thread suspended in turn, its stack unwound;\n"
               "walk: the runtime stopped once, every managed thread walked from its\n"
               "safe point"),
    CLI_STRING("profiler", stack_opts_t, profiler, "PATH",
               "the sampler library (default: the one installed with clrattach)"),
    CLI_FLAG("stage", stack_opts_t, stage, "copy the sampler into the target's file tree first"),
    CLI_FLAG("notification-only", stack_opts_t, notification_only,
             "load the sampler notification-only, beside a main profiler (without\n"
             "it: when one is found, or the runtime refuses the sampler as main)"),
    CLI_FLAG("signatures", stack_opts_t, signatures,
             "name frames as dotnet-stack does, with module and parameters:\n"
             "hot!ClrAttach.Hot.Work.Burn(float64)"),
    CLI_END,
};

static const cli_verb_t stack_verb = {
    .name = "stack",
    .synopsis = "PID",
    .description =
        "Prints the stack of every thread of .NET process PID, innermost frame first:\n"
        "clrattach's sampler attaches, takes one stack of each thread (--method), and\n"
        "detaches; the command returns once the runtime has unloaded it.\n",
    .epilogue = "exit codes: as for attach; 0 printed.\n",
    .opts = stack_opts,
    .common = CLI_COMMON_JSON | CLI_COMMON_TIMEOUT,
    .json_help = "print one JSON object with a threads array",
    .timeout_help = "deadline for the whole command (attach, snapshot, detach and unload\n"
                    "share it), in milliseconds",
    .default_timeout_ms = 30000,
    .pid = 1,
    .args_error = "expected one PID",
};

/* Drains until the sampler says its snapshot is taken (or the session's deadline passes). */
static int wait_snapshot(sampler_session_t *s, clra_status_t *st)
{
    for (;;) {
        int rc = session_drain(s, session_left_ms(s), st);
        if (rc || strstr(s->map.info, "snapshot_done=1"))
            return rc;
        if (session_left_ms(s) <= SNAPSHOT_WAIT_STEP_MS) {
            snprintf(st->detail, sizeof st->detail, "the sampler took no snapshot within the "
                     "%.0f ms of --timeout (%.200s)", s->budget_ms, s->map.info);
            return CLRA_ETIMEDOUT;
        }
        nanosleep(&(struct timespec){0, SNAPSHOT_WAIT_STEP_MS * 1000000L}, NULL);
    }
}

static void print_text(const profile_t *p)
{
    for (size_t t = 0; t < p->nthreads; t++)
        for (size_t i = 0; i < p->nstacks; i++) {
            const profile_stack_t *s = &p->stacks[i];
            if (s->thread != t)
                continue;
            printf("thread %llu \"%s\":\n", (unsigned long long)p->threads[t].tid,
                   cli_vis(p->threads[t].name));
            for (uint32_t k = 0; k < s->len; k++)
                printf("    %s\n", cli_vis(p->frames[p->arena[s->off + k]]));
            printf("\n");
        }
}

static void print_json(json_out_t *j, const profile_t *p)
{
    json_array(j, "threads");
    for (size_t i = 0; i < p->nstacks; i++) {
        const profile_stack_t *s = &p->stacks[i];
        json_object(j, NULL);
        json_int(j, "tid", (long long)p->threads[s->thread].tid);
        json_str(j, "name", p->threads[s->thread].name);
        json_array(j, "frames");
        for (uint32_t k = 0; k < s->len; k++)
            json_str(j, NULL, p->frames[p->arena[s->off + k]]);
        json_close(j);
        json_close(j);
    }
    json_close(j);
}

int cmd_stack(int argc, char **argv)
{
    stack_opts_t o = {0};
    cli_args_t a;
    cli_run_t run;
    clra_status_t st;
    int p = cli_parse(&stack_verb, argc, argv, &o, &a);
    if (p != 0)
        return p > 0 ? EXIT_OK : a.fail_exit;
    const char *method = method_client(o.method, "stack");
    const char *lib = method ? sampler_path(o.profiler) : NULL;
    char options[128];
    if (!lib)
        return EXIT_USAGE;
    snprintf(options, sizeof options, "mode=stack;method=%s;%sdetach_on_disconnect;log=/dev/null",
             method, o.signatures ? "signatures;" : "");
    cli_run_begin(&run, a.pid, a.json);
    profile_t prof;
    profile_init(&prof);
    sampler_session_t s = {.profile = &prof,
                           .load = o.notification_only ? SAMPLER_LOAD_BESIDE : SAMPLER_LOAD_AUTO,
                           .run = &run, .budget_ms = (double)a.timeout_ms};
    int rc = session_start(&s, a.pid, lib, options, o.stage, &st);
    if (!rc)
        rc = wait_snapshot(&s, &st);
    if (s.hold_fd >= 0 || !rc) {
        clra_status_t sst;
        int stop = session_stop(&s, rc ? &sst : &st);
        rc = rc ? rc : stop;
    }
    if (rc) {
        profile_free(&prof);
        int no_signal = (uint32_t)st.hresult == SAMPLER_E_NO_SIGNAL;
        cli_failure_t f = {.rc = rc, .st = &st, .action = "take the stacks of",
                           .reason = no_signal ? NO_SIGNAL : s.unsafe_beside ? UNSAFE_BESIDE : NULL,
                           .hint = no_signal ? NO_SIGNAL_HINT :
                                   s.unsafe_beside ? UNSAFE_BESIDE_HINT : NULL,
                           .exit_code = s.unsafe_beside ? 10 : 0};
        return cli_fail(&run, &f);
    }
    json_out_t *j = cli_result_open(&run, 1);
    if (j) {
        session_report_load(&s, j);
        method_report(s.map.info, o.method, j);
        print_json(j, &prof);
    } else {
        session_report_load(&s, NULL);
        method_report(s.map.info, o.method, NULL);
        print_text(&prof);
    }
    profile_free(&prof);
    return cli_result_close(&run, NULL);
}
