/* runtime_events_gc.c - the layouts of the runtime's GC and allocation events (GCKeyword):
 * collections, suspensions, heap statistics, allocation ticks and samples, finalization, GC
 * handles. Facts from the runtime's manifest (ClrEtwAll.man, provider
 * Microsoft-Windows-DotNETRuntime); the layout engine is runtime_events.c.
 */
#include "proto/runtime_events.h"

#define P "Microsoft-Windows-DotNETRuntime"

static const clra__rt_field_t gc_start_v0[] = {RT_U32("Count"), RT_U32("Reason")};
static const clra__rt_field_t gc_start_v1[] = {RT_U32("Count"), RT_U32("Depth"),
                                               RT_U32("Reason"), RT_U32("Type"),
                                               RT_U16("ClrInstanceID")};
static const clra__rt_field_t gc_start_v2[] = {RT_U32("Count"), RT_U32("Depth"),
                                               RT_U32("Reason"), RT_U32("Type"),
                                               RT_U16("ClrInstanceID"),
                                               RT_U64("ClientSequenceNumber")};
static const clra__rt_field_t gc_end_v0[] = {RT_U32("Count"), RT_U16("Depth")};
static const clra__rt_field_t gc_end_v1[] = {RT_U32("Count"), RT_U32("Depth"),
                                             RT_U16("ClrInstanceID")};
static const clra__rt_field_t clr_instance[] = {RT_U16("ClrInstanceID")};
static const clra__rt_field_t heap_stats_v1[] = {
    RT_U64("GenerationSize0"), RT_U64("TotalPromotedSize0"), RT_U64("GenerationSize1"),
    RT_U64("TotalPromotedSize1"), RT_U64("GenerationSize2"), RT_U64("TotalPromotedSize2"),
    RT_U64("GenerationSize3"), RT_U64("TotalPromotedSize3"), RT_U64("FinalizationPromotedSize"),
    RT_U64("FinalizationPromotedCount"), RT_U32("PinnedObjectCount"), RT_U32("SinkBlockCount"),
    RT_U32("GCHandleCount"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t heap_stats_v2[] = {
    RT_U64("GenerationSize0"), RT_U64("TotalPromotedSize0"), RT_U64("GenerationSize1"),
    RT_U64("TotalPromotedSize1"), RT_U64("GenerationSize2"), RT_U64("TotalPromotedSize2"),
    RT_U64("GenerationSize3"), RT_U64("TotalPromotedSize3"), RT_U64("FinalizationPromotedSize"),
    RT_U64("FinalizationPromotedCount"), RT_U32("PinnedObjectCount"), RT_U32("SinkBlockCount"),
    RT_U32("GCHandleCount"), RT_U16("ClrInstanceID"), RT_U64("GenerationSize4"),
    RT_U64("TotalPromotedSize4")};
static const clra__rt_field_t create_segment_v1[] = {RT_U64("Address"), RT_U64("Size"),
                                                     RT_U32("Type"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t free_segment_v1[] = {RT_U64("Address"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t suspend_v0[] = {RT_U16("Reason")};
static const clra__rt_field_t suspend_v1[] = {RT_U32("Reason"), RT_U32("Count"),
                                              RT_U16("ClrInstanceID")};
static const clra__rt_field_t tick_v0[] = {RT_U32("AllocationAmount"), RT_U32("AllocationKind")};
static const clra__rt_field_t tick_v1[] = {RT_U32("AllocationAmount"), RT_U32("AllocationKind"),
                                           RT_U16("ClrInstanceID")};
static const clra__rt_field_t tick_v2[] = {
    RT_U32("AllocationAmount"), RT_U32("AllocationKind"), RT_U16("ClrInstanceID"),
    RT_U64("AllocationAmount64"), RT_PTR("TypeID"), RT_STR("TypeName"), RT_U32("HeapIndex")};
static const clra__rt_field_t tick_v3[] = {
    RT_U32("AllocationAmount"), RT_U32("AllocationKind"), RT_U16("ClrInstanceID"),
    RT_U64("AllocationAmount64"), RT_PTR("TypeID"), RT_STR("TypeName"), RT_U32("HeapIndex"),
    RT_PTR("Address")};
static const clra__rt_field_t tick_v4[] = {
    RT_U32("AllocationAmount"), RT_U32("AllocationKind"), RT_U16("ClrInstanceID"),
    RT_U64("AllocationAmount64"), RT_PTR("TypeID"), RT_STR("TypeName"), RT_U32("HeapIndex"),
    RT_PTR("Address"), RT_U64("ObjectSize")};
static const clra__rt_field_t sampled[] = {
    RT_U32("AllocationKind"), RT_U16("ClrInstanceID"), RT_PTR("TypeID"), RT_STR("TypeName"),
    RT_PTR("Address"), RT_U64("ObjectSize"), RT_U64("SampledByteOffset")};
static const clra__rt_field_t finalizers_end_v0[] = {RT_U32("Count")};
static const clra__rt_field_t finalizers_end_v1[] = {RT_U32("Count"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t triggered[] = {RT_U32("Reason"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t heap_num[] = {RT_U32("HeapNum"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t mark_with_type[] = {RT_U32("HeapNum"), RT_U16("ClrInstanceID"),
                                                  RT_U32("Type"), RT_U64("Bytes")};
static const clra__rt_field_t finalize_object[] = {RT_PTR("TypeID"), RT_PTR("ObjectID"),
                                                   RT_U16("ClrInstanceID")};
static const clra__rt_field_t set_handle[] = {RT_PTR("HandleID"), RT_PTR("ObjectID"),
                                              RT_U32("Kind"), RT_U32("Generation"),
                                              RT_U64("AppDomainID"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t destroy_handle[] = {RT_PTR("HandleID"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t pin_object[] = {RT_PTR("HandleID"), RT_PTR("ObjectID"),
                                              RT_U64("ObjectSize"), RT_STR("TypeName"),
                                              RT_U16("ClrInstanceID")};
static const clra__rt_field_t global_heap_v2[] = {
    RT_U64("FinalYoungestDesired"), RT_I32("NumHeaps"), RT_U32("CondemnedGeneration"),
    RT_U32("Gen0ReductionCount"), RT_U32("Reason"), RT_U32("GlobalMechanisms"),
    RT_U16("ClrInstanceID"), RT_U32("PauseMode"), RT_U32("MemoryPressure")};
static const clra__rt_field_t global_heap_v3[] = {
    RT_U64("FinalYoungestDesired"), RT_I32("NumHeaps"), RT_U32("CondemnedGeneration"),
    RT_U32("Gen0ReductionCount"), RT_U32("Reason"), RT_U32("GlobalMechanisms"),
    RT_U16("ClrInstanceID"), RT_U32("PauseMode"), RT_U32("MemoryPressure"),
    RT_U32("CondemnReasons0"), RT_U32("CondemnReasons1")};
static const clra__rt_field_t memory_pressure[] = {RT_U64("BytesAllocated"),
                                                   RT_U16("ClrInstanceID")};

static const clra__rt_event_t events[] = {
    {1, 0, "GCStart", RT_FIELDS(gc_start_v0)},
    {1, 1, "GCStart", RT_FIELDS(gc_start_v1)},
    {1, 2, "GCStart", RT_FIELDS(gc_start_v2)},
    {2, 0, "GCEnd", RT_FIELDS(gc_end_v0)},
    {2, 1, "GCEnd", RT_FIELDS(gc_end_v1)},
    {3, 0, "GCRestartEEEnd", RT_NONE},
    {3, 1, "GCRestartEEEnd", RT_FIELDS(clr_instance)},
    {4, 1, "GCHeapStats", RT_FIELDS(heap_stats_v1)},
    {4, 2, "GCHeapStats", RT_FIELDS(heap_stats_v2)},
    {5, 1, "GCCreateSegment", RT_FIELDS(create_segment_v1)},
    {6, 1, "GCFreeSegment", RT_FIELDS(free_segment_v1)},
    {7, 0, "GCRestartEEBegin", RT_NONE},
    {7, 1, "GCRestartEEBegin", RT_FIELDS(clr_instance)},
    {8, 0, "GCSuspendEEEnd", RT_NONE},
    {8, 1, "GCSuspendEEEnd", RT_FIELDS(clr_instance)},
    {9, 0, "GCSuspendEEBegin", RT_FIELDS(suspend_v0)},
    {9, 1, "GCSuspendEEBegin", RT_FIELDS(suspend_v1)},
    {10, 0, "GCAllocationTick", RT_FIELDS(tick_v0)},
    {10, 1, "GCAllocationTick", RT_FIELDS(tick_v1)},
    {10, 2, "GCAllocationTick", RT_FIELDS(tick_v2)},
    {10, 3, "GCAllocationTick", RT_FIELDS(tick_v3)},
    {10, 4, "GCAllocationTick", RT_FIELDS(tick_v4)},
    {11, 1, "GCCreateConcurrentThread", RT_FIELDS(clr_instance)},
    {12, 1, "GCTerminateConcurrentThread", RT_FIELDS(clr_instance)},
    {13, 0, "GCFinalizersEnd", RT_FIELDS(finalizers_end_v0)},
    {13, 1, "GCFinalizersEnd", RT_FIELDS(finalizers_end_v1)},
    {14, 0, "GCFinalizersBegin", RT_NONE},
    {14, 1, "GCFinalizersBegin", RT_FIELDS(clr_instance)},
    {25, 0, "GCMarkStackRoots", RT_FIELDS(heap_num)},
    {26, 0, "GCMarkFinalizeQueueRoots", RT_FIELDS(heap_num)},
    {27, 0, "GCMarkHandles", RT_FIELDS(heap_num)},
    {28, 0, "GCMarkOlderGenerationRoots", RT_FIELDS(heap_num)},
    {29, 0, "FinalizeObject", RT_FIELDS(finalize_object)},
    {30, 0, "SetGCHandle", RT_FIELDS(set_handle)},
    {31, 0, "DestroyGCHandle", RT_FIELDS(destroy_handle)},
    {33, 0, "PinObjectAtGCTime", RT_FIELDS(pin_object)},
    {35, 0, "GCTriggered", RT_FIELDS(triggered)},
    {200, 0, "IncreaseMemoryPressure", RT_FIELDS(memory_pressure)},
    {202, 0, "GCMarkWithType", RT_FIELDS(mark_with_type)},
    {205, 2, "GCGlobalHeapHistory", RT_FIELDS(global_heap_v2)},
    {205, 3, "GCGlobalHeapHistory", RT_FIELDS(global_heap_v3)},
    {303, 0, "AllocationSampled", RT_FIELDS(sampled)},
};

const clra__rt_table_t clra__rt_gc = {P, events, sizeof events / sizeof events[0]};
