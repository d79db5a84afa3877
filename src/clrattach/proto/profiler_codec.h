/* profiler_codec.h - requests of the Profiler command set (internal, unit-tested). */
#ifndef CLRA_PROTO_PROFILER_CODEC_H
#define CLRA_PROTO_PROFILER_CODEC_H

#include "proto/message.h"

/* The whole AttachProfiler (0x0301) request. */
int clra__build_attach_profiler(clra__writer_t *w, uint32_t attach_timeout_ms,
                                const clra_guid_t *clsid, const char *profiler_path,
                                const void *client_data, size_t client_data_len);
/* The whole StartupProfiler (0x0302) request. */
int clra__build_startup_profiler(clra__writer_t *w, const clra_guid_t *clsid, const char *path);

#endif
