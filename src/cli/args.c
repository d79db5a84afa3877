/* args.c - option parsing that lets positionals and options mix, so both
 * `clrattach dump --type heap PID` and `clrattach dump PID --type heap` work. */
#define _GNU_SOURCE
#include "cli.h"

#include <getopt.h>
#include <string.h>

/* getopt_long with "+" stops at the first positional; this stores it and carries on, until
 * "--" (after which everything is positional) or the end. */
int cli_getopt(int argc, char **argv, const struct option *longs, char **pos, int max, int *npos)
{
    for (;;) {
        int c = getopt_long(argc, argv, "+", longs, NULL);
        if (c != -1)
            return c;
        int rest = optind > 1 && strcmp(argv[optind - 1], "--") == 0;
        if (optind >= argc)
            return -1;
        do {
            if (*npos < max)
                pos[*npos] = argv[optind];
            (*npos)++;
            optind++;
        } while (rest && optind < argc);
    }
}
