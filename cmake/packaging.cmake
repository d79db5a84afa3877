# Man pages (scdoc; skipped with a note when scdoc is missing) and shell completion for bash
# and zsh, built and installed with the command. Each page's synopsis, options and exit codes
# are generated from the built command's --help (docs/man/render.sh), so they follow the
# option tables.

set(CLRA_MAN_VERBS attach convert counters detach dump env heap info launch perfmap profile ps resume
    setenv stack startup-hook trace)
find_program(SCDOC_EXE scdoc)
if(SCDOC_EXE AND NOT CMAKE_CROSSCOMPILING)
  set(man_pages "")
  foreach(page clrattach ${CLRA_MAN_VERBS})
    if(page STREQUAL clrattach)
      set(src clrattach.1.scd)
      set(verb -)
    else()
      set(src clrattach-${page}.1.scd)
      set(verb ${page})
    endif()
    string(REGEX REPLACE "\\.scd$" "" out ${src})
    add_custom_command(
      OUTPUT ${CMAKE_BINARY_DIR}/man/${out}
      COMMAND bash ${CMAKE_SOURCE_DIR}/docs/man/render.sh $<TARGET_FILE:clrattach_cli> ${verb}
              ${CMAKE_SOURCE_DIR}/docs/man/${src} ${CMAKE_BINARY_DIR}/man/${out}
      DEPENDS clrattach_cli docs/man/${src} docs/man/render.sh
      COMMENT "Man page ${out}")
    list(APPEND man_pages ${CMAKE_BINARY_DIR}/man/${out})
  endforeach()
  file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/man)
  add_custom_target(man_pages ALL DEPENDS ${man_pages})
  install(FILES ${man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  set(CLRA_MAN_BUILT ON)
else()
  message(STATUS "Man pages not built: scdoc not found (apt-get install scdoc)")
endif()

# Completion: where bash-completion and zsh look for them under the prefix.
install(FILES completions/clrattach.bash RENAME clrattach
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES completions/_clrattach DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)

if(CLRA_TESTS)
  # The pages list every option --help lists, and no other (tests/packaging/check_man.sh).
  if(CLRA_MAN_BUILT)
    add_test(NAME unit.man_pages_match_help
             COMMAND bash ${CMAKE_SOURCE_DIR}/tests/packaging/check_man.sh
                     $<TARGET_FILE:clrattach_cli> ${CMAKE_BINARY_DIR}/man ${CLRA_MAN_VERBS})
    set_tests_properties(unit.man_pages_match_help PROPERTIES LABELS unit)
  endif()
  add_test(NAME unit.bash_completion
           COMMAND bash ${CMAKE_SOURCE_DIR}/tests/packaging/check_completion.sh
                   ${CMAKE_SOURCE_DIR}/completions $<TARGET_FILE_DIR:clrattach_cli>)
  set_tests_properties(unit.bash_completion PROPERTIES LABELS unit)
endif()
