# Stress and faults against a real runtime (tests/reliability; ctest labels stress and faults).
# CI runs reduced counts (~1 min together); scripts/reliability.sh sets CLRA_RELIABILITY_FULL=1
# for the full ones and collects the FIGURE lines into docs/RELIABILITY.md.
add_executable(reliability_tests tests/reliability/test_stress.c tests/reliability/test_faults.c
               tests/reliability/test_profile_cycles.c
               tests/e2e/harness.c tests/e2e/runtime.c tests/e2e/hot_app.c tests/e2e/bg_cli.c
               tests/e2e/proc_status.c)
target_include_directories(reliability_tests PRIVATE tests/e2e tests/reliability
                           ${CLRATTACH_PRIVATE_INCLUDE})
target_link_libraries(reliability_tests PRIVATE clrattach_static clra_test_main)
get_target_property(CLRA_E2E_DEFS e2e_tests COMPILE_DEFINITIONS)
target_compile_definitions(reliability_tests PRIVATE ${CLRA_E2E_DEFS})
add_dependencies(reliability_tests test_apps)
clra_register_tests(reliability_tests stress ${CMAKE_SOURCE_DIR}/tests/reliability/test_stress.c)
clra_register_tests(reliability_tests stress
                    ${CMAKE_SOURCE_DIR}/tests/reliability/test_profile_cycles.c)
clra_register_tests(reliability_tests faults ${CMAKE_SOURCE_DIR}/tests/reliability/test_faults.c)
foreach(t sixteen_simultaneous_attaches_give_exactly_one_success
          attach_detach_cycles_keep_threads_files_and_memory_within_bounds
          eight_clients_calling_info_and_env_concurrently_all_succeed
          signal_profile_attach_profile_detach_cycles_leave_nothing_behind)
  set_tests_properties(stress.${t} PROPERTIES TIMEOUT 1800)
endforeach()
