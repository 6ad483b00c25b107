# Included by lint/CMakeLists.txt. `cmake --install <build> --component emberlint` installs:
#   bin/emberlint
#   share/doc/emberlint/rules/<CODE>.md        every rule's explanation (`emberlint rule <CODE>`), written
#                                              into <build>/share/doc/emberlint/rules each time emberlint links
#   share/emberlint/bazel/                     the Bazel aspect and rules (bazel/), a repository of their own
#   lib/cmake/Emberlint/EmberlintConfig.cmake, EmberlintConfigVersion.cmake, Emberlint.cmake
#                                              find_package(Emberlint CONFIG): Emberlint::emberlint and
#                                              emberlint_add_check() (cmake/Emberlint.cmake)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The package version is emberlint's own (lint/version.hpp), which `emberlint --version` prints.
file(STRINGS ${EMBERLINT_ROOT}/lint/version.hpp _emberlint_version_line REGEX "kVersion = \"[0-9.]+\"")
string(REGEX MATCH "[0-9]+\\.[0-9]+\\.[0-9]+" EMBERLINT_VERSION "${_emberlint_version_line}")
if(NOT EMBERLINT_VERSION)
  message(FATAL_ERROR "emberlint: no kVersion = \"X.Y.Z\" in ${EMBERLINT_ROOT}/lint/version.hpp")
endif()

set(EMBERLINT_RULE_DOCS_BUILD_DIR ${CMAKE_BINARY_DIR}/share/doc/emberlint/rules)
add_custom_command(TARGET emberlint POST_BUILD
  COMMAND ${CMAKE_COMMAND} -DEMBERLINT=$<TARGET_FILE:emberlint> -DOUTPUT_DIR=${EMBERLINT_RULE_DOCS_BUILD_DIR}
          -P ${EMBERLINT_ROOT}/cmake/EmberlintRuleDocs.cmake
  COMMENT "Writing emberlint's rule docs into share/doc/emberlint/rules"
  VERBATIM)

# The installed executable finds libclang where it was linked from.
set_target_properties(emberlint PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)

set(EMBERLINT_INSTALL_BINDIR ${CMAKE_INSTALL_BINDIR})
set(EMBERLINT_INSTALL_DOCDIR ${CMAKE_INSTALL_DATAROOTDIR}/doc/emberlint)
set(EMBERLINT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/Emberlint)
install(TARGETS emberlint RUNTIME DESTINATION ${EMBERLINT_INSTALL_BINDIR} COMPONENT emberlint)
install(DIRECTORY ${EMBERLINT_RULE_DOCS_BUILD_DIR}/ DESTINATION ${EMBERLINT_INSTALL_DOCDIR}/rules
        COMPONENT emberlint FILES_MATCHING PATTERN "EL*.md")
# The Bazel rules (bazel/README.md), a repository a workspace loads with local_repository.
install(DIRECTORY ${EMBERLINT_ROOT}/bazel/ DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/emberlint/bazel COMPONENT emberlint)

set(_emberlint_package_dir ${CMAKE_BINARY_DIR}/cmake/Emberlint)
configure_package_config_file(${EMBERLINT_ROOT}/cmake/EmberlintConfig.cmake.in
  ${_emberlint_package_dir}/EmberlintConfig.cmake
  INSTALL_DESTINATION ${EMBERLINT_INSTALL_CMAKEDIR}
  PATH_VARS EMBERLINT_INSTALL_BINDIR EMBERLINT_INSTALL_DOCDIR)
# 0.x: a minor version may change the command line, so only the same X.Y is compatible.
write_basic_package_version_file(${_emberlint_package_dir}/EmberlintConfigVersion.cmake
  VERSION ${EMBERLINT_VERSION} COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${_emberlint_package_dir}/EmberlintConfig.cmake ${_emberlint_package_dir}/EmberlintConfigVersion.cmake
              ${EMBERLINT_ROOT}/cmake/Emberlint.cmake
        DESTINATION ${EMBERLINT_INSTALL_CMAKEDIR} COMPONENT emberlint)
