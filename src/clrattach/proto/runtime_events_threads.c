/* runtime_events_threads.c - the layouts of the runtime's events about threads: lock
 * contention (ContentionKeyword), wait-handle waits (WaitHandleKeyword, .NET 9+), exceptions
 * (ExceptionKeyword) and the thread pool (ThreadingKeyword). Facts from the runtime's manifest
 * (ClrEtwAll.man); the layout engine is runtime_events.c.
 */
#include "proto/runtime_events.h"

#define P "Microsoft-Windows-DotNETRuntime"

static const clra__rt_field_t worker[] = {RT_U32("ActiveWorkerThreadCount"),
                                          RT_U32("RetiredWorkerThreadCount"),
                                          RT_U16("ClrInstanceID")};
static const clra__rt_field_t io_thread_v0[] = {RT_U32("IOThreadCount"),
                                                RT_U32("RetiredIOThreads")};
static const clra__rt_field_t io_thread_v1[] = {RT_U32("IOThreadCount"),
                                                RT_U32("RetiredIOThreads"),
                                                RT_U16("ClrInstanceID")};
static const clra__rt_field_t adjust_sample[] = {RT_DBL("Throughput"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t adjust[] = {RT_DBL("AverageThroughput"),
                                          RT_U32("NewWorkerThreadCount"), RT_U32("Reason"),
                                          RT_U16("ClrInstanceID")};
static const clra__rt_field_t adjust_stats[] = {
    RT_DBL("Duration"), RT_DBL("Throughput"), RT_DBL("ThreadWave"), RT_DBL("ThroughputWave"),
    RT_DBL("ThroughputErrorEstimate"), RT_DBL("AverageThroughputErrorEstimate"),
    RT_DBL("ThroughputRatio"), RT_DBL("Confidence"), RT_DBL("NewControlSetting"),
    RT_U16("NewThreadWaveMagnitude"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t min_max[] = {RT_U16("MinWorkerThreads"), RT_U16("MaxWorkerThreads"),
                                           RT_U16("MinIOCompletionThreads"),
                                           RT_U16("MaxIOCompletionThreads"),
                                           RT_U16("ClrInstanceID")};
static const clra__rt_field_t working_count[] = {RT_U32("Count"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t work[] = {RT_PTR("WorkID"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t io_work[] = {RT_PTR("NativeOverlapped"), RT_PTR("Overlapped"),
                                           RT_U16("ClrInstanceID")};
static const clra__rt_field_t io_enqueue[] = {RT_PTR("NativeOverlapped"), RT_PTR("Overlapped"),
                                              RT_BOOL("MultiDequeues"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t thread_start[] = {RT_PTR("ID"), RT_U16("ClrInstanceID")};

static const clra__rt_field_t exception_v1[] = {
    RT_STR("ExceptionType"), RT_STR("ExceptionMessage"), RT_PTR("ExceptionEIP"),
    RT_U32("ExceptionHRESULT"), RT_U16("ExceptionFlags"), RT_U16("ClrInstanceID")};
static const clra__rt_field_t clause_start[] = {RT_U64("EntryEIP"), RT_U64("MethodID"),
                                                RT_STR("MethodName"), RT_U16("ClrInstanceID")};

static const clra__rt_field_t contention_v1[] = {RT_U8("ContentionFlags"),
                                                 RT_U16("ClrInstanceID")};
static const clra__rt_field_t contention_start_v2[] = {
    RT_U8("ContentionFlags"), RT_U16("ClrInstanceID"), RT_PTR("LockID"),
    RT_PTR("AssociatedObjectID"), RT_U64("LockOwnerThreadID")};
static const clra__rt_field_t contention_stop_v1[] = {RT_U8("ContentionFlags"),
                                                      RT_U16("ClrInstanceID"),
                                                      RT_DBL("DurationNs")};
static const clra__rt_field_t lock_created[] = {RT_PTR("LockID"), RT_PTR("AssociatedObjectID"),
                                                RT_U16("ClrInstanceID")};
static const clra__rt_field_t wait_start[] = {RT_U8("WaitSource"), RT_PTR("AssociatedObjectID"),
                                              RT_U16("ClrInstanceID")};
static const clra__rt_field_t clr_instance[] = {RT_U16("ClrInstanceID")};

static const clra__rt_event_t events[] = {
    {44, 0, "IOThreadCreate", RT_FIELDS(io_thread_v0)},
    {44, 1, "IOThreadCreate", RT_FIELDS(io_thread_v1)},
    {45, 0, "IOThreadTerminate", RT_FIELDS(io_thread_v0)},
    {45, 1, "IOThreadTerminate", RT_FIELDS(io_thread_v1)},
    {46, 0, "IOThreadRetire", RT_FIELDS(io_thread_v0)},
    {46, 1, "IOThreadRetire", RT_FIELDS(io_thread_v1)},
    {47, 0, "IOThreadUnretire", RT_FIELDS(io_thread_v0)},
    {47, 1, "IOThreadUnretire", RT_FIELDS(io_thread_v1)},
    {50, 0, "ThreadPoolWorkerThreadStart", RT_FIELDS(worker)},
    {51, 0, "ThreadPoolWorkerThreadStop", RT_FIELDS(worker)},
    {52, 0, "ThreadPoolWorkerThreadRetirementStart", RT_FIELDS(worker)},
    {53, 0, "ThreadPoolWorkerThreadRetirementStop", RT_FIELDS(worker)},
    {54, 0, "ThreadPoolWorkerThreadAdjustmentSample", RT_FIELDS(adjust_sample)},
    {55, 0, "ThreadPoolWorkerThreadAdjustmentAdjustment", RT_FIELDS(adjust)},
    {56, 0, "ThreadPoolWorkerThreadAdjustmentStats", RT_FIELDS(adjust_stats)},
    {57, 0, "ThreadPoolWorkerThreadWait", RT_FIELDS(worker)},
    {59, 0, "ThreadPoolMinMaxThreads", RT_FIELDS(min_max)},
    {60, 0, "ThreadPoolWorkingThreadCount", RT_FIELDS(working_count)},
    {61, 0, "ThreadPoolEnqueue", RT_FIELDS(work)},
    {62, 0, "ThreadPoolDequeue", RT_FIELDS(work)},
    {63, 0, "ThreadPoolIOEnqueue", RT_FIELDS(io_enqueue)},
    {64, 0, "ThreadPoolIODequeue", RT_FIELDS(io_work)},
    {65, 0, "ThreadPoolIOPack", RT_FIELDS(io_work)},
    {70, 0, "ThreadCreating", RT_FIELDS(thread_start)},
    {71, 0, "ThreadRunning", RT_FIELDS(thread_start)},
    {80, 1, "ExceptionThrown", RT_FIELDS(exception_v1)},
    {81, 1, "ContentionStart", RT_FIELDS(contention_v1)},
    {81, 2, "ContentionStart", RT_FIELDS(contention_start_v2)},
    {90, 0, "ContentionLockCreated", RT_FIELDS(lock_created)},
    {91, 0, "ContentionStop", RT_FIELDS(contention_v1)},
    {91, 1, "ContentionStop", RT_FIELDS(contention_stop_v1)},
    {250, 0, "ExceptionCatchStart", RT_FIELDS(clause_start)},
    {251, 0, "ExceptionCatchStop", RT_NONE},
    {252, 0, "ExceptionFinallyStart", RT_FIELDS(clause_start)},
    {253, 0, "ExceptionFinallyStop", RT_NONE},
    {254, 0, "ExceptionFilterStart", RT_FIELDS(clause_start)},
    {255, 0, "ExceptionFilterStop", RT_NONE},
    {256, 0, "ExceptionThrownStop", RT_NONE},
    {301, 0, "WaitHandleWaitStart", RT_FIELDS(wait_start)},
    {302, 0, "WaitHandleWaitStop", RT_FIELDS(clr_instance)},
};

const clra__rt_table_t clra__rt_threads = {P, events, sizeof events / sizeof events[0]};
