/* runtime_events_rundown.c - the layouts of Microsoft-Windows-DotNETRuntimeRundown's events:
 * the methods, modules, assemblies and app domains alive when a session ends (the DCEnd
 * events a profiler names stacks by) or starts, and the runtime's identity. The shared method
 * and module layouts are in runtime_events_loader.c. Facts from the runtime's manifest
 * (ClrEtwAll.man); the layout engine is runtime_events.c.
 */
#include "proto/runtime_events_loader.h"

#define M(f) f, (uint8_t)(sizeof(f) / sizeof((f)[0]))

static const clra__rt_field_t clr_instance[] = {RT_U16("ClrInstanceID")};
static const clra__rt_field_t runtime_info[] = {
    RT_U16("ClrInstanceID"), RT_U16("Sku"), RT_U16("BclMajorVersion"), RT_U16("BclMinorVersion"),
    RT_U16("BclBuildNumber"), RT_U16("BclQfeNumber"), RT_U16("VMMajorVersion"),
    RT_U16("VMMinorVersion"), RT_U16("VMBuildNumber"), RT_U16("VMQfeNumber"),
    RT_U32("StartupFlags"), RT_U8("StartupMode"), RT_STR("CommandLine"),
    RT_GUID("ComObjectGuid"), RT_STR("RuntimeDllPath")};

static const clra__rt_event_t events[] = {
    {141, 1, "MethodDCStart", M(clra__rt_method_v1)},
    {141, 2, "MethodDCStart", M(clra__rt_method_v2)},
    {142, 1, "MethodDCEnd", M(clra__rt_method_v1)},
    {142, 2, "MethodDCEnd", M(clra__rt_method_v2)},
    {143, 1, "MethodDCStartVerbose", M(clra__rt_method_verbose_v1)},
    {143, 2, "MethodDCStartVerbose", M(clra__rt_method_verbose_v2)},
    {144, 1, "MethodDCEndVerbose", M(clra__rt_method_verbose_v1)},
    {144, 2, "MethodDCEndVerbose", M(clra__rt_method_verbose_v2)},
    {145, 1, "DCStartComplete", RT_FIELDS(clr_instance)},
    {146, 1, "DCEndComplete", RT_FIELDS(clr_instance)},
    {147, 1, "DCStartInit", RT_FIELDS(clr_instance)},
    {148, 1, "DCEndInit", RT_FIELDS(clr_instance)},
    {149, 0, "MethodDCStartILToNativeMap", M(clra__rt_il_map)},
    {150, 0, "MethodDCEndILToNativeMap", M(clra__rt_il_map)},
    {151, 1, "DomainModuleDCStart", M(clra__rt_domain_module_v1)},
    {152, 1, "DomainModuleDCEnd", M(clra__rt_domain_module_v1)},
    {153, 1, "ModuleDCStart", M(clra__rt_module_v1)},
    {153, 2, "ModuleDCStart", M(clra__rt_module_v2)},
    {154, 1, "ModuleDCEnd", M(clra__rt_module_v1)},
    {154, 2, "ModuleDCEnd", M(clra__rt_module_v2)},
    {155, 1, "AssemblyDCStart", M(clra__rt_assembly_v1)},
    {156, 1, "AssemblyDCEnd", M(clra__rt_assembly_v1)},
    {157, 1, "AppDomainDCStart", M(clra__rt_app_domain_v1)},
    {158, 1, "AppDomainDCEnd", M(clra__rt_app_domain_v1)},
    {187, 0, "RuntimeInformationDCStart", RT_FIELDS(runtime_info)},
};

const clra__rt_table_t clra__rt_rundown = {"Microsoft-Windows-DotNETRuntimeRundown", events,
                                           sizeof events / sizeof events[0]};
