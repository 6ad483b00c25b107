// Element-wise math with cblas where BLAS has the operation (axpy), plain loops elsewhere.
#include <cblas.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "ops/blas/blas_ops.hpp"

namespace legacy::blas {

static void check_same_shape(const Tensor& a, const Tensor& b, const char* op) {
  if (a.rows != b.rows || a.cols != b.cols)
    throw std::invalid_argument(std::string("blas: ") + op + ": shapes differ");
}

// out = alpha * x + y, with y copied into the result first.
static Tensor axpy(double alpha, const Tensor& x, const Tensor& y) {
  Tensor out = y;
  cblas_daxpy(static_cast<int>(x.size()), alpha, x.data.data(), 1, out.data.data(), 1);
  return out;
}

Tensor add(const Tensor& a, const Tensor& b) {
  check_same_shape(a, b, "add");
  return axpy(1.0, b, a);
}

Tensor add(const Tensor& a, double scalar) {
  Tensor out = a;
  for (double& v : out.data) v += scalar;
  return out;
}

Tensor subtract(const Tensor& a, const Tensor& b) {
  check_same_shape(a, b, "subtract");
  return axpy(-1.0, b, a);
}

Tensor multiply(const Tensor& a, const Tensor& b) {
  check_same_shape(a, b, "multiply");
  Tensor out = a;
  for (std::size_t i = 0; i < out.size(); ++i) out.data[i] *= b.data[i];
  return out;
}

Tensor exp(const Tensor& x) {
  Tensor out = x;
  for (double& v : out.data) v = std::exp(v);
  return out;
}

double sum(const Tensor& x) {
  double total = 0;
  for (double v : x.data) total += v;
  return total;
}

}  // namespace legacy::blas
