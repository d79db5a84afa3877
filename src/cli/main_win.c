/* main_win.c - the command's Windows entry point: mingw's C runtime hands main its arguments in
 * the ANSI code page, which loses every character outside it (a profiler path with a "✓" became
 * "?" and was refused), so the command starts at wmain (linked with -municode) and gives main
 * the UTF-8 the rest of the command expects, as on Linux. */
#include <stdlib.h>
#include <windows.h>

int main(int argc, char **argv);

/* UTF-16 arguments to UTF-8, then the portable main. */
int wmain(int argc, wchar_t **wargv)
{
    char **argv = calloc((size_t)argc + 1, sizeof *argv);
    for (int i = 0; argv && i < argc; i++) {
        int n = WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, NULL, 0, NULL, NULL);
        argv[i] = n > 0 ? malloc((size_t)n) : NULL;
        if (!argv[i] || WideCharToMultiByte(CP_UTF8, 0, wargv[i], -1, argv[i], n, NULL, NULL) <= 0)
            return 1;
    }
    return argv ? main(argc, argv) : 1;
}
