/* profiler_attach_platform.h - the attach that needs no diagnostics endpoint
 * (profiler_attach_unix.c, profiler_attach_win.c): a .NET Framework 4 process on Windows has
 * no diagnostics pipe and is attached through mscoree's ICLRProfiling (docs/windows.md). */
#ifndef CLRA_PROFILER_ATTACH_PLATFORM_H
#define CLRA_PROFILER_ATTACH_PLATFORM_H

#include "clrattach.h"
#include "util/deadline.h"

#include <stddef.h>
#include <stdint.h>

/* Whether target is attached without its endpoint (never on Unix). */
int clra__attach_bypasses_endpoint(const clra_target_t *target);

/* That attach, the arguments already checked; 0 or a CLRA_E* code with st's detail. */
int clra__attach_bypass(const clra_target_t *target, const clra_guid_t *clsid,
                        const char *profiler_path, const void *client_data,
                        size_t client_data_len, uint32_t attach_timeout_ms,
                        const clra__deadline_t *d, clra_status_t *st);

#endif
