/* profiler_attach_unix.c - profiler_attach_platform.h on Unix: every runtime has an endpoint. */
#include "profiler_attach_platform.h"

/* Unix has no .NET Framework: every attach goes through the runtime's socket. */
int clra__attach_bypasses_endpoint(const clra_target_t *target)
{
    (void)target;
    return 0;
}

int clra__attach_bypass(const clra_target_t *target, const clra_guid_t *clsid,
                        const char *profiler_path, const void *client_data,
                        size_t client_data_len, uint32_t attach_timeout_ms,
                        const clra__deadline_t *d, clra_status_t *st)
{
    (void)target, (void)clsid, (void)profiler_path, (void)client_data;
    (void)client_data_len, (void)attach_timeout_ms, (void)d, (void)st;
    return CLRA_EINVAL; /* never asked: clra__attach_bypasses_endpoint says 0 */
}
