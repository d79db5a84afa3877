/* profile_session.c - one attached sampler: attach (optionally staged into a container), hold
 * its control endpoint (so even kill -9 of this command detaches it), drain, detach. */
#define _GNU_SOURCE
#include "base/cli.h"
#include "base/hold_platform.h"
#include "profile/profile_platform.h"
#include "profile/profile_drain.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SAMPLER_FILE "libsampler_profiler"
#define GONE_WAIT_MS 2000

const char *sampler_path(const char *given)
{
    static char place[CLRA_PATH_MAX];
    const char *env = getenv("CLRATTACH_SAMPLER");
    if (given || (env && env[0])) {
        const char *p = given ? given : env;
        if (access(p, R_OK) == 0)
            return p;
        fprintf(stderr, "clrattach: cannot read the sampler %s (%s): %s\n", p,
                given ? "--profiler" : "$CLRATTACH_SAMPLER", strerror(errno));
        return NULL;
    }
    for (int i = 0; profile_sampler_place(i, place, sizeof place) == 0; i++)
        if (access(place, R_OK) == 0)
            return place;
    fprintf(stderr, "clrattach: cannot find the sampling profiler (" SAMPLER_FILE ")\n  what to "
            "do: install clrattach with it, or name it with --profiler PATH or "
            "$CLRATTACH_SAMPLER\n");
    return NULL;
}

int session_left_ms(const sampler_session_t *s)
{
    return cli_run_left_ms(s->run, s->budget_ms);
}

int session_find_sampler(int pid, const char *clsid, clra_profiler_ref_t *out, clra_status_t *st)
{
    clra_profiler_ref_t refs[16];
    int n = clra_profiler_list(pid, refs, 16, st);
    for (int i = 0; i < n && i < 16; i++)
        if (strcasecmp(refs[i].clsid, clsid) == 0) {
            *out = refs[i];
            return 0;
        }
    if (n >= 0)
        snprintf(st->detail, sizeof st->detail, "the sampler attached but opened no control "
                 "endpoint in process %d", pid);
    return n < 0 ? n : CLRA_ENOENDPOINT;
}

/* One attach of the sampler from path (staged first when asked), as main or beside. */
static int attach_as(int pid, const char *path, const char *clsid_text, const char *options,
                     int stage, int timeout_ms, clra_status_t *st)
{
    clra_guid_t clsid;
    clra_stage_t *copy = NULL;
    clra_guid_parse(clsid_text, &clsid);
    if (stage) {
        int rc = clra_stage_create(pid, path, &copy, st);
        if (rc)
            return rc;
        path = clra_stage_target_path(copy);
    }
    clra_target_t target = clra_target_pid(pid);
    int rc = clra_profiler_attach(&target, &clsid, path, options, strlen(options), 10000, 0,
                                  timeout_ms, st);
    if (copy && rc)
        clra_stage_remove(copy, NULL);
    else if (copy)
        clra_stage_release(copy); /* the copy stays until the sweep after the detach */
    return rc;
}

int session_start(sampler_session_t *s, int pid, const char *path, const char *options,
                  int stage, clra_status_t *st)
{
    s->pid = pid;
    s->hold_fd = -1;
    s->detach_expected_ms = s->unload_ms = -1;
    /* A sampler this command could not drain or detach would sample for nobody. */
    int rc = cli_control_check(pid, st);
    if (rc)
        return rc;
    if (s->load == SAMPLER_LOAD_BESIDE)
        snprintf(s->beside_why, sizeof s->beside_why, "--notification-only");
    else if (s->load == SAMPLER_LOAD_AUTO &&
             sampler_main_taken(s, s->beside_why, sizeof s->beside_why, s->main_clsid))
        s->load = SAMPLER_LOAD_BESIDE;
    if (s->load == SAMPLER_LOAD_BESIDE && sampler_main_detached_before(pid)) {
        s->unsafe_beside = 1;
        snprintf(st->detail, sizeof st->detail, "the sampler would be loaded notification-only "
                 "(%s), but a main profiler has detached from process %d before", s->beside_why,
                 pid);
        return CLRA_EINVAL;
    }
    const char *clsid = s->load == SAMPLER_LOAD_BESIDE ? CLSID_SAMPLER_BESIDE_TEXT
                                                       : CLSID_SAMPLER_TEXT;
    rc = attach_as(pid, path, clsid, options, stage, session_left_ms(s), st);
    if (rc == CLRA_ERUNTIME && (uint32_t)st->hresult == 0x8013136Au &&
        s->load == SAMPLER_LOAD_AUTO) {
        /* A main profiler nothing above could see (attached, not a libclrprof one). */
        s->refused_main = 1;
        s->load = SAMPLER_LOAD_BESIDE;
        snprintf(s->beside_why, sizeof s->beside_why, "the runtime refused it as the main "
                 "profiler (CORPROF_E_PROFILER_ALREADY_ACTIVE)");
        if (sampler_main_detached_before(pid)) {
            s->unsafe_beside = 1;
            snprintf(st->detail, sizeof st->detail, "%s, but a main profiler has detached "
                     "from process %d before", s->beside_why, pid);
            return CLRA_EINVAL;
        }
        /* The refused load keeps its library mapped; a staged copy is another file, which
         * the detach can unload. Unstaged if staging is not possible. */
        rc = attach_as(pid, path, CLSID_SAMPLER_BESIDE_TEXT, options, 1, session_left_ms(s), st);
        if (rc && rc != CLRA_ERUNTIME && !stage)
            rc = attach_as(pid, path, CLSID_SAMPLER_BESIDE_TEXT, options, 0, session_left_ms(s),
                           st);
    }
    if (s->load != SAMPLER_LOAD_BESIDE)
        s->load = SAMPLER_LOAD_MAIN;
    if (!rc)
        rc = session_find_sampler(pid, s->load == SAMPLER_LOAD_BESIDE
                                           ? CLSID_SAMPLER_BESIDE_TEXT : CLSID_SAMPLER_TEXT,
                                  &s->ref, st);
    if (!rc)
        rc = session_hold(s, session_left_ms(s), st);
    return rc;
}

int session_hold(sampler_session_t *s, int timeout_ms, clra_status_t *st)
{
    return clra_profiler_hold(&s->ref, timeout_ms, &s->hold_fd, &s->inode, st);
}

/* After a failed drain: whether the process is exiting or gone. Its runtime closes the endpoint
 * at shutdown before the process ends, and a dead child stays a zombie (kill(pid, 0) works,
 * its maps are empty) until reaped, so the test is: the library left within a short wait (no
 * longer than what the drain had left). */
static int target_gone(const sampler_session_t *s, int timeout_ms)
{
    clra_status_t st;
    if (profile_process_gone(s->pid))
        return 1;
    int wait = timeout_ms < GONE_WAIT_MS ? timeout_ms : GONE_WAIT_MS;
    int rc = s->inode ? clra_library_wait_unmapped(s->pid, s->inode, wait, &st) : 0;
    return rc == 0 || rc == CLRA_ENOPROC;
}

int session_drain(sampler_session_t *s, int timeout_ms, clra_status_t *st)
{
    char reply[256], *data = NULL, why[160];
    size_t len = 0;
    int rc = clra_profiler_request(&s->ref, "samples", timeout_ms, reply, sizeof reply, &data,
                                   &len, st);
    if (rc) { /* a drain that timed out has no time left to wait with: it looks once */
        if (target_gone(s, rc == CLRA_ETIMEDOUT ? 0 : timeout_ms))
            s->exited = 1, rc = CLRA_ENOPROC;
        return rc;
    }
    if (!data) {
        snprintf(st->detail, sizeof st->detail, "the sampler answered '%s' without samples",
                 reply);
        return CLRA_EPROTO;
    }
    if (drain_parse(s->profile, &s->map, data, len, why, sizeof why) != 0) {
        snprintf(st->detail, sizeof st->detail, "%s", why);
        rc = CLRA_EPROTO;
    }
    clra_profiler_data_free(data);
    return rc;
}

/* .NET 10 crashes (SIGSEGV) in the RequestProfilerDetach of a notification-only profiler once
 * a main profiler has detached from the process (docs/runtime-behaviour.md). When the main
 * profiler the sampler was loaded beside is gone, the sampler is told to stop sampling and stay loaded instead. */
static int park_instead(sampler_session_t *s)
{
    char reply[64];
    clra_status_t pst;
    if (s->load != SAMPLER_LOAD_BESIDE ||
        (!sampler_main_detached_before(s->pid) &&
         (!s->main_clsid[0] || sampler_main_still_there(s))))
        return 0;
    s->parked = clra_profiler_request(&s->ref, "park", session_left_ms(s), reply, sizeof reply, NULL,
                                      NULL, &pst) == 0 && strncmp(reply, "ok", 2) == 0;
    return s->parked;
}

int session_stop(sampler_session_t *s, clra_status_t *st)
{
    int rc = s->exited ? CLRA_ENOPROC : session_drain(s, session_left_ms(s), st);
    if (!s->exited && !park_instead(s)) {
        clra_detach_result_t r;
        clra_status_t dst;
        int drc = clra_profiler_detach(&s->ref, session_left_ms(s), &r, &dst);
        s->detach_expected_ms = drc == 0 || drc == CLRA_ETIMEDOUT ? (int)r.expected_ms : -1;
        s->unload_ms = drc == 0 && !r.library_refs ? r.elapsed_ms : -1;
        s->library_refs = drc == 0 ? (int)r.library_refs : 0;
        if (drc == CLRA_ENOPROC)
            s->exited = 1;
        if (drc && !rc) {
            rc = drc;
            *st = dst;
        }
    }
    if (s->hold_fd >= 0)
        hold_release(s->hold_fd); /* after the detach; had it failed, this hang-up detaches too */
    s->hold_fd = -1;
    if (!s->exited && s->inode && !rc && !s->library_refs && !s->parked)
        rc = clra_library_wait_unmapped(s->pid, s->inode, session_left_ms(s), st);
    cli_sweep_stage(s->pid, 1);
    drain_map_free(&s->map);
    return rc;
}

void session_report_load(const sampler_session_t *s, struct json_out *j)
{
    int beside = s->load == SAMPLER_LOAD_BESIDE;
    if (j) {
        json_str(j, "loaded_as", beside ? "notification-only" : "main");
        if (beside)
            json_str(j, "loaded_beside_because", s->beside_why);
        json_bool(j, "refused_as_main", s->refused_main);
        json_int(j, "library_refs", s->library_refs);
        json_bool(j, "parked", s->parked);
        return;
    }
    if (beside)
        fprintf(stderr, "clrattach: the sampler was loaded as notification-only beside the main "
                "profiler (%s)\n", cli_vis(s->beside_why));
    if (s->parked)
        fprintf(stderr, "clrattach: a main profiler detached while the sampler ran beside it; "
                "the sampler stopped sampling and stays loaded in process %d, because .NET 10 "
                "crashes when a notification-only profiler detaches after a main one\n", s->pid);
    if (s->library_refs)
        fprintf(stderr, "clrattach: the sampler detached, but the runtime keeps %d more "
                "reference%s to its library (from the refused attach as the main profiler), so "
                "it stays mapped in process %d\n", s->library_refs,
                s->library_refs == 1 ? "" : "s", s->pid);
}
