# Included by cli/CMakeLists.txt after EmberlintInstall.cmake. `cpack --config <build>/CPackConfig.cmake` (or
# `cmake --build <build> --target package`) writes emberlint_<version>_<arch>.deb: the `emberlint` install
# component (bin/emberlint, the rule docs, the CMake package) under /usr. Its dependencies are those of the
# executable as dpkg-shlibdeps reads them (libclang1-<N> for the libclang it was linked with, libstdc++6,
# libc6), plus libclang-common-<N>-dev: the builtin headers (stddef.h, the intrinsics) libclang needs to parse
# anything, which emberlint looks for next to the loaded libclang (lint/compile/compile_db.cpp).
# tests/lint/package_test.cmake checks the package; scripts/setup.sh's fresh-root stage installs it with apt.

# libclang-19.so.19 -> 19: the LLVM major version of the libclang that emberlint links.
get_filename_component(_emberlint_libclang_real ${LIBCLANG_LIBRARY} REALPATH)
string(REGEX MATCH "libclang-([0-9]+)\\.so" _emberlint_libclang_match "${_emberlint_libclang_real}")
set(EMBERLINT_LLVM_MAJOR "${CMAKE_MATCH_1}")
if(NOT EMBERLINT_LLVM_MAJOR)
  string(REGEX MATCH "llvm-([0-9]+)" _emberlint_libclang_match "${EMBERLINT_LLVM_PREFIX}")
  set(EMBERLINT_LLVM_MAJOR "${CMAKE_MATCH_1}")
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME emberlint)
set(CPACK_PACKAGE_VERSION ${EMBERLINT_VERSION})
set(CPACK_PACKAGE_VENDOR "Ember maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "static analyzer for multi-backend numeric C++ (frontend/backend purity, ops inventory)")
set(CPACK_PACKAGE_DESCRIPTION
    "emberlint checks C++ code bases that put one frontend API over several backends (Eigen, BLAS, OpenCL,
...): backend code in the frontend, one backend's symbols in another, tensor operators where the ops API is
required, scalars pulled out of device tensors; and it builds the operations inventory across backends.
It reads the compile database and parses with libclang.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES TRUE)

# One package, of the emberlint component only (the ember library's files are another component).
set(CPACK_COMPONENTS_ALL emberlint)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ALL_COMPONENTS_IN_ONE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # emberlint_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_NAME emberlint)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "Ember maintainers <maintainers@users.noreply.a-seed-bd9d37a5.example>")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(EMBERLINT_LLVM_MAJOR)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libclang-common-${EMBERLINT_LLVM_MAJOR}-dev")
endif()
# clang's driver finds a compile database's compiler and its include folders when the database names one.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "clang-${EMBERLINT_LLVM_MAJOR}, git")

include(CPack)
