/* runtime_events_loader.h - the method, module, assembly and app domain layouts that the
 * runtime's loader events and Rundown's enumeration events share (internal). */
#ifndef CLRA_PROTO_RUNTIME_EVENTS_LOADER_H
#define CLRA_PROTO_RUNTIME_EVENTS_LOADER_H

#include "proto/runtime_events.h"

extern const clra__rt_field_t clra__rt_method_v1[7], clra__rt_method_v2[8],
    clra__rt_method_verbose_v1[10], clra__rt_method_verbose_v2[11], clra__rt_il_map[7],
    clra__rt_module_v1[7], clra__rt_module_v2[13], clra__rt_domain_module_v1[8],
    clra__rt_assembly_v1[6], clra__rt_app_domain_v1[5];

#endif
