// Backend interface, category "solver": linear algebra.
// See ember/backend/tensor_ops.hpp for the contract every backend method follows.
// Matrices are float32 or float64, batched as (B, rows, cols); failures throw ember::LinAlgError naming the
// op and the batch index.
#pragma once

#include <cstdint>
#include <vector>

#include "ember/tensor.hpp"

namespace ember {

class SolverOps {
 public:
  virtual ~SolverOps() = default;

  // a (B, n, n), b (B, n, k), out (B, n, k). Singular a: LinAlgError.
  virtual void solve(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  // a (B, n, n). Singular a: LinAlgError.
  virtual void inv(const Tensor& a, Tensor& out) = 0;
  // a (B, n, n), out (B).
  virtual void det(const Tensor& a, Tensor& out) = 0;
  // Lower factor L with a = L L^T; a (B, n, n) symmetric (only the lower triangle is read). Not positive
  // definite: LinAlgError.
  virtual void cholesky(const Tensor& a, Tensor& out) = 0;
  // Reduced QR of a (B, m, n): q (B, m, k), r (B, k, n), k = min(m, n); diag(r) >= 0.
  virtual void qr(const Tensor& a, Tensor& q, Tensor& r) = 0;
  // a (B, m, n): s (B, k) descending, k = min(m, n). With compute_uv, u (B, m, m or k) and vt (B, n or k, n)
  // according to their allocated shapes (full or reduced); otherwise u and vt are untouched.
  virtual void svd(const Tensor& a, Tensor& u, Tensor& s, Tensor& vt, bool compute_uv) = 0;
  // Symmetric a (B, n, n), lower triangle read: w (B, n) ascending, v (B, n, n) with eigenvectors in columns.
  virtual void eigh(const Tensor& a, Tensor& w, Tensor& v) = 0;
  // Minimum-norm least squares of a (m, n) x = b (m, k): x (n, k); singular values below rcond * s_max
  // count as zero; rank is written to `rank`, singular values to s (min(m, n)).
  virtual void lstsq(const Tensor& a, const Tensor& b, double rcond, Tensor& x, std::int64_t& rank,
                     Tensor& s) = 0;
  // Vector p-norm of x over `axes` (keepdims form); ord may be +-inf, 0 (count of non-zeros) or any p.
  virtual void norm(const Tensor& x, double ord, const std::vector<int>& axes, Tensor& out) = 0;
  // x (n,) -> out (n + |k|, n + |k|) with x on the k-th diagonal.
  virtual void diag(const Tensor& x, std::int64_t k, Tensor& out) = 0;
  // x (B, n, m) -> out (B, L): the offset-th diagonal.
  virtual void diagonal(const Tensor& x, std::int64_t offset, Tensor& out) = 0;
  // x (B, n, m) -> out (B): sum of the offset-th diagonal (integer sums wrap).
  virtual void trace(const Tensor& x, std::int64_t offset, Tensor& out) = 0;
  // a (n,), b (m,) -> out (n, m).
  virtual void outer(const Tensor& a, const Tensor& b, Tensor& out) = 0;
};

}  // namespace ember
