// Linear algebra with cblas: dgemm, ddot and dnrm2.
#include <cblas.h>

#include <stdexcept>

#include "ops/blas/blas_ops.hpp"

namespace legacy::blas {

static int blas_int(std::size_t n) {
  return static_cast<int>(n);
}

Tensor matmul(const Tensor& a, const Tensor& b) {
  if (a.cols != b.rows) throw std::invalid_argument("blas: matmul: inner dimensions differ");
  Tensor out(a.rows, b.cols);
  if (out.size() == 0 || a.cols == 0) return out;
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, blas_int(a.rows), blas_int(b.cols), blas_int(a.cols),
              1.0, a.data.data(), blas_int(a.cols), b.data.data(), blas_int(b.cols), 0.0, out.data.data(),
              blas_int(out.cols));
  return out;
}

double dot(const Tensor& a, const Tensor& b) {
  if (a.size() != b.size()) throw std::invalid_argument("blas: dot: sizes differ");
  return cblas_ddot(blas_int(a.size()), a.data.data(), 1, b.data.data(), 1);
}

Tensor transpose(const Tensor& x) {
  Tensor out(x.cols, x.rows);
  for (std::size_t r = 0; r < x.rows; ++r) {
    for (std::size_t c = 0; c < x.cols; ++c) out.data[c * x.rows + r] = x.at(r, c);
  }
  return out;
}

double norm(const Tensor& x) {
  return cblas_dnrm2(blas_int(x.size()), x.data.data(), 1);
}

}  // namespace legacy::blas
