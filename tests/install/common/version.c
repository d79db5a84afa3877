/* version.c - a program using the installed libclrattach: prints the library's version (the
 * install test compares it with the project's) after checking it against the installed
 * header's macros. */
#include <clrattach.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    const char *v = clra_version_string();
    if (strcmp(v, CLRA_VERSION_STRING) != 0 || clra_version() != CLRA_VERSION_HEX) {
        fprintf(stderr, "library version %s (0x%x) but header version %s (0x%x)\n", v,
                clra_version(), CLRA_VERSION_STRING, (unsigned)CLRA_VERSION_HEX);
        return 1;
    }
    if (strcmp(clra_strerror(CLRA_ETIMEDOUT), "timed out") != 0) {
        fprintf(stderr, "clra_strerror(CLRA_ETIMEDOUT) = \"%s\"\n", clra_strerror(CLRA_ETIMEDOUT));
        return 1;
    }
    printf("%s\n", v);
    return 0;
}
