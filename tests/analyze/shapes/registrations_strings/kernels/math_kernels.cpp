#include <stdexcept>

#include "kern/registry.hpp"

namespace kern {

class AddOp : public OpKernel {
 public:
  void compute(Context& c) override {
    for (int i = 0; i < c.size; ++i) c.data[i] += 1;
  }
};
KERN_REGISTER("Add", DEVICE_CPU, AddOp);
KERN_REGISTER("Add", DEVICE_GPU, AddOp);

class MatMulOp : public OpKernel {
 public:
  void compute(Context& c) override { c.data[0] = 0; }
};
KERN_REGISTER("MatMul", DEVICE_CPU, MatMulOp);

// The GPU build registers it so that graphs load, but it cannot run.
class MatMulGpuOp : public OpKernel {
 public:
  void compute(Context&) override { throw std::runtime_error("MatMul: not implemented for the GPU"); }
};
KERN_REGISTER("MatMul", DEVICE_GPU, MatMulGpuOp);

}  // namespace kern
