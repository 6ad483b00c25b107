// PLACEHOLDER: replaced by the real frontend solver ops.
#include "ember/ops/solver.hpp"
#include "ember/error.hpp"

namespace ember::ops {

Tensor solve(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("solve: pending"); }
Tensor inv(const Tensor& /*a*/) { throw Error("inv: pending"); }
Tensor det(const Tensor& /*a*/) { throw Error("det: pending"); }
Tensor cholesky(const Tensor& /*a*/) { throw Error("cholesky: pending"); }
QRResult qr(const Tensor& /*a*/) { throw Error("qr: pending"); }
SVDResult svd(const Tensor& /*a*/, bool /*full_matrices*/, bool /*compute_uv*/) { throw Error("svd: pending"); }
EighResult eigh(const Tensor& /*a*/) { throw Error("eigh: pending"); }
LstsqResult lstsq(const Tensor& /*a*/, const Tensor& /*b*/, std::optional<double> /*rcond*/) { throw Error("lstsq: pending"); }
Tensor norm(const Tensor& /*x*/, std::optional<std::string> /*ord*/, Axes /*axis*/, bool /*keepdims*/) { throw Error("norm: pending"); }
Tensor diag(const Tensor& /*x*/, std::int64_t /*k*/) { throw Error("diag: pending"); }
Tensor diagonal(const Tensor& /*x*/, std::int64_t /*offset*/, std::int64_t /*axis1*/, std::int64_t /*axis2*/) { throw Error("diagonal: pending"); }
Tensor trace(const Tensor& /*x*/, std::int64_t /*offset*/) { throw Error("trace: pending"); }
Tensor outer(const Tensor& /*a*/, const Tensor& /*b*/) { throw Error("outer: pending"); }

}  // namespace ember::ops
