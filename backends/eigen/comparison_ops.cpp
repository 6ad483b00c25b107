// PLACEHOLDER: replaced by the real comparison ops.
#include "eigen_backend.hpp"

namespace ember::eigen {

void EigenBackend::equal(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: equal pending"); }
void EigenBackend::not_equal(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: not_equal pending"); }
void EigenBackend::less(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: less pending"); }
void EigenBackend::less_equal(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: less_equal pending"); }
void EigenBackend::greater(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: greater pending"); }
void EigenBackend::greater_equal(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: greater_equal pending"); }
void EigenBackend::logical_and(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: logical_and pending"); }
void EigenBackend::logical_or(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: logical_or pending"); }
void EigenBackend::logical_xor(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: logical_xor pending"); }
void EigenBackend::logical_not(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: logical_not pending"); }
void EigenBackend::isnan(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: isnan pending"); }
void EigenBackend::isinf(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: isinf pending"); }
void EigenBackend::isfinite(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: isfinite pending"); }
void EigenBackend::isclose(const Tensor& /*a*/, const Tensor& /*b*/, double /*rtol*/, double /*atol*/, bool /*equal_nan*/, Tensor& /*out*/) { throw BackendError("eigen: isclose pending"); }
void EigenBackend::all(const Tensor& /*x*/, const std::vector<int>& /*axes*/, Tensor& /*out*/) { throw BackendError("eigen: all pending"); }
void EigenBackend::any(const Tensor& /*x*/, const std::vector<int>& /*axes*/, Tensor& /*out*/) { throw BackendError("eigen: any pending"); }
void EigenBackend::where(const Tensor& /*cond*/, const Tensor& /*x*/, const Tensor& /*y*/, Tensor& /*out*/) { throw BackendError("eigen: where pending"); }

}  // namespace ember::eigen
