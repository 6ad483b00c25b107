// The Eigen backend: every op of ember::Backend on the host. Its own are + - * / as Eigen array maps, matmul
// and dot as Eigen matrix products, and the solvers as Eigen's decompositions; every other op is the shared
// host layer's (backends/host/host_ops.hpp). One source file per op category; this header is private to
// backends/eigen/.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/host/host_ops.hpp"
#include "ember/backend.hpp"
#include "ember/error.hpp"

namespace ember::eigen {

class EigenBackend final : public Backend, private host::HostOps {
 public:
  EigenBackend();
  std::string name() const override { return "eigen"; }

  // The shared host ops (backends/host/host_ops.hpp), one file per category here as there: each
  // forwards to host::HostOps's.
  EMBER_HOST_TENSOR_OPS(EMBER_HOST_DECLARE, EigenBackend)
  EMBER_HOST_MATH_OPS(EMBER_HOST_DECLARE, EigenBackend)
  EMBER_HOST_COMPARISON_OPS(EMBER_HOST_DECLARE, EigenBackend)
  EMBER_HOST_RANDOM_OPS(EMBER_HOST_DECLARE, EigenBackend)
  EMBER_HOST_DEVICE_OPS(EMBER_HOST_DECLARE, EigenBackend)
  EMBER_HOST_DTYPE_OPS(EMBER_HOST_DECLARE, EigenBackend)
  EMBER_HOST_FUSION_OPS(EMBER_HOST_DECLARE, EigenBackend)
  EMBER_HOST_DIAGONAL_OPS(EMBER_HOST_DECLARE, EigenBackend)
  EMBER_HOST_PRODUCT_OPS(EMBER_HOST_DECLARE, EigenBackend)

  // math_ops.cpp: this backend's own
  void add(const Tensor& a, const Tensor& b, Tensor& out) override;
  void subtract(const Tensor& a, const Tensor& b, Tensor& out) override;
  void multiply(const Tensor& a, const Tensor& b, Tensor& out) override;
  void divide(const Tensor& a, const Tensor& b, Tensor& out) override;
  void matmul(const Tensor& a, const Tensor& b, Tensor& out) override;
  void dot(const Tensor& a, const Tensor& b, Tensor& out) override;

  // solver_ops.cpp: this backend's own
  void solve(const Tensor& a, const Tensor& b, Tensor& out) override;
  void inv(const Tensor& a, Tensor& out) override;
  void det(const Tensor& a, Tensor& out) override;
  void cholesky(const Tensor& a, Tensor& out) override;
  void qr(const Tensor& a, Tensor& q, Tensor& r) override;
  void svd(const Tensor& a, Tensor& u, Tensor& s, Tensor& vt, bool compute_uv) override;
  void eigh(const Tensor& a, Tensor& w, Tensor& v) override;
  void lstsq(const Tensor& a, const Tensor& b, double rcond, Tensor& x, std::int64_t& rank,
             Tensor& s) override;
};

std::unique_ptr<Backend> make_backend();

}  // namespace ember::eigen
