# The helpers bench/run drives: a peak-RSS and CPU-time wrapper, a trigger that stamps
# libclrattach's calls, a .nettrace event counter, the floor profiler and its stamping preload. Built with everything else so bench/run needs nothing but a build.
add_executable(bench_peak_rss bench/peak_rss.c)
add_executable(bench_client bench/bench_client.c)
target_link_libraries(bench_client PRIVATE clrattach)
add_library(floor_profiler MODULE bench/floor_profiler.c)
target_link_libraries(floor_profiler PRIVATE clrprof)
set_target_properties(floor_profiler PROPERTIES PREFIX "lib")
add_executable(bench_count_events bench/count_events.c)
target_include_directories(bench_count_events PRIVATE tests/common)
target_link_libraries(bench_count_events PRIVATE clrattach)
add_executable(bench_nettrace_decode bench/nettrace_decode.c)
add_executable(bench_hostile_trace bench/hostile_trace.c)
target_include_directories(bench_hostile_trace PRIVATE tests/common)
target_link_libraries(bench_nettrace_decode PRIVATE clrattach)
set_target_properties(bench_peak_rss bench_client bench_count_events bench_nettrace_decode
                      bench_hostile_trace floor_profiler PROPERTIES
                      RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench
                      LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
add_library(floor_stamps SHARED bench/floor_stamps.c)
target_link_libraries(floor_stamps PRIVATE ${CMAKE_DL_LIBS})
set_target_properties(floor_stamps PROPERTIES LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bench)
