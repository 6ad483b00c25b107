// PLACEHOLDER: replaced by the real dtype ops.
#include "eigen_backend.hpp"

namespace ember::eigen {

void EigenBackend::cast(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: cast pending"); }
bool EigenBackend::supports_dtype(DType /*dtype*/, Device /*device*/) { throw BackendError("eigen: supports_dtype pending"); }

}  // namespace ember::eigen
