// The linear algebra ops: Eigen or BLAS; the OpenCL backend has none yet.
#include "legacy/ops/linalg.hpp"

#include <stdexcept>
#include <string>

#include "legacy/backend.hpp"
#include "ops/blas/blas_ops.hpp"
#include "ops/eigen/eigen_ops.hpp"

namespace legacy::ops {

namespace {

[[noreturn]] void unavailable(const char* op) {
  throw std::runtime_error(std::string(op) + " is not available on backend " + current_backend());
}

}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b) {
  if (current_backend() == "opencl") unavailable("matmul");
  return current_backend() == "blas" ? blas::matmul(a, b) : eigen::matmul(a, b);
}

double dot(const Tensor& a, const Tensor& b) {
  if (current_backend() == "opencl") unavailable("dot");
  return current_backend() == "blas" ? blas::dot(a, b) : eigen::dot(a, b);
}

Tensor transpose(const Tensor& x) {
  if (current_backend() == "opencl") unavailable("transpose");
  return current_backend() == "blas" ? blas::transpose(x) : eigen::transpose(x);
}

double norm(const Tensor& x) {
  if (current_backend() == "opencl") unavailable("norm");
  return current_backend() == "blas" ? blas::norm(x) : eigen::norm(x);
}

}  // namespace legacy::ops
