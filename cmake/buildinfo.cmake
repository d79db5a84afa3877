# What `clrattach --version` says about the build: the git revision (`git describe --always
# --dirty` at configure time, "unknown" outside git or when CLRA_GIT_REVISION is given empty),
# static or dynamic, sanitizers, the compiler. Also CLRA_STATIC: a fully static command
# (with musl: scripts/build-static.sh).
option(CLRA_STATIC "Link the clrattach command fully statically (-static)" OFF)

if(NOT DEFINED CLRA_GIT_REVISION)
  find_package(Git QUIET)
  set(CLRA_GIT_REVISION unknown)
  if(GIT_FOUND)
    execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty
                    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} RESULT_VARIABLE git_rc
                    OUTPUT_VARIABLE git_out OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    if(git_rc EQUAL 0 AND git_out)
      set(CLRA_GIT_REVISION ${git_out})
    endif()
  endif()
endif()
if(CLRA_GIT_REVISION STREQUAL "")
  set(CLRA_GIT_REVISION unknown)
endif()

if(CLRA_STATIC)
  set(clra_link static)
  target_link_options(clrattach_cli PRIVATE -static)
  # No -n/--name in the static container command (cmake/sources.cmake says why).
  target_compile_definitions(clrattach_cli PRIVATE CLRA_NO_PROCESS_NAME)
else()
  set(clra_link dynamic)
endif()
if(CLRA_SANITIZE)
  set(clra_san "address,undefined")
else()
  set(clra_san none)
endif()
# CLRA_CLI_LEAVE_OUT: verbs the command leaves out, for a size budget (scripts/build-static.sh's
# container set, docs/packaging.md). Only the verbs that collect or read large output or start
# programs may go; each becomes CLRA_NO_VERB_<VERB> for src/cli/main.c.
set(CLRA_CLI_LEAVE_OUT "" CACHE STRING "Verbs to leave out of the command: any of launch;trace;convert;counters;profile;stack;dump;heap")
set(clra_left_out "")
foreach(verb IN LISTS CLRA_CLI_LEAVE_OUT)
  if(NOT verb MATCHES "^(launch|trace|convert|counters|profile|stack|dump|heap)$")
    message(FATAL_ERROR "CLRA_CLI_LEAVE_OUT: '${verb}' cannot be left out (only launch, trace, convert, counters, profile, stack, dump, heap)")
  endif()
  string(TOUPPER ${verb} verb_upper)
  target_compile_definitions(clrattach_cli PRIVATE CLRA_NO_VERB_${verb_upper})
  string(APPEND clra_left_out " ${verb}")
endforeach()
if(clra_left_out)
  set(clra_left_out "; verbs left out:${clra_left_out}")
endif()
get_filename_component(clra_cc ${CMAKE_C_COMPILER} NAME)
set(CLRA_BUILD_OPTIONS "${clra_link}; sanitizers: ${clra_san}; compiler: ${clra_cc} \
${CMAKE_C_COMPILER_ID} ${CMAKE_C_COMPILER_VERSION}; build type: ${CMAKE_BUILD_TYPE}${clra_left_out}")
configure_file(cmake/clrattach_buildinfo.h.in ${PROJECT_BINARY_DIR}/cli/clrattach_buildinfo.h
               @ONLY)
target_include_directories(clrattach_cli PRIVATE ${PROJECT_BINARY_DIR}/cli)
# A static executable loads at a fixed address: position-independent code only costs size.
if(CLRA_STATIC)
  set_target_properties(clrattach_cli clrattach_static PROPERTIES POSITION_INDEPENDENT_CODE OFF)
endif()
