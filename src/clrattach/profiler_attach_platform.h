/* profiler_attach_platform.h - the attach that needs no diagnostics endpoint
 * (profiler_attach_unix.c, profiler_attach_win.c): a .NET Framework 4 process on Windows has
 * no diagnostics pipe and is attached through mscoree's ICLRProfiling (docs/windows.md). */
#ifndef CLRA_PROFILER_ATTACH_PLATFORM_H
#define CLRA_PROFILER_ATTACH_PLATFORM_H

#include "clrattach.h"
#include "util/status.h"

#include <stddef.h>
#include <stdint.h>

/* clra_profiler_attach itself is per platform: on Unix it is this; on Windows a .NET Framework
 * process is attached without an endpoint first. */
int clra__attach_through_endpoint(const clra_target_t *target, const clra_guid_t *clsid,
                                  const char *profiler_path, const void *client_data,
                                  size_t client_data_len, uint32_t attach_timeout_ms,
                                  unsigned flags, int timeout_ms, clra_status_t *st);

/* Every flag clra_profiler_attach knows (none yet): the rest are refused, not ignored. */
#define ALL_ATTACH_FLAGS 0u

/* clra_profiler_attach's argument checks, the bypass's too: they need no process, so a bad
 * call sends nothing and finds nothing. */
static inline int clra__check_attach_args(const clra_guid_t *clsid, const char *profiler_path,
                                          const void *client_data, size_t client_data_len,
                                          unsigned flags, clra_status_t *st)
{
    if (!clsid || !profiler_path || !profiler_path[0] || (!client_data && client_data_len)) {
        clra__detail(st, "a target, a CLSID and a non-empty profiler path are required");
        return CLRA_EINVAL;
    }
    if (flags & ~ALL_ATTACH_FLAGS) {
        clra__detail(st, "attach flags 0x%X unknown (this version knows none)", flags);
        return CLRA_EINVAL;
    }
    return 0;
}

#endif
