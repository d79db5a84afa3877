/* fake_target.c - the process clrattach attaches to in the .NET Framework tests: it loads the
 * DLL named by its argument (clr.dll, the fake; "-" loads none), prints its pid and waits until
 * its stdin ends. */
#include <stdio.h>
#include <string.h>
#include <windows.h>

/* Loads, says ready, waits: the test reads the pid from "ready pid=N". */
int main(int argc, char **argv)
{
    const char *dll = argc > 1 ? argv[1] : "clr.dll";
    if (strcmp(dll, "-") != 0 && !LoadLibraryA(dll)) {
        fprintf(stderr, "fake_target: cannot load %s (Windows error %lu)\n", dll,
                (unsigned long)GetLastError());
        return 1;
    }
    printf("ready pid=%lu\n", (unsigned long)GetCurrentProcessId());
    fflush(stdout);
    while (fgetc(stdin) != EOF)
        ;
    return 0;
}
