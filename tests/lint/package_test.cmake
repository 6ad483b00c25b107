# emberlint's Debian package (ctest emberlint_package; cmake/EmberlintPackage.cmake makes it):
#   1. cpack writes exactly one emberlint_<version>_<arch>.deb from BUILD_DIR;
#   2. its control fields: package emberlint at emberlint's own version, depending on the libclang runtime
#      the executable was linked with (libclang1-<N>) and on libclang's builtin headers
#      (libclang-common-<N>-dev);
#   3. its files: /usr/bin/emberlint, the CMake package, the Bazel rules, and the doc of every rule
#      `emberlint rules` lists;
#   4. unpacked into a folder (dpkg-deb -x), its emberlint prints the version and checks the fixture project
#      tests/lint/fixtures/package: exit 1 with exactly the planted EL100 and EL101, which needs the builtin
#      <stddef.h> found through the installed libclang.
# (scripts/setup.sh's fresh-root stage installs the package with apt in a fresh Debian root and checks the same
# project with /usr/bin/emberlint.)
#
#   cmake -DBUILD_DIR=... -DWORK_DIR=... -DEMBERLINT=<built emberlint> -DPROJECT=<fixture> -DLLVM_MAJOR=19
#         -DVERSION=X.Y.Z -P package_test.cmake
cmake_minimum_required(VERSION 3.20)
foreach(var BUILD_DIR WORK_DIR EMBERLINT PROJECT LLVM_MAJOR VERSION)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "package_test.cmake: -D${var}=... is required")
  endif()
endforeach()

# run(WHAT EXPECTED_STATUS COMMAND...): runs the command in WORK_DIR; OUT is its stdout and stderr. Fails the
# test, with the output, if the exit status is not EXPECTED_STATUS.
function(run what expected)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE status OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT "${status}" STREQUAL "${expected}")
    message(FATAL_ERROR "${what}: exit status ${status}, expected ${expected}:\n${ARGN}\n${out}\n${err}")
  endif()
  set(OUT "${out}${err}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

# 1. the package
run("cpack" 0 "${CMAKE_CPACK_COMMAND}" --config "${BUILD_DIR}/CPackConfig.cmake" -B "${WORK_DIR}/out")
file(GLOB debs "${WORK_DIR}/out/*.deb")
list(LENGTH debs count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "cpack wrote ${count} .deb files, expected one: ${debs}")
endif()
get_filename_component(deb_name "${debs}" NAME)
if(NOT deb_name MATCHES "^emberlint_${VERSION}_[a-z0-9]+\\.deb$")
  message(FATAL_ERROR "the package is named ${deb_name}, expected emberlint_${VERSION}_<arch>.deb")
endif()

# 2. control fields
foreach(field Package Version Depends)
  run("dpkg-deb -f ${field}" 0 dpkg-deb -f "${debs}" ${field})
  string(STRIP "${OUT}" value)
  set(control_${field} "${value}")
endforeach()
if(NOT control_Package STREQUAL "emberlint" OR NOT control_Version STREQUAL "${VERSION}")
  message(FATAL_ERROR "the package is '${control_Package}' version '${control_Version}', expected emberlint ${VERSION}")
endif()
foreach(dependency "libclang1-${LLVM_MAJOR}" "libclang-common-${LLVM_MAJOR}-dev" "libstdc\\+\\+6")
  if(NOT control_Depends MATCHES "(^|, )${dependency}( |,|$)")
    message(FATAL_ERROR "Depends: ${control_Depends}\nlacks ${dependency}")
  endif()
endforeach()

# 3. files
run("dpkg-deb -c" 0 dpkg-deb -c "${debs}")
set(listing "${OUT}")
run("emberlint rules" 0 "${EMBERLINT}" rules)
string(REGEX MATCHALL "(^|\n)EL[0-9]+" codes "${OUT}")
list(LENGTH codes rule_count)
if(rule_count LESS 10)
  message(FATAL_ERROR "emberlint rules listed ${rule_count} rules:\n${OUT}")
endif()
set(expected_files ./usr/bin/emberlint ./usr/lib/cmake/Emberlint/EmberlintConfig.cmake
    ./usr/lib/cmake/Emberlint/EmberlintConfigVersion.cmake ./usr/lib/cmake/Emberlint/Emberlint.cmake
    ./usr/share/emberlint/bazel/WORKSPACE ./usr/share/emberlint/bazel/BUILD.bazel
    ./usr/share/emberlint/bazel/emberlint.bzl ./usr/share/emberlint/bazel/repositories.bzl)
foreach(code ${codes})
  string(STRIP "${code}" code)
  list(APPEND expected_files ./usr/share/doc/emberlint/rules/${code}.md)
endforeach()
foreach(file ${expected_files})
  string(REPLACE "+" "\\+" pattern "${file}")
  string(REPLACE "." "\\." pattern "${pattern}")
  if(NOT listing MATCHES " ${pattern}\n")
    message(FATAL_ERROR "the package has no ${file}:\n${listing}")
  endif()
endforeach()

# 4. the unpacked executable
run("dpkg-deb -x" 0 dpkg-deb -x "${debs}" "${WORK_DIR}/root")
set(unpacked "${WORK_DIR}/root/usr/bin/emberlint")
run("emberlint --version" 0 "${unpacked}" --version)
if(NOT OUT MATCHES "${VERSION}")
  message(FATAL_ERROR "the packaged emberlint says '${OUT}', expected version ${VERSION}")
endif()
file(COPY "${PROJECT}/" DESTINATION "${WORK_DIR}/project")
execute_process(COMMAND "${unpacked}" check --no-cache --format json src WORKING_DIRECTORY "${WORK_DIR}/project"
                RESULT_VARIABLE status OUTPUT_VARIABLE report ERROR_VARIABLE err)
if(NOT status EQUAL 1)
  message(FATAL_ERROR "the packaged emberlint's check exited ${status}, expected 1 (findings):\n${report}\n${err}")
endif()
string(JSON failures LENGTH "${report}" failures)
if(NOT failures EQUAL 0)
  message(FATAL_ERROR "the packaged emberlint could not parse ${failures} file(s) of the fixture:\n${report}\n${err}")
endif()
string(JSON findings LENGTH "${report}" diagnostics)
set(seen "")
math(EXPR last "${findings} - 1")
foreach(i RANGE ${last})
  string(JSON rule GET "${report}" diagnostics ${i} code)
  string(JSON file GET "${report}" diagnostics ${i} file)
  list(APPEND seen "${rule} ${file}")
endforeach()
list(SORT seen)
if(NOT seen STREQUAL "EL100 src/front/api.cpp;EL101 src/front/api.cpp")
  message(FATAL_ERROR "the packaged emberlint found: ${seen}\nexpected EL100 and EL101 in src/front/api.cpp:\n${report}\n${err}")
endif()
if(err MATCHES "stddef|not found|error")
  message(FATAL_ERROR "the packaged emberlint reported a parse problem:\n${err}")
endif()
message(STATUS "${deb_name}: Depends: ${control_Depends}; ${findings} findings in the fixture, as planted")
