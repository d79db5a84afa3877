/* output.c - exit-code mapping, JSON writing and number parsing shared by every verb. */
#include "base/cli.h"
#include "base/json_escape.h"
#include "base/platform.h"

#include <unistd.h>

#include <errno.h>
#include <stdlib.h>

int cli_exit_code(int err)
{
    switch (err) {
    case 0:
        return EXIT_OK;
    case CLRA_EINVAL:
    case CLRA_EENCODING:
    case CLRA_ETOOBIG:
        return EXIT_USAGE;
    case CLRA_ENOPROC:
        return EXIT_NOPROC;
    case CLRA_ENOTDOTNET:
        return EXIT_NOTDOTNET;
    case CLRA_ENOENDPOINT:
        return EXIT_NOENDPOINT;
    case CLRA_EACCES:
    case CLRA_EUNSAFE:
        return EXIT_ACCESS;
    case CLRA_ETIMEDOUT:
        return EXIT_TIMEOUT;
    case CLRA_ECONNREFUSED:
    case CLRA_ECONNLOST:
    case CLRA_EPROTO:
        return EXIT_CONNECTION;
    case CLRA_ERUNTIME:
        return EXIT_REFUSED;
    default:
        return EXIT_INTERNAL;
    }
}

void json_begin(json_out_t *j, FILE *f)
{
    j->f = f;
    j->depth = 0;
    j->fields[0] = 0;
    fputc('{', f);
}

/* Writes text as a JSON string: keys too may come from the target (env's variable names). */
static void json_write_string(FILE *f, const char *text)
{
    fputc('"', f);
    cli_json_escape(f, text, CLI_JSON_NEWLINE_SHORT);
    fputc('"', f);
}

/* Writes the separator and, inside objects, the member name (key is NULL in arrays). */
static void json_key(json_out_t *j, const char *key)
{
    if (j->fields[j->depth]++)
        fputc(',', j->f);
    if (key) {
        json_write_string(j->f, key);
        fputc(':', j->f);
    }
}

/* Opens a nested value; deeper than the stack allows is a programming error, so it aborts. */
static void json_open(json_out_t *j, const char *key, char opener, char closer)
{
    if (j->depth + 1 >= (int)(sizeof j->fields / sizeof j->fields[0]))
        abort();
    json_key(j, key);
    fputc(opener, j->f);
    j->closers[++j->depth] = closer;
    j->fields[j->depth] = 0;
}

void json_object(json_out_t *j, const char *key)
{
    json_open(j, key, '{', '}');
}

void json_array(json_out_t *j, const char *key)
{
    json_open(j, key, '[', ']');
}

void json_close(json_out_t *j)
{
    if (j->depth > 0)
        fputc(j->closers[j->depth--], j->f);
}

/* Escapes per RFC 8259; bytes >= 0x80 pass through because our strings are UTF-8. */
void json_str(json_out_t *j, const char *key, const char *value)
{
    json_key(j, key);
    if (!value) {
        fputs("null", j->f);
        return;
    }
    json_write_string(j->f, value);
}

void json_int(json_out_t *j, const char *key, long long value)
{
    json_key(j, key);
    fprintf(j->f, "%lld", value);
}

void json_bool(json_out_t *j, const char *key, int value)
{
    json_key(j, key);
    fputs(value ? "true" : "false", j->f);
}

void json_double(json_out_t *j, const char *key, double value)
{
    json_key(j, key);
    fprintf(j->f, "%.3f", value);
}

void json_end(json_out_t *j)
{
    while (j->depth > 0)
        json_close(j);
    fputs("}\n", j->f);
    fflush(j->f);
}

int cli_parse_int(const char *what, const char *text, long long min, long long max,
                  long long *out)
{
    char *end;
    errno = 0;
    /* strtoll would take " 1" and "+1" too; a number here is written as one. */
    const char *digits = text[0] == '-' && min < 0 ? text + 1 : text;
    long long v = strtoll(text, &end, 10);
    if (errno || !(*digits >= '0' && *digits <= '9') || *end || v < min || v > max) {
        fprintf(stderr, "clrattach: %s must be a whole number from %lld to %lld, not '%s'\n", what,
                min, max, text);
        return -1;
    }
    *out = v;
    return 0;
}

/* Root refused is not helped by "run as root" (issue 17): name what refuses root. */
const char *cli_access_hint(unsigned euid)
{
    if (euid == 0)
        return "even root was refused: the process may belong to another user namespace or be "
               "non-dumpable, or a security module (Yama ptrace_scope, SELinux, AppArmor) denies "
               "it; the detail names what was refused";
    return "run as the user that owns the process, or as root";
}

/* What to do about a local failure, by code. */
const char *cli_local_hint(int err)
{
    switch (err) {
    case CLRA_ENOPROC:
        return "check the pid (ps, pgrep); inside a container use the pid as this shell sees it";
    case CLRA_ENOTDOTNET:
        return "pick the pid of the dotnet process itself, not a wrapper or shell";
    case CLRA_ENOENDPOINT:
        return cli_platform_no_endpoint_hint;
    case CLRA_EACCES:
        return cli_access_hint(cli_platform_euid());
    case CLRA_EUNSAFE:
        return "find out who made the file the detail names and remove it; clrattach will not "
               "talk to a socket it cannot trust to be the target's";
    case CLRA_ETIMEDOUT:
        return "raise --timeout, and check that the process is not stopped or busy (its "
               "diagnostics server answers one request at a time)";
    case CLRA_ECONNREFUSED:
        return "the socket file is stale: the process that made it exited or stopped listening";
    case CLRA_ECONNLOST:
        return "the target closed the connection; check whether it is still running";
    case CLRA_ETOOBIG:
        return "use less client data (the whole message must fit in 65535 bytes)";
    case CLRA_EPROTO:
        return "the socket's owner is not a .NET diagnostics server, or speaks a protocol this "
               "version does not know; check the path in the detail and the runtime's version";
    case CLRA_EENCODING:
        return "pass the profiler path as UTF-8";
    case CLRA_ENOMEM:
        return "free some memory and retry";
    case CLRA_EINVAL:
        return "check the arguments against 'clrattach attach --help'";
    default:
        return "retry; if it persists, report it with the detail line";
    }
}

void cli_clsid_lower(const clra_guid_t *g, char out[37])
{
    clra_guid_format(g, out);
    for (char *p = out; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'F' ? *p - 'A' + 'a' : *p);
}

/* Beside cli_parse_int, so the option parser needs nothing else from the CLI. */
int cli_parse_pid(const char *text, int *pid)
{
    long long v;
    if (cli_parse_int("PID", text, 1, 0x7fffffff, &v) != 0)
        return -1;
    *pid = (int)v;
    return 0;
}
