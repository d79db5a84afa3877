# Test sources, explicit like cmake/sources.cmake: a new test file is added here.

set(UNIT_SOURCES

  ${CMAKE_SOURCE_DIR}/tests/unit/test_cli_input.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_cli_options.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_cli_visible.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_corprof.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_counter_reading.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_counters_known.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_cpu_samples.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_diagnostic_port.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_dump.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_dump_server.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_endpoint.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_errors.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_heap_diff.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_heap_file.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_heap_snapshot.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_hook_check.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_hostile_text.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_hresult.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_message.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_main_detached.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_names.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_signature.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_nettrace.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_nettrace_decoder.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_nettrace_limits.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_process_env.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_process_info.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_process_list.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_process_state.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_procfs_limits.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_profile_events.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_render.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_runtime_events.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_runtime_version.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_sockdir.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_reply_sizes.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_reverse.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_sdk.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_small_libc.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_socket_check.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_stage.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_trace_filter.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_trace_message.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_trace_profiles.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_trace_providers.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_trace_session.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_trace_user_events.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_transport.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_unwind.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_unwind_gaps.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_wire.c
)

set(E2E_SOURCES
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_anchors.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_attach.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_callbacks.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_counters.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_control_check.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_cycles.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_detach.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_dump.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_heap.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_info.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_launch.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_launch_profile.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_process.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_procinfo.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_profile.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_profile_events.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_profile_native.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_profile_modes.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_profile_signal.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_runtime_facts.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_runtime_events.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_ps.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_startup_hook.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_nettrace_crosscheck.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_notify_walk.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_profile_beside.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_trace.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_trace_filter.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_trace_presets.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_trace_user_events.c
)

# The version-sensitive core: what a patch release of the runtime could change (the attach and
# detach handshake, profiler callbacks, info, startup hooks, dumps, the trace wire). Runtimes of
# CLRA_RUNTIMES_CORE_ONLY run only these (cmake/runtimes.cmake).
set(E2E_CORE_SOURCES
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_attach.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_callbacks.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_control_check.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_detach.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_dump.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_info.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_notify_walk.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_process.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_procinfo.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_runtime_facts.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_startup_hook.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_trace.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_trace_user_events.c
)

# End-to-end tests registered once, not again for each runtime of the matrix (cmake/runtimes.cmake):
# outside tools' views of our files, and what the runtime's version does not touch (deadlines
# against a stopped target, output files, other users, containers, the tutorial).
set(E2E_ONCE_SOURCES
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_deadlines.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_dotnet_habits.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_hostile_outputs.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_hostile_users.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_launch_json.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_marks.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_perf_anchor.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_profile_consumers.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_profile_stage.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_rootless.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_speedscope_anchor.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_stage.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_trace_outputs.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_tutorial.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_users.c
)

# Of E2E_ONCE_SOURCES, those that hold our timing shares against an outside tool's (perf,
# dotnet-trace convert, go tool pprof, speedscope and chromium): the sanitized build leaves them
# out, since ASan slows our side and not theirs, and their code paths run there in other tests.
set(E2E_TIMING_SOURCES
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_perf_anchor.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_profile_consumers.c
  ${CMAKE_SOURCE_DIR}/tests/e2e/test_speedscope_anchor.c
)

# Each becomes profilers/lib<name>_profiler.so.
set(TEST_PROFILER_SOURCES
  ${CMAKE_SOURCE_DIR}/tests/profilers/badmask.c
  ${CMAKE_SOURCE_DIR}/tests/profilers/counter.c
  ${CMAKE_SOURCE_DIR}/tests/profilers/detacher.c
  ${CMAKE_SOURCE_DIR}/tests/profilers/infoprobe.c
  ${CMAKE_SOURCE_DIR}/tests/profilers/noattach.c
  ${CMAKE_SOURCE_DIR}/tests/profilers/notify_a.c
  ${CMAKE_SOURCE_DIR}/tests/profilers/notify_b.c
  ${CMAKE_SOURCE_DIR}/tests/profilers/notify_walk.c
  ${CMAKE_SOURCE_DIR}/tests/profilers/refuse.c
)

# The Windows build's unit tests (cmake/windows_tests.cmake, run under wine): the portable ones
# above plus the named-pipe transport's own.
set(UNIT_SOURCES_WINDOWS
  ${CMAKE_SOURCE_DIR}/tests/unit/test_corprof.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_errors.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_hresult.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_message.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_names.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_signature.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_reverse_win.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_stream_win.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_transport_win.c
  ${CMAKE_SOURCE_DIR}/tests/unit/test_wire.c
)

# The .NET Framework attach tests' fakes (cmake/windows_tests.cmake, tests/windows/framework.sh):
# a stand-in mscoree.dll, a do-nothing clr.dll and a process that loads it and waits.
set(FRAMEWORK_FAKE_MSCOREE ${CMAKE_SOURCE_DIR}/tests/windows/fx/fake_mscoree.c)
set(FRAMEWORK_FAKE_CLR ${CMAKE_SOURCE_DIR}/tests/windows/fx/fake_clr.c)
set(FRAMEWORK_FAKE_TARGET ${CMAKE_SOURCE_DIR}/tests/windows/fx/fake_target.c)
