/* option_table.h - what a verb's options are: each verb declares its options in a static table;
 * --json, --timeout and --help come from one shared table (option_table.c). The parser
 * (options.h) and the help generator (usage.h) both read the tables and neither needs the
 * other's header, so their files include each other in one direction only. */
#ifndef CLRA_CLI_OPTION_TABLE_H
#define CLRA_CLI_OPTION_TABLE_H

#include <stddef.h>
#include <stdio.h>

/* What an option's argument is and where it goes (at offset in the verb's options struct). */
typedef enum cli_opt_kind {
    CLI_OPT_END = 0, /* ends a table */
    CLI_OPT_FLAG,    /* no argument; int = 1 */
    CLI_OPT_STRING,  /* const char * = the argument */
    CLI_OPT_INT,     /* long long in [min, max] */
    CLI_OPT_GUID,    /* clra_guid_t */
    CLI_OPT_CALL,    /* call(dest, arg): arg is NULL for flags and an absent optional value */
    CLI_OPT_HELP,    /* prints the verb's help */
} cli_opt_kind_t;

/* Whether a CLI_OPT_CALL option takes an argument. */
enum { CLI_ARG_NONE, CLI_ARG_REQUIRED, CLI_ARG_OPTIONAL };

typedef struct cli_opt {
    const char *name;        /* long name, without "--" */
    char letter;             /* short name, 0 for none */
    unsigned char kind;      /* cli_opt_kind_t */
    unsigned char arg;       /* CLI_ARG_*, for CLI_OPT_CALL */
    unsigned char common;    /* shared table: the CLI_COMMON_* bit a verb needs, 0 = always */
    unsigned char required;  /* shown without brackets in the synopsis (the verb checks it) */
    size_t offset;           /* the destination inside the options struct */
    const char *placeholder; /* "MS" in "--timeout MS"; NULL for flags */
    const char *help;        /* wrapped by usage.c; a '\n' in it counts as a space */
    long long min, max;      /* CLI_OPT_INT */
    int (*call)(void *dest, const char *arg); /* CLI_OPT_CALL: 0, or -1 after saying why */
} cli_opt_t;

#define CLI_FLAG(name, type, field, help) \
    {name, 0, CLI_OPT_FLAG, CLI_ARG_NONE, 0, 0, offsetof(type, field), NULL, help, 0, 0, NULL}
#define CLI_STRING(name, type, field, ph, help) \
    {name, 0, CLI_OPT_STRING, CLI_ARG_REQUIRED, 0, 0, offsetof(type, field), ph, help, 0, 0, NULL}
#define CLI_INT(name, type, field, ph, lo, hi, help) \
    {name, 0, CLI_OPT_INT, CLI_ARG_REQUIRED, 0, 0, offsetof(type, field), ph, help, lo, hi, NULL}
/* --duration S (long long seconds) as S or [dd:]hh:mm:ss, at most a day or a year: a call
 * rather than a kind, so a command without such an option links no duration parser. */
#define CLI_DURATION_DAY(name, type, field, help) \
    CLI_CALL(name, CLI_ARG_REQUIRED, type, field, "S", cli_take_duration_day, help)
#define CLI_DURATION_YEAR(name, type, field, help) \
    CLI_CALL(name, CLI_ARG_REQUIRED, type, field, "S", cli_take_duration_year, help)
int cli_take_duration_day(void *dest, const char *arg);
int cli_take_duration_year(void *dest, const char *arg);
/* --output, which the dotnet tools also spell -o. */
#define CLI_OUTPUT(type, field, ph, help) \
    {"output", 'o', CLI_OPT_STRING, CLI_ARG_REQUIRED, 0, 0, offsetof(type, field), ph, help, 0, 0, \
     NULL}
#define CLI_GUID(name, type, field, help) \
    {name, 0, CLI_OPT_GUID, CLI_ARG_REQUIRED, 0, 0, offsetof(type, field), "GUID", help, 0, 0, NULL}
#define CLI_CALL(name, arg, type, field, ph, fn, help) \
    {name, 0, CLI_OPT_CALL, arg, 0, 0, offsetof(type, field), ph, help, 0, 0, fn}
#define CLI_END {NULL, 0, CLI_OPT_END, 0, 0, 0, 0, NULL, NULL, 0, 0, NULL}

/* The shared options a verb takes besides --help. */
enum { CLI_COMMON_JSON = 1, CLI_COMMON_TIMEOUT = 2,
       /* -p/--process-id and -n/--name, the dotnet tools' spellings of the target: taken by
        * every verb whose first positional is a PID, and by verbs that ask for it (trace) */
       CLI_COMMON_PID = 4 };

/* The struct of type whose member field is at ptr: for actions that need more than their field. */
#define CLI_CONTAINER(ptr, type, field) ((type *)(void *)((char *)(ptr) - offsetof(type, field)))

/* A number macro as text, for help strings. */
#define CLI_STR_(x) #x
#define CLI_STR(x) CLI_STR_(x)

/* The deadline every --timeout accepts, in milliseconds. */
#define CLI_TIMEOUT_MAX_MS 86400000

typedef struct cli_verb {
    const char *name;        /* "attach" */
    const char *synopsis;    /* what follows the options in the usage line: "PID PROFILER_PATH" */
    const char *synopsis2;   /* a second usage line's tail, or NULL */
    const char *description; /* paragraphs after the usage line, wrapped, ending in '\n' */
    const char *epilogue;    /* after the options (examples, exit codes), or NULL */
    const cli_opt_t *opts;   /* the verb's own options, ended by CLI_END; NULL for none */
    unsigned common;         /* CLI_COMMON_* */
    const char *json_help;   /* --json's help; NULL for the usual text */
    const char *timeout_help; /* --timeout's help, without the default */
    long long default_timeout_ms;
    int pid;                 /* the first positional is a PID */
    int min_args, max_args;  /* positionals after the PID (all of them without one); -1 = any */
    int stop_at_arg;         /* the first positional ends the options (launch's COMMAND) */
    const char *args_error;  /* "expected PID and PROFILER_PATH", for a wrong count */
} cli_verb_t;

/* What the shared options and the positionals said. */
typedef struct cli_args {
    int json;
    long long timeout_ms;
    int pid;
    const char *pid_opt;  /* -p/--process-id's text, or NULL */
    const char *name_opt; /* -n/--name's text, or NULL */
    int fail_exit;        /* the exit code when cli_parse returned -1 (EXIT_USAGE unless the
                           * process named by --name was not found) */
    char **args; /* the positionals after the PID (all of them without one), in order */
    int nargs;
} cli_args_t;

/* The shared table (for the help generator): --json, --timeout, --help. */
extern const cli_opt_t cli_common_opts[];

/* Whether the verb takes shared option o. */
int cli_common_taken(const cli_verb_t *v, const cli_opt_t *o);

#endif
