/* hresult_unix.c - clra_hresult_lookup on Unix (hresult_platform.h): the shared table says it
 * all. */
#include "hresult_platform.h"

/* dlopen's failures already have the shared table's sentences. */
const clra_hresult_info_t *clra_hresult_lookup(int32_t hr)
{
    return clra__hresult_table_lookup(hr);
}
