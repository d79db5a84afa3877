/* hresult_unix.c - hresult_platform.h on Unix: the shared table says it all. */
#include "hresult_platform.h"

#include <stddef.h>

/* dlopen's failures already have the shared table's sentences. */
const clra_hresult_info_t *clra__hresult_platform_lookup(int32_t hr)
{
    (void)hr;
    return NULL;
}
