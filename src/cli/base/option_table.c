/* option_table.c - the options every verb shares (--json, --timeout, --help): one table that
 * the parser and the help generator both read. */
#include "base/option_table.h"

const cli_opt_t cli_common_opts[] = {
    {.name = "json", .kind = CLI_OPT_FLAG, .arg = CLI_ARG_NONE, .common = CLI_COMMON_JSON,
     .offset = offsetof(cli_args_t, json)},
    {.name = "timeout", .kind = CLI_OPT_INT, .arg = CLI_ARG_REQUIRED, .common = CLI_COMMON_TIMEOUT,
     .offset = offsetof(cli_args_t, timeout_ms), .placeholder = "MS", .min = 1,
     .max = CLI_TIMEOUT_MAX_MS},
    {.name = "help", .letter = 'h', .kind = CLI_OPT_HELP, .arg = CLI_ARG_NONE,
     .help = "show this help"},
    CLI_END,
};

/* The shared table holds options not every verb takes (launch has no --json). */
int cli_common_taken(const cli_verb_t *v, const cli_opt_t *o)
{
    return o->common == 0 || (v->common & o->common) != 0;
}
