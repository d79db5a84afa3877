# api-renames.sed - the public renames of libclrattach 0.2 (see CHANGELOG.md).
# Apply with: sed -i -E -f scripts/api-renames.sed FILE...   (GNU sed; \b is a word boundary)
# Longest names first, so that a name never half-matches a longer one. Struct tags are not
# meant: "struct clra_process_info" / "struct clra_stage" (only in the header) must stay.
#
# Pure renames: same arguments, new name.
s/\bclra_trace_command_version\b/clra_trace_config_version/g
s/\bclra_trace_command_runtime\b/clra_trace_version_runtime/g
s/\bclra_reverse_listen\b/clra_reverse_server_listen/g
s/\bclra_reverse_close\b/clra_reverse_server_close/g
s/\bclra_reverse_wait\b/clra_reverse_server_wait/g
s/\bclra_profilers_find\b/clra_profiler_list/g
s/\bclra_wait_unmapped\b/clra_library_wait_unmapped/g
s/\bclra_target_path\b/clra_target_path_resolve/g
s/\bclra_process_environment\b/clra_environment_get/g
s/\bclra_set_environment\b/clra_environment_set/g
s/\bclra_resume_runtime\b/clra_runtime_resume/g
s/\bclra_process_info\b/clra_process_info_get/g
#
# Renamed AND given a new signature (a const clra_target_t * instead of a pid, an endpoint or a
# descriptor; attach gains flags; stages are opaque): the name is rewritten here, the arguments
# must be fixed by hand (the compiler points at each).
s/\bclra_apply_startup_hook_at\b/clra_startup_hook_apply/g
s/\bclra_apply_startup_hook\b/clra_startup_hook_apply/g
s/\bclra_attach_profiler_at\b/clra_profiler_attach/g
s/\bclra_attach_profiler\b/clra_profiler_attach/g
s/\bclra_startup_profiler\b/clra_profiler_startup_register/g
s/\bclra_reverse_endpoint\b/clra_reverse_server_accept/g
s/\bclra_trace_start_at\b/clra_trace_start/g
s/\bclra_trace_start_on\b/clra_trace_start/g
s/\bclra_trace_stop_on\b/clra_trace_stop/g
s/\bclra_dump_at\b/clra_dump_create/g
s/\bclra_dump\b/clra_dump_create/g
s/\bclra_unstage\b/clra_stage_remove/g
s/\bclra_stage\b/clra_stage_create/g
