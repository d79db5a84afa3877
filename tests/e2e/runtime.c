/* runtime.c - the runtime the end-to-end tests' app runs on (see runtime.h). */
#include "runtime.h"
#include "test.h"

#include <stdlib.h>

#ifndef CLRA_SYSTEM_RUNTIME_VERSION
#define CLRA_SYSTEM_RUNTIME_VERSION "0.0.0"
#endif

/* CLRA_RUNTIME_VERSION when the matrix set it with a root, else NULL (the system runtime). */
static const char *chosen_version(void)
{
    const char *v = getenv("CLRA_RUNTIME_VERSION");
    const char *root = getenv("CLRA_RUNTIME_ROOT");
    return v && *v && root && *root ? v : NULL;
}

const char *e2e_dotnet(void)
{
    static char path[512];
    if (!chosen_version())
        return CLRA_DOTNET;
    snprintf(path, sizeof path, "%s/dotnet", getenv("CLRA_RUNTIME_ROOT"));
    return path;
}

const char *e2e_runtime_version(void)
{
    return chosen_version() ? chosen_version() : CLRA_SYSTEM_RUNTIME_VERSION;
}

const char *const *e2e_app_argv(void)
{
    static const char *argv[8];
    int n = 0;
    argv[n++] = e2e_dotnet();
    if (chosen_version()) {
        argv[n++] = "exec";
        argv[n++] = "--fx-version";
        argv[n++] = chosen_version();
    }
    argv[n++] = CLRA_SAMPLE_DLL;
    argv[n++] = "--seconds";
    argv[n++] = "300";
    argv[n] = NULL;
    return argv;
}

const char *e2e_app_command_line(void)
{
    static char line[1024];
    size_t used = 0;
    line[0] = '\0';
    for (const char *const *a = e2e_app_argv(); *a && used < sizeof line; a++)
        used += (size_t)snprintf(line + used, sizeof line - used, "%s%s", used ? " " : "", *a);
    return line;
}

const char *e2e_runtime_args(void)
{
    static char args[128];
    if (!chosen_version())
        return "";
    snprintf(args, sizeof args, "exec --fx-version %s", chosen_version());
    return args;
}

int e2e_runtime_at_least(int major, int minor)
{
    int have_major = 0, have_minor = 0;
    if (sscanf(e2e_runtime_version(), "%d.%d", &have_major, &have_minor) != 2)
        return 0;
    return have_major > major || (have_major == major && have_minor >= minor);
}

void e2e_require_runtime(int major, int minor, const char *what)
{
    if (!e2e_runtime_at_least(major, minor))
        SKIP("%s needs .NET %d.%d or newer; this runtime is %s", what, major, minor,
             e2e_runtime_version());
}
