// The BLAS backend's dtype ops: element-wise conversion with NumPy's astype results and defined edge cases
// (saturating float -> integer, NaN -> 0, one correctly rounded step to float16), as the shared host loop
// (frontend/src/host/math_kernels.hpp) computes it.
#include "blas_backend.hpp"
#include "host/math_kernels.hpp"

namespace ember::blas {

void BlasBackend::cast(const Tensor& x, Tensor& out) {
  host::cast(x, out);
}

bool BlasBackend::supports_dtype(DType /*dtype*/, Device device) {
  return device == Device::cpu();
}

}  // namespace ember::blas
