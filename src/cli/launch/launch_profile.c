/* launch_profile.c - `clrattach launch --profile FILE`: the sampler (profilers/sampler) loaded as
 * COMMAND's startup profiler samples from the runtime's first managed code. While COMMAND runs,
 * launch holds the sampler's control endpoint and drains it every second (so the target's memory
 * stays bounded and a program killed outright keeps all but its last second); at a normal exit
 * the runtime's Shutdown has the sampler write what no drain took to a file in launch's private
 * directory (final=), which launch adds before it writes FILE. */
#define _GNU_SOURCE
#include "launch/launch.h"
#include "base/hold_platform.h"
#include "launch/launch_platform.h" /* launch_sleep_ms */
#include "launch/launch_profile_os.h"
#include "profile/profile_drain.h" /* method_client */
#include "common/mono_clock.h"
#include "render/format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DRAIN_EVERY_MS 1000
#define FIND_WAIT_MS 10000

/* Only with --profile FILE (launch_args.c checked the mode and rate). */
int launch_profile_choose(launch_opts_t *o)
{
    o->profile_client_method = method_client(o->profile_method, "launch");
    if (!o->profile_client_method)
        return -1;
    if (o->profiler[0] || o->data) {
        fprintf(stderr, "clrattach launch: --profile loads clrattach's sampler as the startup "
                "profiler; it cannot be combined with --profiler or --data (a runtime loads one "
                "startup profiler)\n");
        return -1;
    }
    o->profile_fmt = profile_format_from_path(o->profile_output);
    if (o->profile_fmt < 0) {
        fprintf(stderr, "clrattach launch: cannot tell the profile format from '%s'\n  what to "
                "do: name it .html, .folded, .txt, .json, .pb or .pb.gz\n",
                cli_vis(o->profile_output));
        return -1;
    }
    const char *lib = sampler_path(NULL);
    if (!lib)
        return -1;
    snprintf(o->profiler, sizeof o->profiler, "%s", lib);
    clra_guid_parse(CLSID_SAMPLER_TEXT, &o->clsid);
    return 0;
}

/* The sampler detaches itself unless launch drained it within this (should launch die before
 * it holds the endpoint); launch finds it within 10 s and drains a second later. */
#define STARTUP_HOLD_MS 20000

int launch_profile_open(launch_profile_t *lp, const launch_opts_t *o, const char *dir)
{
    memset(lp, 0, sizeof *lp);
    lp->o = o;
    if (out_file_open(&lp->file, o->profile_output, "--profile", "clrattach launch") != 0)
        return -1;
    if (launch_profile_final_path(dir, lp->final_path, sizeof lp->final_path) != 0) {
        fprintf(stderr, "clrattach launch: no place for the sampler's last samples\n");
        out_file_discard(&lp->file);
        return -1;
    }
    /* The program's own stderr stays clean: the SDK logs where $CLRPROF_LOG says, or nowhere. */
    const char *log = getenv("CLRPROF_LOG");
    snprintf(lp->data, sizeof lp->data, "mode=%s;method=%s;hz=%lld;detach_on_disconnect;"
             "startup_hold_ms=%d;final=%s%s", o->profile_mode, o->profile_client_method,
             o->profile_hz ? o->profile_hz : 99,
             STARTUP_HOLD_MS, lp->final_path,
             log && log[0] ? "" : ";log=/dev/null");
    profile_init(&lp->prof);
    snprintf(lp->title, sizeof lp->title, "clrattach launch %.60s (%s, %lld Hz)", o->command[0],
             o->profile_mode, o->profile_hz ? o->profile_hz : 99);
    lp->prof.title = lp->title;
    lp->prof.weight_name = o->profile_mode;
    lp->s.profile = &lp->prof;
    lp->s.hold_fd = -1;
    return 0;
}

/* Finds the sampler's control endpoint (it opens in Initialize, a moment after the runtime
 * maps the library) and holds it: should launch die, the sampler detaches. */
void launch_profile_connect(launch_profile_t *lp, int pid, int timeout_ms)
{
    clra_status_t st;
    lp->s.pid = pid;
    lp->t0_ms = lp->last_drain_ms = mono__ms();
    for (long long waited = 0; waited < FIND_WAIT_MS; waited = mono__ms() - lp->t0_ms) {
        int rc = session_find_sampler(pid, CLSID_SAMPLER_TEXT, &lp->s.ref, &st);
        lp->connected = rc == 0;
        if (rc != CLRA_ENOENDPOINT)
            break;
        launch_sleep_ms(20);
    }
    if (lp->connected && session_hold(&lp->s, timeout_ms, &st) != 0)
        lp->connected = 0;
    if (!lp->connected)
        fprintf(stderr, "clrattach launch: warning: cannot reach the sampler in process %d, "
                "so it is not drained while the program runs: FILE gets only what it writes "
                "at a normal exit\n", pid);
}

/* One drain; after a failure no more (the program is ending, or the endpoint is gone). */
static void drain(launch_profile_t *lp, int timeout_ms)
{
    clra_status_t st;
    memset(&st, 0, sizeof st);
    lp->last_drain_ms = mono__ms();
    int rc = session_drain(&lp->s, timeout_ms, &st);
    if (rc == 0)
        return;
    lp->connected = 0;
    if (!lp->s.exited)
        fprintf(stderr, "clrattach launch: warning: draining the sampler failed (%s%s%s); "
                "FILE gets only what it wrote at exit\n", clra_strerror(rc),
                st.detail[0] ? ": " : "", cli_vis(st.detail));
}

void launch_profile_poll(launch_profile_t *lp, int force, int timeout_ms)
{
    if (lp->connected && (force || mono__ms() - lp->last_drain_ms >= DRAIN_EVERY_MS))
        drain(lp, timeout_ms);
}

/* Adds the samples the sampler wrote at Shutdown: 1 added, 0 there were none, -1 malformed. */
static int read_final(launch_profile_t *lp)
{
    FILE *f = launch_profile_final_open(lp->final_path);
    if (!f)
        return 0;
    char *text = NULL, why[160];
    size_t cap = 0, len = 0;
    for (;;) {
        if (len + 65536 > cap) {
            char *bigger = realloc(text, cap = cap * 2 + 65536);
            if (!bigger)
                break;
            text = bigger;
        }
        size_t n = fread(text + len, 1, cap - len, f);
        if (n == 0)
            break;
        len += n;
    }
    fclose(f);
    unlink(lp->final_path);
    /* The file holds what the control endpoint would have sent: "ok samples bytes=N", then N. */
    char *nl = text ? memchr(text, '\n', len) : NULL;
    size_t head = nl ? (size_t)(nl + 1 - text) : 0;
    int rc = -1;
    if (nl && strncmp(text, "ok samples bytes=", 17) == 0 &&
        strtoull(text + 17, NULL, 10) == len - head)
        rc = drain_parse(&lp->prof, &lp->s.map, nl + 1, len - head, why, sizeof why) == 0 ? 1
                                                                                         : -1;
    if (rc < 0)
        fprintf(stderr, "clrattach launch: warning: the sampler's last samples (%s) are "
                "unreadable\n", lp->final_path);
    free(text);
    return rc;
}

/* The line on stderr that says what FILE holds, or why it could not be written. */
static void say_written(const launch_profile_t *lp, int status)
{
    const launch_opts_t *o = lp->o;
    if (!lp->written) {
        fprintf(stderr, "clrattach launch: writing the profile %s failed: %s\n",
                cli_vis(o->profile_output), strerror(lp->write_errno));
        return;
    }
    fprintf(stderr, "clrattach launch: profile: %llu samples, %zu distinct stacks (%s, %lld Hz) "
            "written to %s%s\n", lp->samples, lp->stacks, o->profile_mode,
            o->profile_hz ? o->profile_hz : 99, cli_vis(o->profile_output),
            lp->last_samples ? ""
            : launch_profile_killed(status) ? " (the program was killed: up to its last second "
                                              "of samples is missing)"
                                            : " (the runtime wrote no last samples at exit: up "
                                              "to the last second is missing)");
}

int launch_profile_finish(launch_profile_t *lp, int status)
{
    if (lp->s.hold_fd >= 0)
        hold_release(lp->s.hold_fd);
    lp->s.hold_fd = -1;
    lp->prof.duration_ns = (uint64_t)(mono__ms() - lp->t0_ms) * 1000000ULL;
    lp->last_samples = read_final(lp) == 1;
    profile_write_opts_t wo = {0, 20};
    FILE *f = fdopen(lp->file.fd, "w");
    int rc = f ? profile_write(&lp->prof, &wo, lp->o->profile_fmt, f) : -1;
    if (f) /* the stream closes the descriptor */
        lp->file.fd = -1;
    if ((f && fclose(f) != 0) || out_file_close(&lp->file) != 0)
        rc = -1;
    lp->write_errno = rc ? errno : 0;
    lp->written = rc == 0;
    lp->samples = (unsigned long long)profile_total_count(&lp->prof);
    lp->stacks = lp->prof.nstacks;
    if (!lp->o->json) {
        say_written(lp, status);
        method_report(lp->s.map.info, lp->o->profile_method, NULL);
    }
    drain_map_free(&lp->s.map); /* its info line stays for launch_profile_json */
    profile_free(&lp->prof);
    return rc;
}

void launch_profile_abandon(launch_profile_t *lp)
{
    if (lp->s.hold_fd >= 0)
        hold_release(lp->s.hold_fd);
    out_file_discard(&lp->file);
    unlink(lp->final_path);
    drain_map_free(&lp->s.map);
    profile_free(&lp->prof);
}

/* profile --json's names for the same facts, and what only launch knows: whether FILE was
 * written, and whether the runtime handed over the last samples at exit. */
void launch_profile_json(json_out_t *j, const launch_profile_t *lp)
{
    const launch_opts_t *o = lp->o;
    json_str(j, "output", o->profile_output);
    json_str(j, "mode", o->profile_mode);
    json_int(j, "hz", o->profile_hz ? o->profile_hz : 99);
    method_report(lp->s.map.info, o->profile_method, j);
    json_bool(j, "written", lp->written);
    if (!lp->written)
        json_str(j, "problem", strerror(lp->write_errno));
    json_int(j, "samples", (long long)lp->samples);
    json_int(j, "stacks", (long long)lp->stacks);
    json_bool(j, "last_samples", lp->last_samples);
}
