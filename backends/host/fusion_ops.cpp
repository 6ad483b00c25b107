// The host backends' fused element-wise evaluation: the shared host block loop (frontend/src/host/fused.hpp)
// over the backend's own element-wise methods (self_), so fused results are bit-identical to eager ones.
#include "backends/host/host_ops.hpp"
#include "host/fused.hpp"

namespace ember::host {

bool HostOps::fuses(ElementOp /*op*/, DType /*dtype*/, DType /*operand_dtype*/, Device device) {
  return device == Device::cpu();
}

void HostOps::fused_elementwise(const FusedProgram& program, Tensor& out) {
  host::run_fused(self_, program, out);
}

}  // namespace ember::host
