# The installed ember package, used from outside (ctest ember_install; CMakeLists.txt at the top adds it):
#   1. `cmake --install BUILD_DIR --component ember` into WORK_DIR/stage: headers, libember.a, the CMake
#      package and ember.pc are there, and no installed file names the build or source folder;
#   2. the prefix is moved (WORK_DIR/moved): both packages must find themselves from where they are;
#   3. this folder's project is built with find_package(Ember CONFIG) and run: every backend the library has
#      computes known results (main.cpp); a version the package does not offer is refused;
#   4. main.cpp is built again with `c++ -std=c++20 main.cpp $(pkg-config --cflags --libs ember)` and run.
#
#   cmake -DBUILD_DIR=... -DWORK_DIR=... -DCONSUMER=<this folder> -DSOURCE_DIR=... -DLIBDIR=lib -DCXX=c++
#         -DPKG_CONFIG=pkg-config -DGENERATOR=Ninja [-DMAKE_PROGRAM=ninja] -DVERSION=X.Y.Z -P install_test.cmake
cmake_minimum_required(VERSION 3.20)
foreach(var BUILD_DIR WORK_DIR CONSUMER SOURCE_DIR LIBDIR CXX PKG_CONFIG GENERATOR VERSION)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "install_test.cmake: -D${var}=... is required")
  endif()
endforeach()

# run(WHAT COMMAND...): runs the command; its output goes to OUT. Fails the test, with the output, if the
# exit status is not 0.
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} failed (${status}):\n${ARGN}\n${out}\n${err}")
  endif()
  set(OUT "${out}" PARENT_SCOPE)
endfunction()

# The consumer's output: one `<backend>: ok` line per backend, eigen's and blas's among them, none wrong.
function(expect_all_ok what output)
  foreach(backend eigen blas)
    if(NOT output MATCHES "(^|\n)${backend}: ok\n")
      message(FATAL_ERROR "${what}: no '${backend}: ok' line in its output:\n${output}")
    endif()
  endforeach()
  if(output MATCHES "wrong")
    message(FATAL_ERROR "${what}: a wrong result:\n${output}")
  endif()
  message(STATUS "${what}:\n${output}")
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
set(stage "${WORK_DIR}/stage")
set(prefix "${WORK_DIR}/moved")

# 1. install
run("cmake --install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --component ember --prefix "${stage}")
foreach(file include/ember/ember.hpp include/ember/ops/math.hpp ${LIBDIR}/libember.a
        ${LIBDIR}/cmake/Ember/EmberConfig.cmake ${LIBDIR}/cmake/Ember/EmberConfigVersion.cmake
        ${LIBDIR}/cmake/Ember/EmberTargets.cmake ${LIBDIR}/pkgconfig/ember.pc)
  if(NOT EXISTS "${stage}/${file}")
    message(FATAL_ERROR "cmake --install --component ember did not install ${file}")
  endif()
endforeach()
if(EXISTS "${stage}/bin/emberlint")
  message(FATAL_ERROR "--component ember installed emberlint too")
endif()
file(GLOB_RECURSE installed LIST_DIRECTORIES false "${stage}/*.cmake" "${stage}/*.pc" "${stage}/*.hpp")
foreach(file IN LISTS installed)
  file(READ "${file}" text)
  foreach(folder "${BUILD_DIR}" "${SOURCE_DIR}" "${stage}")
    string(FIND "${text}" "${folder}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "the installed ${file} names ${folder}: the package would not survive a move")
    endif()
  endforeach()
endforeach()

# 2. move
file(RENAME "${stage}" "${prefix}")

# 3. find_package(Ember CONFIG)
set(configure "${CMAKE_COMMAND}" -S "${CONSUMER}" -G "${GENERATOR}" -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_BUILD_TYPE=Release)
if(MAKE_PROGRAM)
  list(APPEND configure -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
run("configuring the consumer project" ${configure} -B "${WORK_DIR}/cmake")
run("building the consumer project" "${CMAKE_COMMAND}" --build "${WORK_DIR}/cmake")
run("the consumer built with CMake" "${WORK_DIR}/cmake/consumer")
expect_all_ok("the consumer built with CMake" "${OUT}")
execute_process(COMMAND ${configure} -B "${WORK_DIR}/cmake-9.9" -DEMBER_WANT_VERSION=9.9
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(status EQUAL 0 OR NOT err MATCHES "version: ${VERSION}")
  message(FATAL_ERROR "find_package(Ember 9.9) against ember ${VERSION}: exit ${status}, expected a refusal "
                      "naming the version found:\n${out}\n${err}")
endif()

# 4. pkg-config
set(pc_env "${CMAKE_COMMAND}" -E env "PKG_CONFIG_PATH=${prefix}/${LIBDIR}/pkgconfig")
run("pkg-config --modversion ember" ${pc_env} "${PKG_CONFIG}" --modversion ember)
string(STRIP "${OUT}" modversion)
if(NOT modversion STREQUAL VERSION)
  message(FATAL_ERROR "pkg-config --modversion ember: '${modversion}', expected '${VERSION}'")
endif()
run("pkg-config --cflags --libs ember" ${pc_env} "${PKG_CONFIG}" --cflags --libs ember)
string(STRIP "${OUT}" flags)
if(NOT flags MATCHES "-I${prefix}/")
  message(FATAL_ERROR "pkg-config --cflags ember does not point into the moved prefix: ${flags}")
endif()
separate_arguments(flags UNIX_COMMAND "${flags}")
run("compiling main.cpp with pkg-config's flags" "${CXX}" -std=c++20 -O1 "${CONSUMER}/main.cpp" ${flags}
    -o "${WORK_DIR}/consumer_pkg_config")
run("the consumer built with pkg-config" "${WORK_DIR}/consumer_pkg_config")
expect_all_ok("the consumer built with pkg-config" "${OUT}")
