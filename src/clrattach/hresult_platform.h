/* hresult_platform.h - clra_hresult_lookup is per platform (hresult_unix.c, hresult_win.c):
 * Windows says some codes its own way, looked up before hresult.c's shared table. */
#ifndef CLRA_HRESULT_PLATFORM_H
#define CLRA_HRESULT_PLATFORM_H

#include "clrattach.h"

/* hr's entry in the shared table (hresult.c), NULL when it has none. */
const clra_hresult_info_t *clra__hresult_table_lookup(int32_t hr);

#endif
