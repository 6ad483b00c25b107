// The random ops.
#include "legacy/ops/random.hpp"

#include "legacy/backend.hpp"
#include "ops/blas/blas_ops.hpp"
#include "ops/eigen/eigen_ops.hpp"
#include "ops/opencl/opencl_ops.hpp"

namespace legacy::ops {

Tensor uniform(std::size_t rows, std::size_t cols, std::uint64_t seed) {
  const std::string& backend = current_backend();
  if (backend == "blas") return blas::uniform(rows, cols, seed);
  if (backend == "opencl") return opencl::uniform(rows, cols, seed);
  return eigen::uniform(rows, cols, seed);
}

Tensor normal(std::size_t rows, std::size_t cols, std::uint64_t seed) {
  const std::string& backend = current_backend();
  if (backend == "blas") return blas::normal(rows, cols, seed);
  if (backend == "opencl") return opencl::normal(rows, cols, seed);
  return eigen::normal(rows, cols, seed);
}

}  // namespace legacy::ops
