/* profiler_attach_win.c - clra_profiler_attach on Windows (profiler_attach_platform.h): a .NET
 * Framework 4 process (clr.dll, no coreclr.dll) has no diagnostics pipe and is attached through
 * mscoree's ICLRProfiling instead (docs/windows.md); any other through its pipe. */
#include "framework/framework_win.h"
#include "profiler_attach_platform.h"
#include "target/process_win.h"

/* Only a pid target can be a .NET Framework process: a socket path or a connection names a
 * pipe, a .NET (Core) runtime's. */
int clra_profiler_attach(const clra_target_t *target, const clra_guid_t *clsid,
                         const char *profiler_path, const void *client_data,
                         size_t client_data_len, uint32_t attach_timeout_ms, unsigned flags,
                         int timeout_ms, clra_status_t *st)
{
    clra_status_t local;
    st = clra__status_begin(st, &local);
    clra__deadline_t d = clra__deadline_in(timeout_ms);
    if (!target || target->pid <= 0 || target->socket_path || target->connection ||
        clra__win_process_runtimes(target->pid) != CLRA__WIN_CLR)
        return clra__attach_through_endpoint(target, clsid, profiler_path, client_data,
                                             client_data_len, attach_timeout_ms, flags,
                                             clra__deadline_left_ms(&d), st);
    int rc = clra__check_attach_args(clsid, profiler_path, client_data, client_data_len, flags,
                                     st);
    return rc ? rc : clra__framework_attach(target->pid, clsid, profiler_path, client_data,
                                            client_data_len, attach_timeout_ms, &d, st);
}
