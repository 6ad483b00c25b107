// The host backends' dtype ops: element-wise conversion with NumPy's astype results and defined edge cases
// (saturating float -> integer, NaN -> 0, one correctly rounded step to float16), as the shared host loop
// (frontend/src/host/math_kernels.hpp) computes it.
#include "backends/host/host_ops.hpp"
#include "host/math_kernels.hpp"

namespace ember::host {

void HostOps::cast(const Tensor& x, Tensor& out) {
  host::cast(x, out);
}

bool HostOps::supports_dtype(DType /*dtype*/, Device device) {
  return device == Device::cpu();
}

}  // namespace ember::host
