#include "cpu/cpu_platform.hpp"

namespace loom::cpu {

namespace {

class CpuRelu : public ReluKernel {
 public:
  void run(const float* in, float* out, int n) override {
    for (int i = 0; i < n; ++i) out[i] = in[i] > 0 ? in[i] : 0;
  }
};

class CpuFactory : public KernelFactory {
 public:
  std::unique_ptr<Kernel> make(const std::string& name) const override {
    if (name == ReluKernel::id()) return std::make_unique<CpuRelu>();
    return nullptr;
  }
};

}  // namespace

CpuPlatform::CpuPlatform() {
  auto factory = std::make_shared<CpuFactory>();
  add_factory(AddKernel::id(), factory);
  add_factory(MatMulKernel::id(), factory);
  add_factory(ReluKernel::id(), factory);
  add_factory(SoftmaxKernel::id(), factory);
  add_factory(ConvKernel::id(), factory);
}

}  // namespace loom::cpu
