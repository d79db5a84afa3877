/* runtime_events_loader.c - the layouts of the runtime's code and type events: methods
 * jitted, loaded and unloaded (JitKeyword, LoaderKeyword), their IL-to-native maps, modules,
 * assemblies and app domains (LoaderKeyword), and type loads (TypeDiagnosticKeyword). The
 * method and module layouts are shared with Rundown's (runtime_events_rundown.c). Facts from
 * the runtime's manifest (ClrEtwAll.man); the layout engine is runtime_events.c.
 */
#include "proto/runtime_events_loader.h"

#define P "Microsoft-Windows-DotNETRuntime"

const clra__rt_field_t clra__rt_method_v1[7] = {
    RT_U64("MethodID"), RT_U64("ModuleID"), RT_U64("MethodStartAddress"), RT_U32("MethodSize"),
    RT_U32("MethodToken"), RT_U32("MethodFlags"), RT_U16("ClrInstanceID")};
const clra__rt_field_t clra__rt_method_v2[8] = {
    RT_U64("MethodID"), RT_U64("ModuleID"), RT_U64("MethodStartAddress"), RT_U32("MethodSize"),
    RT_U32("MethodToken"), RT_U32("MethodFlags"), RT_U16("ClrInstanceID"), RT_U64("ReJITID")};
const clra__rt_field_t clra__rt_method_verbose_v1[10] = {
    RT_U64("MethodID"), RT_U64("ModuleID"), RT_U64("MethodStartAddress"), RT_U32("MethodSize"),
    RT_U32("MethodToken"), RT_U32("MethodFlags"), RT_STR("MethodNamespace"),
    RT_STR("MethodName"), RT_STR("MethodSignature"), RT_U16("ClrInstanceID")};
const clra__rt_field_t clra__rt_method_verbose_v2[11] = {
    RT_U64("MethodID"), RT_U64("ModuleID"), RT_U64("MethodStartAddress"), RT_U32("MethodSize"),
    RT_U32("MethodToken"), RT_U32("MethodFlags"), RT_STR("MethodNamespace"),
    RT_STR("MethodName"), RT_STR("MethodSignature"), RT_U16("ClrInstanceID"),
    RT_U64("ReJITID")};
static const clra__rt_field_t offset[] = {RT_U32("")};
const clra__rt_field_t clra__rt_il_map[7] = {
    RT_U64("MethodID"), RT_U64("ReJITID"), RT_U8("MethodExtent"), RT_U16("CountOfMapEntries"),
    RT_ARR("ILOffsets", 3, offset), RT_ARR("NativeOffsets", 3, offset), RT_U16("ClrInstanceID")};
const clra__rt_field_t clra__rt_module_v1[7] = {
    RT_U64("ModuleID"), RT_U64("AssemblyID"), RT_U32("ModuleFlags"), RT_U32("Reserved1"),
    RT_STR("ModuleILPath"), RT_STR("ModuleNativePath"), RT_U16("ClrInstanceID")};
const clra__rt_field_t clra__rt_module_v2[13] = {
    RT_U64("ModuleID"), RT_U64("AssemblyID"), RT_U32("ModuleFlags"), RT_U32("Reserved1"),
    RT_STR("ModuleILPath"), RT_STR("ModuleNativePath"), RT_U16("ClrInstanceID"),
    RT_GUID("ManagedPdbSignature"), RT_U32("ManagedPdbAge"), RT_STR("ManagedPdbBuildPath"),
    RT_GUID("NativePdbSignature"), RT_U32("NativePdbAge"), RT_STR("NativePdbBuildPath")};
const clra__rt_field_t clra__rt_domain_module_v1[8] = {
    RT_U64("ModuleID"), RT_U64("AssemblyID"), RT_U64("AppDomainID"), RT_U32("ModuleFlags"),
    RT_U32("Reserved1"), RT_STR("ModuleILPath"), RT_STR("ModuleNativePath"),
    RT_U16("ClrInstanceID")};
const clra__rt_field_t clra__rt_assembly_v1[6] = {
    RT_U64("AssemblyID"), RT_U64("AppDomainID"), RT_U64("BindingID"), RT_U32("AssemblyFlags"),
    RT_STR("FullyQualifiedAssemblyName"), RT_U16("ClrInstanceID")};
const clra__rt_field_t clra__rt_app_domain_v1[5] = {
    RT_U64("AppDomainID"), RT_U32("AppDomainFlags"), RT_STR("AppDomainName"),
    RT_U32("AppDomainIndex"), RT_U16("ClrInstanceID")};

static const clra__rt_field_t jitting_v1[] = {
    RT_U64("MethodID"), RT_U64("ModuleID"), RT_U32("MethodToken"), RT_U32("MethodILSize"),
    RT_STR("MethodNamespace"), RT_STR("MethodName"), RT_STR("MethodSignature"),
    RT_U16("ClrInstanceID")};
static const clra__rt_field_t type_param[] = {RT_U64("")};
static const clra__rt_field_t method_details[] = {
    RT_U64("MethodID"), RT_U64("TypeID"), RT_U32("MethodToken"), RT_U32("TypeParameterCount"),
    RT_U64("LoaderModuleID"), RT_ARR("TypeParameters", 3, type_param)};
static const clra__rt_field_t type_load_start[] = {RT_U32("TypeLoadStartID"),
                                                   RT_U16("ClrInstanceID")};
static const clra__rt_field_t type_load_stop[] = {RT_U32("TypeLoadStartID"),
                                                  RT_U16("ClrInstanceID"), RT_U16("LoadLevel"),
                                                  RT_U64("TypeID"), RT_STR("TypeName")};
static const clra__rt_field_t r2r_entry[] = {
    RT_U64("MethodID"), RT_STR("MethodNamespace"), RT_STR("MethodName"),
    RT_STR("MethodSignature"), RT_U64("EntryPoint"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t r2r_entry_start[] = {RT_U64("MethodID"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t code_memory[] = {
    RT_U64("MethodID"), RT_U64("ModuleID"), RT_U64("JitHotCodeRequestSize"),
    RT_U64("JitRODataRequestSize"), RT_U64("AllocatedSizeForJitCode"), RT_U32("JitAllocFlag"),
    RT_U16("ClrInstanceID")};

#define M(f) f, (uint8_t)(sizeof(f) / sizeof((f)[0]))

static const clra__rt_event_t events[] = {
    {72, 0, "MethodDetails", RT_FIELDS(method_details)},
    {73, 0, "TypeLoadStart", RT_FIELDS(type_load_start)},
    {74, 0, "TypeLoadStop", RT_FIELDS(type_load_stop)},
    {141, 1, "MethodLoad", M(clra__rt_method_v1)},
    {141, 2, "MethodLoad", M(clra__rt_method_v2)},
    {142, 1, "MethodUnload", M(clra__rt_method_v1)},
    {142, 2, "MethodUnload", M(clra__rt_method_v2)},
    {143, 1, "MethodLoadVerbose", M(clra__rt_method_verbose_v1)},
    {143, 2, "MethodLoadVerbose", M(clra__rt_method_verbose_v2)},
    {144, 1, "MethodUnloadVerbose", M(clra__rt_method_verbose_v1)},
    {144, 2, "MethodUnloadVerbose", M(clra__rt_method_verbose_v2)},
    {145, 1, "MethodJittingStarted", RT_FIELDS(jitting_v1)},
    {146, 0, "MethodJitMemoryAllocatedForCode", RT_FIELDS(code_memory)},
    {151, 1, "DomainModuleLoad", M(clra__rt_domain_module_v1)},
    {152, 1, "ModuleLoad", M(clra__rt_module_v1)},
    {152, 2, "ModuleLoad", M(clra__rt_module_v2)},
    {153, 1, "ModuleUnload", M(clra__rt_module_v1)},
    {153, 2, "ModuleUnload", M(clra__rt_module_v2)},
    {154, 1, "AssemblyLoad", M(clra__rt_assembly_v1)},
    {155, 1, "AssemblyUnload", M(clra__rt_assembly_v1)},
    {156, 1, "AppDomainLoad", M(clra__rt_app_domain_v1)},
    {157, 1, "AppDomainUnload", M(clra__rt_app_domain_v1)},
    {159, 0, "R2RGetEntryPoint", RT_FIELDS(r2r_entry)},
    {160, 0, "R2RGetEntryPointStart", RT_FIELDS(r2r_entry_start)},
    {190, 0, "MethodILToNativeMap", M(clra__rt_il_map)},
};

const clra__rt_table_t clra__rt_loader = {P, events, sizeof events / sizeof events[0]};
