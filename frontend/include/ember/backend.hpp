// ember::Backend: the one list of operations every backend implements, one interface per category.
// The frontend dispatches through it and `emberlint analyze` builds ember's inventory from it.
#pragma once

#include <string>

#include "ember/backend/comparison_ops.hpp"
#include "ember/backend/device_ops.hpp"
#include "ember/backend/dtype_ops.hpp"
#include "ember/backend/fusion_ops.hpp"
#include "ember/backend/math_ops.hpp"
#include "ember/backend/random_ops.hpp"
#include "ember/backend/solver_ops.hpp"
#include "ember/backend/tensor_ops.hpp"

namespace ember {

class Backend : public TensorOps,
                public MathOps,
                public ComparisonOps,
                public RandomOps,
                public DeviceOps,
                public DTypeOps,
                public SolverOps,
                public FusionOps {
 public:
  ~Backend() override = default;
  // "eigen", "blas", "opencl": the name set_backend and EMBER_BACKEND use.
  virtual std::string name() const = 0;
  // Why is_available() is false ("no OpenCL platform found", ...); empty when the backend is available.
  virtual std::string unavailable_reason() {
    return is_available() ? std::string() : name() + " is unavailable";
  }
};

}  // namespace ember
