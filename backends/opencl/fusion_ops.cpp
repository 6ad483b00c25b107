// OpenCL backend, category "fusion": not fused yet; every element-wise op runs as its own kernel.
#include "opencl_backend.hpp"

namespace ember::opencl {

bool OpenCLBackend::fuses(ElementOp /*op*/, DType /*dtype*/, DType /*operand_dtype*/, Device /*device*/) {
  return false;
}

void OpenCLBackend::fused_elementwise(const FusedProgram& /*program*/, Tensor& /*out*/) {
  throw BackendError("opencl: fused_elementwise: no fused kernels yet");
}

}  // namespace ember::opencl
