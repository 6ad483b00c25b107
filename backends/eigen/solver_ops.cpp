// PLACEHOLDER: replaced by the real solver ops.
#include "eigen_backend.hpp"

namespace ember::eigen {

void EigenBackend::solve(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: solve pending"); }
void EigenBackend::inv(const Tensor& /*a*/, Tensor& /*out*/) { throw BackendError("eigen: inv pending"); }
void EigenBackend::det(const Tensor& /*a*/, Tensor& /*out*/) { throw BackendError("eigen: det pending"); }
void EigenBackend::cholesky(const Tensor& /*a*/, Tensor& /*out*/) { throw BackendError("eigen: cholesky pending"); }
void EigenBackend::qr(const Tensor& /*a*/, Tensor& /*q*/, Tensor& /*r*/) { throw BackendError("eigen: qr pending"); }
void EigenBackend::svd(const Tensor& /*a*/, Tensor& /*u*/, Tensor& /*s*/, Tensor& /*vt*/, bool /*compute_uv*/) { throw BackendError("eigen: svd pending"); }
void EigenBackend::eigh(const Tensor& /*a*/, Tensor& /*w*/, Tensor& /*v*/) { throw BackendError("eigen: eigh pending"); }
void EigenBackend::lstsq(const Tensor& /*a*/, const Tensor& /*b*/, double /*rcond*/, Tensor& /*x*/, std::int64_t& /*rank*/, Tensor& /*s*/) { throw BackendError("eigen: lstsq pending"); }
void EigenBackend::norm(const Tensor& /*x*/, double /*ord*/, const std::vector<int>& /*axes*/, Tensor& /*out*/) { throw BackendError("eigen: norm pending"); }
void EigenBackend::diag(const Tensor& /*x*/, std::int64_t /*k*/, Tensor& /*out*/) { throw BackendError("eigen: diag pending"); }
void EigenBackend::diagonal(const Tensor& /*x*/, std::int64_t /*offset*/, Tensor& /*out*/) { throw BackendError("eigen: diagonal pending"); }
void EigenBackend::trace(const Tensor& /*x*/, std::int64_t /*offset*/, Tensor& /*out*/) { throw BackendError("eigen: trace pending"); }
void EigenBackend::outer(const Tensor& /*a*/, const Tensor& /*b*/, Tensor& /*out*/) { throw BackendError("eigen: outer pending"); }

}  // namespace ember::eigen
