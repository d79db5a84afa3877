/* runtime_events_heap.c - the layouts of the GC heap snapshot events (GCHeapDumpKeyword with
 * GCKeyword and TypeKeyword, what dotnet-gcdump asks for): the heap's nodes and edges, its
 * roots, and the types they name, each a batch counted by a field before it. Facts from the
 * runtime's manifest (ClrEtwAll.man); the layout engine is runtime_events.c.
 */
#include "proto/runtime_events.h"

#define P "Microsoft-Windows-DotNETRuntime"

static const clra__rt_field_t type_param[] = {RT_U64("")};
static const clra__rt_field_t bulk_type_value[] = {
    RT_U64("TypeID"), RT_U64("ModuleID"), RT_U32("TypeNameID"), RT_U32("Flags"),
    RT_U8("CorElementType"), RT_STR("TypeName"), RT_U32("TypeParameterCount"),
    RT_ARR("TypeParameters", 6, type_param)};
static const clra__rt_field_t bulk_type[] = {RT_U32("Count"), RT_U16("ClrInstanceID"),
                                             RT_ARR("Values", 0, bulk_type_value)};

static const clra__rt_field_t root_edge_value[] = {RT_PTR("RootedNodeAddress"),
                                                   RT_U8("GCRootKind"), RT_U32("GCRootFlag"),
                                                   RT_PTR("GCRootID")};
static const clra__rt_field_t root_edge[] = {RT_U32("Index"), RT_U32("Count"),
                                             RT_U16("ClrInstanceID"),
                                             RT_ARR("Values", 1, root_edge_value)};

static const clra__rt_field_t cwt_value[] = {RT_PTR("GCKeyNodeID"), RT_PTR("GCValueNodeID"),
                                             RT_PTR("GCRootID")};
static const clra__rt_field_t cwt_edge[] = {RT_U32("Index"), RT_U32("Count"),
                                            RT_U16("ClrInstanceID"),
                                            RT_ARR("Values", 1, cwt_value)};

static const clra__rt_field_t node_value[] = {RT_PTR("Address"), RT_U64("Size"),
                                              RT_U64("TypeID"), RT_U64("EdgeCount")};
static const clra__rt_field_t node[] = {RT_U32("Index"), RT_U32("Count"),
                                        RT_U16("ClrInstanceID"), RT_ARR("Values", 1, node_value)};

static const clra__rt_field_t edge_value[] = {RT_PTR("Value"), RT_U32("ReferencingFieldID")};
static const clra__rt_field_t edge[] = {RT_U32("Index"), RT_U32("Count"),
                                        RT_U16("ClrInstanceID"), RT_ARR("Values", 1, edge_value)};

static const clra__rt_field_t static_value[] = {RT_U64("GCRootID"), RT_U64("ObjectID"),
                                                RT_U64("TypeID"), RT_U32("Flags"),
                                                RT_STR("FieldName")};
static const clra__rt_field_t static_var[] = {RT_U32("Count"), RT_U64("AppDomainID"),
                                              RT_U16("ClrInstanceID"),
                                              RT_ARR("Values", 0, static_value)};

static const clra__rt_field_t ccw_value[] = {RT_PTR("GCRootID"), RT_PTR("ObjectID"),
                                             RT_PTR("TypeID"), RT_PTR("IUnknown"),
                                             RT_U32("RefCount"), RT_U32("PeggedRefCount"),
                                             RT_U32("Flags")};
static const clra__rt_field_t root_ccw[] = {RT_U32("Count"), RT_U16("ClrInstanceID"),
                                            RT_ARR("Values", 0, ccw_value)};

static const clra__rt_field_t rcw_value[] = {RT_PTR("ObjectID"), RT_PTR("TypeID"),
                                             RT_PTR("IUnknown"), RT_PTR("VTable"),
                                             RT_U32("RefCount"), RT_U32("Flags")};
static const clra__rt_field_t rcw[] = {RT_U32("Count"), RT_U16("ClrInstanceID"),
                                       RT_ARR("Values", 0, rcw_value)};

static const clra__rt_field_t range_value[] = {RT_PTR("RangeBase"), RT_U64("RangeLength")};
static const clra__rt_field_t surviving[] = {RT_U32("Index"), RT_U32("Count"),
                                             RT_U16("ClrInstanceID"),
                                             RT_ARR("Values", 1, range_value)};
static const clra__rt_field_t moved_value[] = {RT_PTR("OldRangeBase"), RT_PTR("NewRangeBase"),
                                               RT_U64("RangeLength")};
static const clra__rt_field_t moved[] = {RT_U32("Index"), RT_U32("Count"),
                                         RT_U16("ClrInstanceID"),
                                         RT_ARR("Values", 1, moved_value)};
static const clra__rt_field_t generation_range[] = {RT_U8("Generation"), RT_PTR("RangeStart"),
                                                    RT_U64("RangeUsedLength"),
                                                    RT_U64("RangeReservedLength"),
                                                    RT_U16("ClrInstanceID")};

static const clra__rt_event_t events[] = {
    {15, 0, "BulkType", RT_FIELDS(bulk_type)},
    {16, 0, "GCBulkRootEdge", RT_FIELDS(root_edge)},
    {17, 0, "GCBulkRootConditionalWeakTableElementEdge", RT_FIELDS(cwt_edge)},
    {18, 0, "GCBulkNode", RT_FIELDS(node)},
    {19, 0, "GCBulkEdge", RT_FIELDS(edge)},
    {21, 0, "GCBulkSurvivingObjectRanges", RT_FIELDS(surviving)},
    {22, 0, "GCBulkMovedObjectRanges", RT_FIELDS(moved)},
    {23, 0, "GCGenerationRange", RT_FIELDS(generation_range)},
    {36, 0, "GCBulkRootCCW", RT_FIELDS(root_ccw)},
    {37, 0, "GCBulkRCW", RT_FIELDS(rcw)},
    {38, 0, "GCBulkRootStaticVar", RT_FIELDS(static_var)},
};

const clra__rt_table_t clra__rt_heap = {P, events, sizeof events / sizeof events[0]};
