// The BLAS backend: every op of ember::Backend computed on the host, with OpenBLAS through cblas for the
// products (matmul, dot, outer, 2-norms), LAPACKE for the decompositions and the shared host layer
// (backends/host/host_ops.hpp: loops written to vectorize) for everything else. One source file per op
// category; this header is private to backends/blas/.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/host/host_ops.hpp"
#include "ember/backend.hpp"
#include "ember/error.hpp"

namespace ember::blas {

class BlasBackend final : public Backend, private host::HostOps {
 public:
  BlasBackend();
  std::string name() const override { return "blas"; }

  // The shared host ops (backends/host/host_ops.hpp), one file per category here as there: each
  // forwards to host::HostOps's.
  EMBER_HOST_TENSOR_OPS(EMBER_HOST_DECLARE, BlasBackend)
  EMBER_HOST_MATH_OPS(EMBER_HOST_DECLARE, BlasBackend)
  EMBER_HOST_COMPARISON_OPS(EMBER_HOST_DECLARE, BlasBackend)
  EMBER_HOST_RANDOM_OPS(EMBER_HOST_DECLARE, BlasBackend)
  EMBER_HOST_DEVICE_OPS(EMBER_HOST_DECLARE, BlasBackend)
  EMBER_HOST_DTYPE_OPS(EMBER_HOST_DECLARE, BlasBackend)
  EMBER_HOST_FUSION_OPS(EMBER_HOST_DECLARE, BlasBackend)
  EMBER_HOST_DIAGONAL_OPS(EMBER_HOST_DECLARE, BlasBackend)
  EMBER_HOST_ARITHMETIC_OPS(EMBER_HOST_DECLARE, BlasBackend)

  // math_ops.cpp: this backend's own
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
  void norm(const Tensor& x, double ord, const std::vector<int>& axes, Tensor& out) override;
  void outer(const Tensor& a, const Tensor& b, Tensor& out) override;
};

std::unique_ptr<Backend> make_backend();

}  // namespace ember::blas
