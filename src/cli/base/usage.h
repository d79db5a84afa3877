/* usage.h - every verb's --help, generated from its option tables (usage.c). */
#ifndef CLRA_CLI_USAGE_H
#define CLRA_CLI_USAGE_H

#include "base/option_table.h"

#include <stdio.h>

/* Writes the verb's help, generated from its tables. */
void cli_usage(const cli_verb_t *v, FILE *f);

#endif
