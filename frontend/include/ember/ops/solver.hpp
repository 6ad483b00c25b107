// ember::ops, category "solver": linear algebra (NumPy's linalg). Integer inputs are promoted to float64;
// leading axes are batch axes where NumPy allows them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ember/tensor.hpp"

namespace ember::ops {

// a (..., n, n); b (..., n, k) or (n,). LinAlgError when a is singular.
Tensor solve(const Tensor& a, const Tensor& b);
Tensor inv(const Tensor& a);
Tensor det(const Tensor& a);
Tensor cholesky(const Tensor& a);

struct QRResult {
  Tensor q;
  Tensor r;
};
QRResult qr(const Tensor& a);

struct SVDResult {
  Tensor u;  // undefined without compute_uv
  Tensor s;
  Tensor vt;  // undefined without compute_uv
};
SVDResult svd(const Tensor& a, bool full_matrices = true, bool compute_uv = true);

struct EighResult {
  Tensor eigenvalues;
  Tensor eigenvectors;
};
EighResult eigh(const Tensor& a);

struct LstsqResult {
  Tensor x;
  Tensor residuals;  // squared residual norms per column of b when rank == n < m, else shape (0,)
  std::int64_t rank;
  Tensor singular_values;
};
// rcond defaults to machine epsilon times max(m, n), like NumPy.
LstsqResult lstsq(const Tensor& a, const Tensor& b, std::optional<double> rcond = std::nullopt);

// ord: nullopt is the 2-norm for vectors and Frobenius for matrices; "fro", "nuc", or a number
// ("inf", "-inf", "0", "1", "2", "-1", "-2", any p for vectors). axis: nullopt uses every axis of a 1-D or
// 2-D x (a flattened 2-norm for higher ranks); one axis is a vector norm, two axes a matrix norm.
Tensor norm(const Tensor& x, std::optional<std::string> ord = std::nullopt, Axes axis = std::nullopt,
            bool keepdims = false);
// 1-D x: a matrix with x on the k-th diagonal; 2-D x: its k-th diagonal.
Tensor diag(const Tensor& x, std::int64_t k = 0);
Tensor diagonal(const Tensor& x, std::int64_t offset = 0, std::int64_t axis1 = 0, std::int64_t axis2 = 1);
Tensor trace(const Tensor& x, std::int64_t offset = 0);
// a and b are flattened.
Tensor outer(const Tensor& a, const Tensor& b);

}  // namespace ember::ops
