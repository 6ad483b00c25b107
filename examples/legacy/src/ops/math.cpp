// The math ops: each picks the selected backend's implementation and calls it.
#include "legacy/ops/math.hpp"

#include <stdexcept>
#include <string>

#include "legacy/backend.hpp"
#include "ops/blas/blas_ops.hpp"
#include "ops/eigen/eigen_ops.hpp"
#include "ops/opencl/opencl_ops.hpp"

namespace legacy::ops {

namespace {

[[noreturn]] void unavailable(const char* op) {
  throw std::runtime_error(std::string(op) + " is not available on backend " + current_backend());
}

}  // namespace

Tensor add(const Tensor& a, const Tensor& b) {
  const std::string& backend = current_backend();
  if (backend == "blas") return blas::add(a, b);
  if (backend == "opencl") return opencl::add(a, b);
  return eigen::add(a, b);
}

Tensor add(const Tensor& a, double scalar) {
  const std::string& backend = current_backend();
  if (backend == "blas") return blas::add(a, scalar);
  if (backend == "opencl") return opencl::add(a, scalar);
  return eigen::add(a, scalar);
}

Tensor subtract(const Tensor& a, const Tensor& b) {
  const std::string& backend = current_backend();
  if (backend == "blas") return blas::subtract(a, b);
  if (backend == "opencl") return opencl::subtract(a, b);
  return eigen::subtract(a, b);
}

Tensor multiply(const Tensor& a, const Tensor& b) {
  const std::string& backend = current_backend();
  if (backend == "blas") return blas::multiply(a, b);
  if (backend == "opencl") return opencl::multiply(a, b);
  return eigen::multiply(a, b);
}

Tensor exp(const Tensor& x) {
  const std::string& backend = current_backend();
  if (backend == "blas") return blas::exp(x);
  if (backend == "opencl") unavailable("exp");
  return eigen::exp(x);
}

double sum(const Tensor& x) {
  const std::string& backend = current_backend();
  if (backend == "blas") return blas::sum(x);
  if (backend == "opencl") unavailable("sum");
  return eigen::sum(x);
}

}  // namespace legacy::ops
