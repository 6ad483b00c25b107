// Build statistics of the OpenCL backend for tests: free of OpenCL headers, so a test can include it
// (runtime.hpp, which declares the same function, is private to backends/opencl/).
#pragma once

#include <cstddef>

namespace ember::opencl {

// How many programs DeviceContext::kernel_from_source has built in this process, over all devices: one per
// generated program key (for fused kernels, FusedProgram::structure()) and device.
std::size_t generated_programs_built();
// How many times fusion_ops.cpp has written a fused program's source text: once per structure and device
// (the text is made only for a program not yet built), never per call.
std::size_t fused_sources_written();

}  // namespace ember::opencl
