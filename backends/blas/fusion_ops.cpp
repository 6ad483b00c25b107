// The BLAS backend's fused element-wise evaluation: the shared host block loop (frontend/src/host/fused.hpp)
// over this backend's own element-wise methods, so fused results are bit-identical to eager ones.
#include "blas_backend.hpp"
#include "host/fused.hpp"

namespace ember::blas {

bool BlasBackend::fuses(ElementOp /*op*/, DType /*dtype*/, DType /*operand_dtype*/, Device device) {
  return device == Device::cpu();
}

void BlasBackend::fused_elementwise(const FusedProgram& program, Tensor& out) {
  host::run_fused(*this, program, out);
}

}  // namespace ember::blas
