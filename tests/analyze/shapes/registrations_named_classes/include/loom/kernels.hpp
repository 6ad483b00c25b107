// The kernels every platform may implement: one class each, named by its static id().
#pragma once

#include <string>

#include "loom/kernel.hpp"

namespace loom {

class AddKernel : public Kernel {
 public:
  static std::string id() { return "Add"; }
};

class MatMulKernel : public Kernel {
 public:
  static std::string id() { return "MatMul"; }
};

class ReluKernel : public Kernel {
 public:
  static std::string id() { return "Relu"; }
};

class SoftmaxKernel : public Kernel {
 public:
  static std::string id() { return "Softmax"; }
};

class ConvKernel : public Kernel {
 public:
  static std::string id() { return "Conv"; }
};

}  // namespace loom
