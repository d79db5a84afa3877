# Source lists, explicit (no globs): adding a file means adding it here, in ONE list
# (docs/platforms.md). X_SOURCES holds what both platforms build; X_SOURCES_UNIX what only
# Linux builds (platform files *_unix.c / *_linux.c, and the Linux-only features); X_SOURCES_WIN
# what only Windows builds (*_win.c files only). clra_platform_sources at the end appends the
# one platform list, so a shared file cannot be forgotten on one platform, and
# tests/layers/check_platforms.sh (unit.platforms) fails for a file named in no list or twice,
# or a *_win.c file outside a _WIN list.

# User names: the C library's NSS lookup, or /etc/passwd read by hand in the static command
# (src/clrattach/target/user_name.h says why).
if(CLRA_STATIC)
  set(CLRA_USER_NAME_SOURCE
      src/clrattach/target/user_name_passwd.c)
else()
  set(CLRA_USER_NAME_SOURCE
      src/clrattach/target/user_name_nss.c)
endif()
# -n/--name: the process found by name, or in the static container command a refusal that
# says to give the PID (the lookup and its case-blind compares cost 1.3 KB of its 150 KB).
if(CLRA_STATIC)
  set(CLRA_PROCESS_NAME_SOURCE
      src/cli/base/process_name_none.c)
else()
  set(CLRA_PROCESS_NAME_SOURCE
      src/cli/base/process_name.c)
endif()
set(CLRATTACH_SOURCES
  src/clrattach/assembly/hook_check.c
  src/clrattach/assembly/pe_metadata.c
  src/clrattach/command_target.c
  src/clrattach/counters.c
  src/clrattach/cpu_samples.c
  src/clrattach/cpu_stacks.c
  src/clrattach/dump.c
  src/clrattach/heap_histogram.c
  src/clrattach/heap_snapshot.c
  src/clrattach/heap_types.c
  src/clrattach/hresult.c
  src/clrattach/nettrace_file.c
  src/clrattach/ipc/request.c
  src/clrattach/ipc/reverse_held.c
  src/clrattach/process_control.c
  src/clrattach/process_env.c
  src/clrattach/process_info.c
  src/clrattach/profiler_attach.c
  src/clrattach/profiler_control.c
  src/clrattach/proto/advertise.c
  src/clrattach/proto/counter_notice.c
  src/clrattach/proto/counter_reading.c
  src/clrattach/proto/dump_codec.c
  src/clrattach/proto/eventpipe_codec.c
  src/clrattach/proto/heap_events.c
  src/clrattach/proto/message.c
  src/clrattach/proto/nettrace.c
  src/clrattach/proto/nettrace_cursor.c
  src/clrattach/proto/nettrace_decoder.c
  src/clrattach/proto/nettrace_metadata.c
  src/clrattach/proto/nettrace_payload.c
  src/clrattach/proto/process_codec.c
  src/clrattach/proto/process_info_codec.c
  src/clrattach/proto/profiler_codec.c
  src/clrattach/proto/runtime_events.c
  src/clrattach/proto/runtime_events_gc.c
  src/clrattach/proto/runtime_events_heap.c
  src/clrattach/proto/runtime_events_loader.c
  src/clrattach/proto/runtime_events_rundown.c
  src/clrattach/proto/runtime_events_threads.c
  src/clrattach/proto/wire.c
  src/clrattach/startup_hook.c
  src/clrattach/trace.c
  src/clrattach/trace_config.c
  src/clrattach/trace_filter.c
  src/clrattach/trace_keywords.c
  src/clrattach/trace_profiles.c
  src/clrattach/trace_providers.c
  src/clrattach/trace_user_events.c
  src/clrattach/util/deadline.c
  src/clrattach/util/errors.c
  src/clrattach/util/file_io.c
  src/clrattach/util/guid.c
  src/clrattach/util/grow.c
  src/clrattach/util/small_libc.c
  src/clrattach/util/status.c
  src/clrattach/util/version.c
)
set(CLRATTACH_SOURCES_UNIX
  src/clrattach/dump_file_unix.c
  src/clrattach/hresult_unix.c
  src/clrattach/ipc/request_unix.c
  src/clrattach/ipc/reverse_server.c
  src/clrattach/ipc/socket_check.c
  src/clrattach/ipc/stream_unix.c
  src/clrattach/ipc/transport_unix.c
  src/clrattach/process_list.c
  src/clrattach/profiler_attach_unix.c
  src/clrattach/profiler_control_check_linux.c
  src/clrattach/profiler_control_unix.c
  src/clrattach/profiler_mark.c
  src/clrattach/stage/stage.c
  src/clrattach/stage/stage_names.c
  src/clrattach/stage/stage_place.c
  src/clrattach/stage/stage_sweep.c
  src/clrattach/target/endpoint_linux.c
  src/clrattach/target/identity.c
  src/clrattach/target/procfs.c
  src/clrattach/target/procfs_maps.c
  src/clrattach/target/procfs_parse.c
  src/clrattach/target/sockdir.c
  src/clrattach/target/target_path.c
  src/clrattach/target/target_root.c
  src/clrattach/util/file_io_unix.c
  ${CLRA_USER_NAME_SOURCE}
)

set(CLRPROF_SOURCES
  src/clrprof/callback_defaults.c
  src/clrprof/com.c
  src/clrprof/names.c
  src/clrprof/options.c
  src/clrprof/profiler.c
  src/clrprof/refusal.c
  src/clrprof/runtime_info.c
  src/clrprof/signature.c
  src/clrprof/service_wait.c
  src/clrprof/text.c
  src/clrprof/timing.c
)
set(CLRPROF_SOURCES_UNIX
  src/clrprof/control.c
  src/clrprof/main_detached.c
  src/clrprof/service.c
)

# The signal sampler's stack walker and symbol reader; the unit tests build them too
# (tests/unit/test_unwind.c, test_unwind_gaps.c).
set(UNWIND_SOURCES
  profilers/sampler/elf_symbols.c
  profilers/sampler/pages_linux.c
  profilers/sampler/unwind_cfi.c
  profilers/sampler/unwind_inserted.c
  profilers/sampler/unwind_map.c
  profilers/sampler/unwind_walk.c
)

# The sampling profiler behind `clrattach profile` and `clrattach stack`: the shared files
# (options, store, names, method=walk), and each platform's own method=signal
# (native_method.h) and OS questions (sampler_os.h).
set(SAMPLER_SOURCES
  profilers/sampler/frame_names.c
  profilers/sampler/sampler.c
  profilers/sampler/store.c
  profilers/sampler/tick.c
)
set(SAMPLER_SOURCES_UNIX
  profilers/sampler/native_names_linux.c
  profilers/sampler/sampler_os_linux.c
  profilers/sampler/signal_look.c
  profilers/sampler/signal_method.c
  profilers/sampler/signal_tick.c
  profilers/sampler/signal_timer.c
  profilers/sampler/signal_unwind.c
  profilers/sampler/signal_walk.c
  profilers/sampler/signal_wall.c
  ${UNWIND_SOURCES}
)
set(SAMPLER_SOURCES_WIN
  profilers/sampler/native_names_win.c
  profilers/sampler/pages_win.c
  profilers/sampler/sampler_os_win.c
  profilers/sampler/suspend_method_win.c
  profilers/sampler/suspend_walk_win.c
)

# The profile model and its writers (src/cli/render), shared by the verbs that write profiles;
# visible.c makes the target-chosen names they print safe for a terminal, json_escape.c writes
# them into JSON (as the JSON writer of --json, counters and convert do).
set(RENDER_SOURCES
  src/cli/base/json_escape.c
  src/cli/base/visible.c
  src/cli/render/flamegraph_page.c
  src/cli/render/format.c
  src/cli/render/profile.c
  src/cli/render/write_chromium.c
  src/cli/render/write_flamegraph.c
  src/cli/render/write_folded.c
  src/cli/render/write_pprof.c
  src/cli/render/write_speedscope.c
  src/cli/render/write_top.c
)

# profile's event modes without their session: the decoded stream into a profile (the fuzz
# targets take these too).
set(PROFILE_EVENTS_SOURCES
  src/cli/profile/profile_events_alloc.c
  src/cli/profile/profile_events_collect.c
  src/cli/profile/profile_events_decode.c
  src/cli/profile/profile_events_exception.c
  src/cli/profile/profile_events_fields.c
  src/cli/profile/profile_events_lock.c
  src/cli/profile/profile_events_pair.c
  src/cli/profile/profile_events_wait.c
)

set(CLI_SOURCES
  src/cli/base/diagnostic_port.c
  src/cli/base/duration.c
  src/cli/base/hold.c
  src/cli/base/interrupt_flag.c
  src/cli/base/option_table.c
  src/cli/base/options.c
  src/cli/base/output.c
  src/cli/base/output_file.c
  ${CLRA_PROCESS_NAME_SOURCE}
  src/cli/base/report.c
  src/cli/base/runtime_version.c
  src/cli/base/sweep_stage.c
  src/cli/base/target_pid.c
  src/cli/base/text_find.c
  src/cli/base/usage.c
  src/cli/cmd_attach.c
  src/cli/cmd_convert.c
  src/cli/cmd_counters.c
  src/cli/cmd_counters_list.c
  src/cli/cmd_detach.c
  src/cli/cmd_dump.c
  src/cli/cmd_env.c
  src/cli/cmd_heap.c
  src/cli/cmd_info.c
  src/cli/cmd_launch.c
  src/cli/cmd_profile.c
  src/cli/cmd_ps.c
  src/cli/cmd_resume.c
  src/cli/cmd_stack.c
  src/cli/cmd_startup_hook.c
  src/cli/cmd_trace.c
  src/cli/convert/convert_json.c
  src/cli/convert/convert_samples.c
  src/cli/counters/counters_known.c
  src/cli/counters/counters_view.c
  src/cli/heap/heap_compare.c
  src/cli/heap/heap_diff.c
  src/cli/heap/heap_load.c
  src/cli/heap/heap_print.c
  src/cli/launch/launch_args.c
  src/cli/launch/launch_check.c
  src/cli/launch/launch_json.c
  src/cli/launch/launch_profile.c
  src/cli/launch/launch_sdk.c
  src/cli/launch/launch_trace.c
  src/cli/main.c
  src/cli/profile/profile_drain.c
  ${PROFILE_EVENTS_SOURCES}
  src/cli/profile/profile_events_cmd.c
  src/cli/profile/profile_events_session.c
  src/cli/profile/profile_load.c
  src/cli/profile/profile_method.c
  src/cli/profile/profile_session.c
  src/cli/trace/trace_formats.c
  src/cli/trace/trace_options.c
  src/cli/trace/trace_presets.c
  src/cli/trace/trace_record.c
  src/cli/trace/trace_report.c
  src/cli/trace/trace_stop_event.c
  src/cli/trace/trace_user_events.c
  ${RENDER_SOURCES}
)
set(CLI_SOURCES_UNIX
  src/cli/base/dump_hint_unix.c
  src/cli/base/hold_unix.c
  src/cli/base/interrupt_unix.c
  src/cli/base/mem_stream_unix.c
  src/cli/base/output_file_unix.c
  src/cli/base/output_path_unix.c
  src/cli/base/paths.c
  src/cli/base/platform_unix.c
  src/cli/cmd_perfmap.c
  src/cli/launch/launch_platform_unix.c
  src/cli/launch/launch_profile_unix.c
  src/cli/launch/launch_spawn_unix.c
  src/cli/profile/profile_platform_unix.c
)

# Windows (cmake/toolchain-mingw64.cmake, docs/windows.md): the Windows twins (named pipes,
# the Win32 process API) and stubs that answer "not supported on Windows" for what has no twin
# yet, built with the shared lists above.
set(CLRATTACH_SOURCES_WIN
  src/clrattach/dump_file_win.c
  src/clrattach/framework/clr_profiling_win.c
  src/clrattach/framework/framework_attach_win.c
  src/clrattach/hresult_win.c
  src/clrattach/ipc/request_win.c
  src/clrattach/ipc/reverse_server_win.c
  src/clrattach/ipc/stream_win.c
  src/clrattach/ipc/transport_win.c
  src/clrattach/process_list_win.c
  src/clrattach/profiler_attach_win.c
  src/clrattach/profiler_control_win.c
  src/clrattach/target/endpoint_win.c
  src/clrattach/target/process_win.c
  src/clrattach/target/target_root_win.c
  src/clrattach/unsupported_win.c
  src/clrattach/util/file_io_win.c
)
set(CLRPROF_SOURCES_WIN
  src/clrprof/control_pipe_win.c
  src/clrprof/control_send_win.c
  src/clrprof/service_win.c
)
set(CLI_SOURCES_WIN
  src/cli/base/dump_hint_win.c
  src/cli/base/hold_win.c
  src/cli/base/interrupt_win.c
  src/cli/base/mem_stream_win.c
  src/cli/base/output_file_win.c
  src/cli/base/paths_win.c
  src/cli/base/platform_win.c
  src/cli/launch/launch_platform_win.c
  src/cli/launch/launch_profile_win.c
  src/cli/launch/launch_spawn_win.c
  src/cli/main_win.c
  src/cli/profile/profile_platform_win.c
  src/cli/unsupported_win.c
)

# Appends the platform's own list (NAME_UNIX or NAME_WIN) to each shared list NAME.
function(clra_platform_sources)
  foreach(name ${ARGN})
    if(WIN32)
      set(${name} ${${name}} ${${name}_WIN} PARENT_SCOPE)
    else()
      set(${name} ${${name}} ${${name}_UNIX} PARENT_SCOPE)
    endif()
  endforeach()
endfunction()
clra_platform_sources(CLRATTACH_SOURCES CLRPROF_SOURCES CLI_SOURCES SAMPLER_SOURCES)
