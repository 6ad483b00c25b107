// PLACEHOLDER: replaced by the real math ops.
#include "eigen_backend.hpp"

namespace ember::eigen {

void EigenBackend::add(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: add pending"); }
void EigenBackend::subtract(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: subtract pending"); }
void EigenBackend::multiply(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: multiply pending"); }
void EigenBackend::divide(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: divide pending"); }
void EigenBackend::floor_divide(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: floor_divide pending"); }
void EigenBackend::mod(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: mod pending"); }
void EigenBackend::power(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: power pending"); }
void EigenBackend::minimum(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: minimum pending"); }
void EigenBackend::maximum(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: maximum pending"); }
void EigenBackend::negative(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: negative pending"); }
void EigenBackend::abs(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: abs pending"); }
void EigenBackend::sign(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: sign pending"); }
void EigenBackend::square(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: square pending"); }
void EigenBackend::sqrt(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: sqrt pending"); }
void EigenBackend::exp(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: exp pending"); }
void EigenBackend::expm1(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: expm1 pending"); }
void EigenBackend::log(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: log pending"); }
void EigenBackend::log1p(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: log1p pending"); }
void EigenBackend::log2(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: log2 pending"); }
void EigenBackend::log10(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: log10 pending"); }
void EigenBackend::sin(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: sin pending"); }
void EigenBackend::cos(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: cos pending"); }
void EigenBackend::tan(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: tan pending"); }
void EigenBackend::sinh(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: sinh pending"); }
void EigenBackend::cosh(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: cosh pending"); }
void EigenBackend::tanh(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: tanh pending"); }
void EigenBackend::floor(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: floor pending"); }
void EigenBackend::ceil(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: ceil pending"); }
void EigenBackend::round(const Tensor& /*x*/, Tensor& /*out*/) { throw BackendError("eigen: round pending"); }
void EigenBackend::clip(const Tensor& /*x*/, std::optional<Scalar> /*lo*/, std::optional<Scalar> /*hi*/, Tensor& /*out*/) { throw BackendError("eigen: clip pending"); }
void EigenBackend::matmul(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: matmul pending"); }
void EigenBackend::dot(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: dot pending"); }
void EigenBackend::sum(const Tensor& /*x*/, const std::vector<int>& /*axes*/, Tensor& /*out*/) { throw BackendError("eigen: sum pending"); }
void EigenBackend::prod(const Tensor& /*x*/, const std::vector<int>& /*axes*/, Tensor& /*out*/) { throw BackendError("eigen: prod pending"); }
void EigenBackend::mean(const Tensor& /*x*/, const std::vector<int>& /*axes*/, Tensor& /*out*/) { throw BackendError("eigen: mean pending"); }
void EigenBackend::var(const Tensor& /*x*/, const std::vector<int>& /*axes*/, double /*ddof*/, Tensor& /*out*/) { throw BackendError("eigen: var pending"); }
void EigenBackend::std(const Tensor& /*x*/, const std::vector<int>& /*axes*/, double /*ddof*/, Tensor& /*out*/) { throw BackendError("eigen: std pending"); }
void EigenBackend::min(const Tensor& /*x*/, const std::vector<int>& /*axes*/, Tensor& /*out*/) { throw BackendError("eigen: min pending"); }
void EigenBackend::max(const Tensor& /*x*/, const std::vector<int>& /*axes*/, Tensor& /*out*/) { throw BackendError("eigen: max pending"); }
void EigenBackend::argmin(const Tensor& /*x*/, int /*axis*/, Tensor& /*out*/) { throw BackendError("eigen: argmin pending"); }
void EigenBackend::argmax(const Tensor& /*x*/, int /*axis*/, Tensor& /*out*/) { throw BackendError("eigen: argmax pending"); }
void EigenBackend::cumsum(const Tensor& /*x*/, int /*axis*/, Tensor& /*out*/) { throw BackendError("eigen: cumsum pending"); }

}  // namespace ember::eigen
