# libFuzzer targets: one binary per parser family of tests/fuzz/fuzz_parsers.c, the library and
# the SDK instrumented for coverage, built only by clang when -fsanitize=fuzzer links (Debian:
# libclang-rt-14-dev, installed by scripts/setup.sh with CLRA_WITH_CLANG=1). ctest label `fuzz`
# runs each for CLRA_FUZZ_SECONDS (default 3) from the kept seeds in tests/fuzz/corpus/NAME;
# what it finds goes to the build tree's fuzz-corpus/NAME, never into the sources.
# scripts/reliability.sh runs them longer.
set(CLRA_FUZZ_SECONDS 3 CACHE STRING "seconds each libFuzzer target runs under ctest")
set(CLRA_FUZZ_TARGETS advertise ids reply reader process_info environment text nettrace
    provider_spec assembly nettrace_decoder runtime_events counters heap cpu_samples render drain
    profile_events)

if(CMAKE_C_COMPILER_ID MATCHES "Clang")
  include(CheckCSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer,address,undefined")
  set(CMAKE_REQUIRED_LINK_OPTIONS "-fsanitize=fuzzer,address,undefined")
  check_c_source_compiles("#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }"
                          CLRA_HAVE_LIBFUZZER)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
endif()

if(CLRA_HAVE_LIBFUZZER)
  set(CLRA_FUZZ_COMPILE -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
      -fno-omit-frame-pointer -g)
  add_library(clrattach_fuzzlib STATIC ${CLRATTACH_SOURCES})
  target_include_directories(clrattach_fuzzlib PUBLIC ${CLRA_PUBLIC_INCLUDES}
                             PRIVATE ${CLRATTACH_PRIVATE_INCLUDE})
  target_compile_options(clrattach_fuzzlib PRIVATE ${CLRA_FUZZ_COMPILE})
  # The CLI's renderers, the sampler's drain parser and profile's event modes (with the JSON
  # writer their reports use), for the render, drain and profile_events targets.
  add_library(clrcli_fuzzlib STATIC ${RENDER_SOURCES} src/cli/profile/profile_drain.c
              ${PROFILE_EVENTS_SOURCES} src/cli/base/output.c src/cli/base/platform_unix.c)
  target_include_directories(clrcli_fuzzlib PUBLIC src/cli PRIVATE ${CLRATTACH_PRIVATE_INCLUDE})
  target_link_libraries(clrcli_fuzzlib PUBLIC clrattach_fuzzlib)
  target_compile_options(clrcli_fuzzlib PRIVATE ${CLRA_FUZZ_COMPILE})
  add_library(clrprof_fuzzlib STATIC ${CLRPROF_SOURCES})
  target_include_directories(clrprof_fuzzlib PUBLIC ${CLRA_PUBLIC_INCLUDES}
                             PRIVATE ${CLRPROF_PRIVATE_INCLUDE})
  target_compile_options(clrprof_fuzzlib PRIVATE ${CLRA_FUZZ_COMPILE})
  foreach(name ${CLRA_FUZZ_TARGETS})
    add_executable(fuzz_${name} tests/fuzz/fuzz_parsers.c)
    target_compile_definitions(fuzz_${name} PRIVATE CLRA_FUZZ_ONE=fuzz_${name})
    target_include_directories(fuzz_${name} PRIVATE ${CLRATTACH_PRIVATE_INCLUDE} tests/common)
    target_compile_options(fuzz_${name} PRIVATE ${CLRA_FUZZ_COMPILE})
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer,address,undefined)
    target_link_libraries(fuzz_${name} PRIVATE clrcli_fuzzlib clrattach_fuzzlib clrprof_fuzzlib
                          Threads::Threads)
    file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/fuzz-corpus/${name})
    add_test(NAME fuzz.${name}
             COMMAND fuzz_${name} -max_total_time=${CLRA_FUZZ_SECONDS} -timeout=10
                     -rss_limit_mb=2048 -print_final_stats=1
                     ${CMAKE_BINARY_DIR}/fuzz-corpus/${name}
                     ${CMAKE_SOURCE_DIR}/tests/fuzz/corpus/${name})
    set_tests_properties(fuzz.${name} PROPERTIES LABELS fuzz TIMEOUT 120)
  endforeach()
elseif(CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(STATUS "libFuzzer targets not built: -fsanitize=fuzzer does not link "
                 "(install libclang-rt-14-dev: CLRA_WITH_CLANG=1 scripts/setup.sh)")
endif()
