// The OpenCL platform: a platform of its own, without softmax.
#include "loom/kernels.hpp"

namespace loom::opencl {

class OpenCLFactory : public KernelFactory {
 public:
  std::unique_ptr<Kernel> make(const std::string&) const override { return nullptr; }
};

class OpenCLPlatform : public Platform {
 public:
  OpenCLPlatform() {
    auto factory = std::make_shared<OpenCLFactory>();
    add_factory(AddKernel::id(), factory);
    add_factory(MatMulKernel::id(), factory);
    add_factory(ReluKernel::id(), factory);
    add_factory(ConvKernel::id(), factory);
  }
};

}  // namespace loom::opencl
