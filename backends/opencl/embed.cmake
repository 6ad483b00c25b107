# Embeds the OpenCL backend's kernel sources (backends/opencl/kernels/*.cl) and ember's shared random
# headers (philox.h, distributions.h) into the `ember` library as text, so that the OpenCL compiler never
# needs the source tree at run time. The root CMakeLists.txt include()s this file after creating `ember`.
# The generated source defines ember::opencl::embedded_source() (declared in runtime.hpp).
set(EMBER_OPENCL_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/embed_sources.cmake)
file(GLOB EMBER_OPENCL_KERNELS CONFIGURE_DEPENDS ${CMAKE_CURRENT_LIST_DIR}/kernels/*.cl)
set(EMBER_OPENCL_RANDOM_HEADERS ${PROJECT_SOURCE_DIR}/frontend/include/ember/random/philox.h
                                ${PROJECT_SOURCE_DIR}/frontend/include/ember/random/distributions.h)
# Passed to the script joined by "|": a ";" would split the command-line argument.
list(JOIN EMBER_OPENCL_KERNELS "|" EMBER_OPENCL_EMBED_INPUTS)
list(JOIN EMBER_OPENCL_RANDOM_HEADERS "|" EMBER_OPENCL_EMBED_HEADERS)
set(EMBER_OPENCL_EMBEDDED ${CMAKE_CURRENT_BINARY_DIR}/ember_opencl_embedded.cpp)
add_custom_command(
  OUTPUT ${EMBER_OPENCL_EMBEDDED}
  COMMAND ${CMAKE_COMMAND} "-DOUTPUT=${EMBER_OPENCL_EMBEDDED}" "-DHEADER=${CMAKE_CURRENT_LIST_DIR}/runtime.hpp"
          "-DINPUTS=${EMBER_OPENCL_EMBED_INPUTS}|${EMBER_OPENCL_EMBED_HEADERS}" -P ${EMBER_OPENCL_EMBED_SCRIPT}
  DEPENDS ${EMBER_OPENCL_KERNELS} ${EMBER_OPENCL_RANDOM_HEADERS} ${EMBER_OPENCL_EMBED_SCRIPT}
  COMMENT "Embedding the OpenCL kernel sources"
  VERBATIM)
target_sources(ember PRIVATE ${EMBER_OPENCL_EMBEDDED})
