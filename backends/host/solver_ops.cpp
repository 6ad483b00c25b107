// The host backends' share of category "solver": the diagonal ops, norm and outer as the shared host loops
// (frontend/src/host/). The decompositions (solve, inv, det, cholesky, qr, svd, eigh, lstsq) are each host
// backend's own.
#include <cstdint>
#include <vector>

#include "backends/host/host_ops.hpp"
#include "host/math_kernels.hpp"
#include "host/tensor_kernels.hpp"

namespace ember::host {

void HostOps::norm(const Tensor& x, double ord, const std::vector<int>& axes, Tensor& out) {
  host::norm(x, ord, axes, out);
}

void HostOps::diag(const Tensor& x, std::int64_t k, Tensor& out) {
  host::diag(x, k, out);
}

void HostOps::diagonal(const Tensor& x, std::int64_t offset, Tensor& out) {
  host::diagonal(x, offset, out);
}

void HostOps::trace(const Tensor& x, std::int64_t offset, Tensor& out) {
  host::trace(x, offset, out);
}

void HostOps::outer(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_dtype(a.dtype(), [&](auto t) { host::outer_loop<decltype(t)>(a, b, out); });
}

}  // namespace ember::host
