# Included by the top-level CMakeLists.txt after the `ember` target. `cmake --install <build> --component ember`
# installs the library for other projects to link:
#   include/ember/...                          the public headers (frontend/include/ember/)
#   lib/libember.a
#   lib/cmake/Ember/EmberConfig.cmake, EmberConfigVersion.cmake, EmberTargets*.cmake
#                                              find_package(Ember CONFIG): the imported target Ember::ember,
#                                              with the libraries libember links found for the user
#   lib/pkgconfig/ember.pc                     pkg-config --cflags --libs ember
# Both are relocatable: the prefix may be moved after the install. The same layout as emberlint's package
# (cmake/EmberlintInstall.cmake): GNUInstallDirs folders, one component, a SameMinorVersion version file.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(EMBER_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Ember)
set(EMBER_INSTALL_PKGCONFIGDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(TARGETS ember EXPORT EmberTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT ember
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT ember)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/frontend/include/ember DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT ember FILES_MATCHING PATTERN "*.hpp")
install(EXPORT EmberTargets NAMESPACE Ember:: DESTINATION ${EMBER_INSTALL_CMAKEDIR} COMPONENT ember)

# What libember was built with decides what its users must link: EmberConfig.cmake finds exactly these.
set(EMBER_WITH_BLAS OFF)
set(EMBER_WITH_OPENCL OFF)
set(EMBER_WITH_CLBLAST OFF)
set(_ember_pc_requires openblas)
if(EMBER_BLAS_SOURCES)
  set(EMBER_WITH_BLAS ON)
  list(APPEND _ember_pc_requires lapacke)
endif()
if(EMBER_OPENCL_SOURCES)
  set(EMBER_WITH_OPENCL ON)
  list(APPEND _ember_pc_requires OpenCL)
  if(TARGET clblast)
    set(EMBER_WITH_CLBLAST ON)
    list(APPEND _ember_pc_requires clblast)
  endif()
endif()

set(_ember_package_dir ${CMAKE_BINARY_DIR}/cmake/Ember)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/EmberConfig.cmake.in
  ${_ember_package_dir}/EmberConfig.cmake
  INSTALL_DESTINATION ${EMBER_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the API, so only the same X.Y is compatible (as emberlint's package).
write_basic_package_version_file(${_ember_package_dir}/EmberConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${_ember_package_dir}/EmberConfig.cmake ${_ember_package_dir}/EmberConfigVersion.cmake
        DESTINATION ${EMBER_INSTALL_CMAKEDIR} COMPONENT ember)

# ember.pc: the prefix is found from the file's own place (${pcfiledir}), so a moved prefix still works.
# libember is a static archive, so the libraries it calls are in Requires (pkg-config --libs lists them
# without --static), and -pthread for the host thread pool.
if(IS_ABSOLUTE "${EMBER_INSTALL_PKGCONFIGDIR}")
  set(EMBER_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _ember_pc_up "/${EMBER_INSTALL_PKGCONFIGDIR}" "/")
  string(REGEX REPLACE "/$" "" _ember_pc_up "${_ember_pc_up}")
  set(EMBER_PC_PREFIX "\${pcfiledir}/${_ember_pc_up}")
endif()
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(EMBER_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(EMBER_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
list(JOIN _ember_pc_requires " " EMBER_PC_REQUIRES)
get_target_property(_ember_public_definitions ember INTERFACE_COMPILE_DEFINITIONS)
set(EMBER_PC_CFLAGS "")
foreach(definition IN LISTS _ember_public_definitions)
  string(APPEND EMBER_PC_CFLAGS " -D${definition}")
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/ember.pc.in ${_ember_package_dir}/ember.pc @ONLY)
install(FILES ${_ember_package_dir}/ember.pc DESTINATION ${EMBER_INSTALL_PKGCONFIGDIR} COMPONENT ember)
