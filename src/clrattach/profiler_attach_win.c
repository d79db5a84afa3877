/* profiler_attach_win.c - profiler_attach_platform.h on Windows: a .NET Framework 4 process
 * (clr.dll, no coreclr.dll) is attached through mscoree's ICLRProfiling (docs/windows.md). */
#include "framework/framework_win.h"
#include "profiler_attach_platform.h"
#include "target/process_win.h"

/* Only a pid target: a socket path or a connection names a pipe, a .NET (Core) runtime. */
int clra__attach_bypasses_endpoint(const clra_target_t *target)
{
    return target && target->pid > 0 && !target->socket_path && !target->connection &&
           clra__win_process_runtimes(target->pid) == CLRA__WIN_CLR;
}

int clra__attach_bypass(const clra_target_t *target, const clra_guid_t *clsid,
                        const char *profiler_path, const void *client_data,
                        size_t client_data_len, uint32_t attach_timeout_ms,
                        const clra__deadline_t *d, clra_status_t *st)
{
    return clra__framework_attach(target->pid, clsid, profiler_path, client_data,
                                  client_data_len, attach_timeout_ms, d, st);
}
