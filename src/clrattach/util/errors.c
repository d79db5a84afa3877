/* errors.c - error names and messages for the CLRA_E* codes. */
#include "clrattach.h"

#include <stdio.h>
#include <string.h>

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
