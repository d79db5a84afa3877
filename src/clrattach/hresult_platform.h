/* hresult_platform.h - the HRESULT sentences one platform says its own way (hresult_unix.c,
 * hresult_win.c), looked up before hresult.c's shared table. */
#ifndef CLRA_HRESULT_PLATFORM_H
#define CLRA_HRESULT_PLATFORM_H

#include "clrattach.h"

/* The platform's entry for hr, or NULL to use the shared table. */
const clra_hresult_info_t *clra__hresult_platform_lookup(int32_t hr);

#endif
