/* version.c - the version the library was built as; the macros come from CMake's project()
 * through the generated clrattach_version.h, so a caller can compare its header with the
 * library it loaded. */
#include "clrattach.h"

unsigned clra_version(void)
{
    return CLRA_VERSION_HEX;
}

#define CLRA__STR2(x) #x
#define CLRA__STR(x) CLRA__STR2(x)
const char *clra_version_string(void)
{
    return CLRA__STR(CLRA_VERSION_MAJOR) "." CLRA__STR(CLRA_VERSION_MINOR) "." CLRA__STR(
        CLRA_VERSION_PATCH);
}
