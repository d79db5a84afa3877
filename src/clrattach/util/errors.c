/* errors.c - error names and messages, and the version. */
#include "clrattach.h"

#include <stdio.h>
#include <string.h>

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

const char *clra_strerror(int err)
{
    switch (err) {
    case 0:
        return "success";
#define CLRA__ERRNO_MSG(name, value, msg) \
    case CLRA_##name:                     \
        return msg;
        CLRA_ERRNO_MAP(CLRA__ERRNO_MSG)
#undef CLRA__ERRNO_MSG
    default:
        return "unknown error";
    }
}

const char *clra_err_name(int err)
{
    switch (err) {
    case 0:
        return "CLRA_OK";
#define CLRA__ERRNO_NAME(name, value, msg) \
    case CLRA_##name:                      \
        return "CLRA_" #name;
        CLRA_ERRNO_MAP(CLRA__ERRNO_NAME)
#undef CLRA__ERRNO_NAME
    default:
        return "CLRA_EUNKNOWN";
    }
}
