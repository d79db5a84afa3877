# `cmake --install`: the command, the headers, the libraries, a CMake package
# (find_package(clrattach) -> clrattach::clrattach, clrattach::clrattach_static,
# clrattach::clrprof) and pkg-config files (clrattach.pc, clrprof.pc). Everything is
# relocatable: `cmake --install build --prefix DIR` and DESTDIR give a working copy.

include(CMakePackageConfigHelpers)

set_target_properties(clrattach_static PROPERTIES EXPORT_NAME clrattach_static)
install(TARGETS clrattach clrattach_static clrprof EXPORT clrattachTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS clrattach_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The sampler behind `clrattach profile` and `stack` (the command looks for it here).
install(TARGETS sampler_profiler LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/clrattach)
install(FILES include/clrattach.h ${PROJECT_BINARY_DIR}/include/clrattach_version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/clrprof DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(CLRA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/clrattach)
install(EXPORT clrattachTargets NAMESPACE clrattach:: DESTINATION ${CLRA_CMAKE_DIR})
configure_package_config_file(cmake/clrattachConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/clrattachConfig.cmake
                              INSTALL_DESTINATION ${CLRA_CMAKE_DIR})
# Compatibility: while the major version is 0 every minor release may break the API and ABI
# (the soname carries major.minor too), so find_package(clrattach 0.1) accepts 0.1.x only;
# from 1.0 on, any later version of the same major is accepted.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(CLRA_COMPATIBILITY SameMinorVersion)
else()
  set(CLRA_COMPATIBILITY SameMajorVersion)
endif()
write_basic_package_version_file(${PROJECT_BINARY_DIR}/clrattachConfigVersion.cmake
                                 COMPATIBILITY ${CLRA_COMPATIBILITY})
install(FILES ${PROJECT_BINARY_DIR}/clrattachConfig.cmake
              ${PROJECT_BINARY_DIR}/clrattachConfigVersion.cmake
        DESTINATION ${CLRA_CMAKE_DIR})

# pkg-config: paths relative to the .pc file itself (${pcfiledir}), so the installed tree can
# be moved or staged; absolute GNUInstallDirs paths are kept as they are.
set(CLRA_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE ${CLRA_PC_DIR})
  set(CLRA_PC_PREFIX ${CMAKE_INSTALL_PREFIX})
else()
  file(RELATIVE_PATH pc_up /root/${CLRA_PC_DIR} /root)
  string(REGEX REPLACE "/$" "" pc_up "${pc_up}")
  set(CLRA_PC_PREFIX "\${pcfiledir}/${pc_up}")
endif()
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE ${CMAKE_INSTALL_${dir}})
    set(CLRA_PC_${dir} ${CMAKE_INSTALL_${dir}})
  else()
    set(CLRA_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
foreach(pc clrattach clrprof)
  configure_file(cmake/${pc}.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${pc}.pc DESTINATION ${CLRA_PC_DIR})
endforeach()
