/* process_list_win.c - clra_process_list on Windows: every pid from EnumProcesses that has
 * coreclr.dll or clr.dll loaded, or a diagnostics pipe (the fallback where modules cannot be
 * read, as under wine for some processes), each asked ProcessInfo within the probe timeout.
 * Listing \\.\pipe\ itself is not used: wine refuses it (error 66). */
#include "clrattach.h"
#include "target/process_win.h"
#include "util/deadline.h"
#include "util/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#define MAX_PIDS 4096

/* The process's user as DOMAIN\name from its token; "" when the token is not ours to read. */
static void owner_name(int pid, char *out, size_t cap)
{
    out[0] = '\0';
    HANDLE p = OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, FALSE, (DWORD)pid), tok = NULL;
    if (!p)
        return;
    union { TOKEN_USER user; char bytes[256]; } buf;
    DWORD len = 0;
    if (OpenProcessToken(p, TOKEN_QUERY, &tok) &&
        GetTokenInformation(tok, TokenUser, &buf, sizeof buf, &len)) {
        char name[64], domain[64];
        DWORD nl = sizeof name, dl = sizeof domain;
        SID_NAME_USE use;
        if (LookupAccountSidA(NULL, buf.user.User.Sid, name, &nl, domain, &dl, &use))
            snprintf(out, cap, "%s\\%s", domain, name);
    }
    if (tok)
        CloseHandle(tok);
    CloseHandle(p);
}

/* Whether pid belongs in the list: its modules say .NET, or (unreadable) its pipe exists. */
static int is_candidate(int pid, int *unreadable)
{
    int dotnet = clra__win_process_is_dotnet(pid, NULL, 0);
    if (dotnet >= 0)
        return dotnet;
    wchar_t wpath[64];
    swprintf(wpath, 64, L"\\\\.\\pipe\\dotnet-diagnostic-%d", pid);
    if (WaitNamedPipeW(wpath, 1) || GetLastError() == ERROR_SEM_TIMEOUT)
        return 1;
    (*unreadable)++;
    return 0;
}

/* Fills one entry: the endpoint, then ProcessInfo if there is time left. */
static void probe(clra_process_entry_t *e, int pid, const clra__deadline_t *d, int probe_ms)
{
    clra_endpoint_t ep;
    clra_status_t st;
    char image[CLRA_PATH_MAX];
    memset(e, 0, sizeof *e);
    e->pid = e->ns_pid = pid;
    owner_name(pid, e->user, sizeof e->user);
    e->reach = clra_endpoint_find(pid, &ep, &st);
    if (e->reach == 0) {
        e->endpoint = _strdup(ep.path);
        int left = clra__deadline_left_ms(d);
        clra_target_t t = clra_target_pid(pid);
        e->reach = left == 0 ? CLRA_ETIMEDOUT
                             : clra_process_info_get(&t, left < 0 || left > probe_ms ? probe_ms
                                                                                      : left,
                                                     &e->info, &st);
        e->hresult = st.hresult;
    }
    if (e->reach)
        snprintf(e->reason, sizeof e->reason, "%s", st.detail[0] ? st.detail
                                                                  : clra_strerror(e->reach));
    if (e->reach == 0 && e->info.command_line)
        e->command_line = _strdup(e->info.command_line);
    else if (clra__win_process_image(pid, image, sizeof image) == 0)
        e->command_line = _strdup(image);
}

static int by_pid(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int clra_process_list(int timeout_ms, int probe_timeout_ms, clra_process_list_t *out,
                      clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    if (!out)
        return CLRA_EINVAL;
    memset(out, 0, sizeof *out);
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    int *ids = malloc(MAX_PIDS * sizeof *ids);
    if (!ids)
        return CLRA_ENOMEM;
    int n = clra__win_process_ids(ids, MAX_PIDS);
    if (n < 0) {
        free(ids);
        clra__detail(st, "EnumProcesses failed (Windows error %lu)", (unsigned long)GetLastError());
        return CLRA_EIO;
    }
    qsort(ids, (size_t)n, sizeof *ids, by_pid);
    out->entries = calloc((size_t)n + 1, sizeof *out->entries);
    if (!out->entries) {
        free(ids);
        return CLRA_ENOMEM;
    }
    int self = (int)GetCurrentProcessId();
    for (int i = 0; i < n; i++) {
        if (ids[i] != self && is_candidate(ids[i], &out->unreadable))
            probe(&out->entries[out->count++], ids[i], &d, probe_timeout_ms);
    }
    free(ids);
    return 0;
}

void clra_process_list_free(clra_process_list_t *list)
{
    if (!list)
        return;
    for (size_t i = 0; i < list->count; i++) {
        free(list->entries[i].command_line);
        free(list->entries[i].endpoint);
        clra_process_info_free(&list->entries[i].info);
    }
    free(list->entries);
    memset(list, 0, sizeof *list);
}
