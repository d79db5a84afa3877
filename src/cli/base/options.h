/* options.h - one table-driven option parser for every verb (options.c): long options with
 * unambiguous prefixes, short letters, "--" to end them; --help prints the generated help. */
#ifndef CLRA_CLI_OPTIONS_H
#define CLRA_CLI_OPTIONS_H

#include "base/option_table.h"

/* Parses argv[1..argc) (argv[0] is the verb) into opts and a; options and positionals mix
 * unless stop_at_arg, "--" ends the options, unambiguous prefixes of long names are accepted.
 * Reorders argv. 0 parsed, 1 help printed to stdout, -1 after saying why on stderr (exit with
 * a->fail_exit then: EXIT_USAGE, or the code of a -n/--name that found no process). */
int cli_parse(const cli_verb_t *v, int argc, char **argv, void *opts, cli_args_t *a);

#endif
