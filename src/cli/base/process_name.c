/* process_name.c - `--name NAME`: the .NET process a verb targets, found by name as
 * dotnet-trace's --name finds it, so people need not look the pid up with ps first. */
#define _GNU_SOURCE
#include "base/cli.h"
#include "base/option_table.h"

#include <string.h>
#include <strings.h>

#define PROBE_TIMEOUT_MS 1000

/* Whether the first len bytes of text are name (any case, as .NET compares process names). */
static int same(const char *text, size_t len, const char *name)
{
    return len == strlen(name) && strncasecmp(text, name, len) == 0;
}

/* The file name part of the word at w (which ends at a blank or the end of the text). */
static const char *word_base(const char *w, size_t *len)
{
    size_t n = strcspn(w, " ");
    const char *base = w;
    for (size_t i = 0; i < n; i++)
        if (w[i] == '/')
            base = w + i + 1;
    *len = n - (size_t)(base - w);
    return base;
}

/* A process answers to its program's file name (what .NET calls the process name), to its
 * entry assembly, and, when started as `dotnet app.dll`, to "app" too. */
static int answers_to(const clra_process_entry_t *e, const char *name)
{
    size_t len;
    const char *cl = e->command_line ? e->command_line : "";
    const char *prog = word_base(cl, &len);
    if (len && same(prog, len, name))
        return 1;
    if (e->info.entry_assembly && strcasecmp(e->info.entry_assembly, name) == 0)
        return 1;
    if (same(prog, len, "dotnet") && prog[len] == ' ') {
        const char *dll = word_base(prog + len + 1, &len);
        if (len > 4 && strncasecmp(dll + len - 4, ".dll", 4) == 0 && same(dll, len - 4, name))
            return 1;
    }
    return 0;
}

/* Says which processes matched, so the user can pick a pid. */
static void list_candidates(const clra_process_list_t *list, const char *name)
{
    for (size_t i = 0; i < list->count; i++)
        if (answers_to(&list->entries[i], name))
            fprintf(stderr, "  %d  %s\n", list->entries[i].pid,
                    cli_vis(list->entries[i].command_line));
}

int cli_pid_by_name(const char *name, long long timeout_ms, int *pid)
{
    clra_process_list_t list;
    clra_status_t st;
    if (!name[0]) {
        fprintf(stderr, "clrattach: --name needs a process name\n");
        return EXIT_USAGE;
    }
    int rc = clra_process_list((int)timeout_ms, PROBE_TIMEOUT_MS, &list, &st);
    if (rc) {
        fprintf(stderr, "clrattach: cannot list processes to find '%s': %s\n", cli_vis(name),
                clra_strerror(rc));
        return cli_exit_code(rc);
    }
    size_t found = 0;
    for (size_t i = 0; i < list.count; i++)
        if (answers_to(&list.entries[i], name)) {
            found++;
            *pid = list.entries[i].pid;
        }
    int code = EXIT_OK;
    if (found == 0) {
        fprintf(stderr, "clrattach: no .NET process named '%s' (see clrattach ps)\n",
                cli_vis(name));
        code = EXIT_NOPROC;
    } else if (found > 1) {
        fprintf(stderr, "clrattach: %zu .NET processes are named '%s'; give one's PID "
                "instead:\n", found, cli_vis(name));
        list_candidates(&list, name);
        code = EXIT_USAGE;
    }
    clra_process_list_free(&list);
    return code;
}

int cli_pid_of_options(const char *verb, struct cli_args *a)
{
    if (a->pid_opt && a->name_opt) {
        fprintf(stderr, "clrattach %s: give -p/--process-id or -n/--name, not both\n", verb);
        return -1;
    }
    if (a->pid_opt)
        return cli_parse_pid(a->pid_opt, &a->pid);
    int code = cli_pid_by_name(a->name_opt, a->timeout_ms, &a->pid);
    if (code == EXIT_OK)
        return 0;
    a->fail_exit = code;
    return -1;
}
