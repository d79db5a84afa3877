/* option_table.c - the options every verb shares (--json, --timeout, --help): one table that
 * the parser and the help generator both read. */
#include "base/option_table.h"

const cli_opt_t cli_common_opts[] = {
    {.name = "json", .kind = CLI_OPT_FLAG, .arg = CLI_ARG_NONE, .common = CLI_COMMON_JSON,
     .offset = offsetof(cli_args_t, json)},
    {.name = "timeout", .kind = CLI_OPT_INT, .arg = CLI_ARG_REQUIRED, .common = CLI_COMMON_TIMEOUT,
     .offset = offsetof(cli_args_t, timeout_ms), .placeholder = "MS", .min = 1,
     .max = CLI_TIMEOUT_MAX_MS},
    {.name = "process-id", .letter = 'p', .kind = CLI_OPT_STRING, .arg = CLI_ARG_REQUIRED,
     .common = CLI_COMMON_PID, .offset = offsetof(cli_args_t, pid_opt), .placeholder = "PID",
     .help = "PID as the dotnet tools spell it"},
#ifndef CLRA_NO_PROCESS_NAME /* the static container command leaves the name lookup out */
    {.name = "name", .letter = 'n', .kind = CLI_OPT_STRING, .arg = CLI_ARG_REQUIRED,
     .common = CLI_COMMON_PID, .offset = offsetof(cli_args_t, name_opt), .placeholder = "NAME",
     .help = "the process whose program, entry assembly or app.dll is NAME, instead of PID"},
#endif
    {.name = "help", .letter = 'h', .kind = CLI_OPT_HELP, .arg = CLI_ARG_NONE,
     .help = "show this help"},
    CLI_END,
};

/* The shared table holds options not every verb takes (launch has no --json); a verb whose
 * first positional is a PID takes the dotnet tools' spellings of it too. */
int cli_common_taken(const cli_verb_t *v, const cli_opt_t *o)
{
    unsigned common = v->common | (v->pid ? CLI_COMMON_PID : 0u);
    return o->common == 0 || (common & o->common) != 0;
}
