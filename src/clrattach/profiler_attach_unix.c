/* profiler_attach_unix.c - clra_profiler_attach on Unix (profiler_attach_platform.h): every
 * runtime has an endpoint. */
#include "profiler_attach_platform.h"

/* Unix has no .NET Framework: every attach goes through the runtime's socket. */
int clra_profiler_attach(const clra_target_t *target, const clra_guid_t *clsid,
                         const char *profiler_path, const void *client_data,
                         size_t client_data_len, uint32_t attach_timeout_ms, unsigned flags,
                         int timeout_ms, clra_status_t *st)
{
    return clra__attach_through_endpoint(target, clsid, profiler_path, client_data,
                                         client_data_len, attach_timeout_ms, flags, timeout_ms,
                                         st);
}
