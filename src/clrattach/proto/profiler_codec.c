/* profiler_codec.c - the Profiler command set's requests: AttachProfiler and StartupProfiler
 * (docs/protocol.md 3.3). */
#include "proto/profiler_codec.h"

/* Client data must be exactly clientDataLen bytes with nothing after it: older runtimes
 * reject extra bytes, newer ones reject missing bytes (docs/protocol.md 3.3). */
int clra__build_attach_profiler(clra__writer_t *w, uint32_t attach_timeout_ms,
                                const clra_guid_t *clsid, const char *profiler_path,
                                const void *client_data, size_t client_data_len)
{
    clra__begin_message(w, CLRA__SET_PROFILER, CLRA__PROFILER_ATTACH);
    clra__put_u32(w, attach_timeout_ms);
    clra__put_guid(w, clsid);
    clra__put_string(w, profiler_path);
    clra__put_blob(w, client_data, client_data_len);
    return clra__end_message(w);
}

/* StartupProfiler (0x0302): CLSID, then the path; no client data field exists. */
int clra__build_startup_profiler(clra__writer_t *w, const clra_guid_t *clsid, const char *path)
{
    clra__begin_message(w, CLRA__SET_PROFILER, CLRA__PROFILER_STARTUP);
    clra__put_guid(w, clsid);
    clra__put_string(w, path);
    return clra__end_message(w);
}
