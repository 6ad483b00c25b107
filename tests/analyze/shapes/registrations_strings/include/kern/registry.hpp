// A kernel registry keyed by the op's name and the device.
#pragma once

#include <string_view>

namespace kern {

enum class Device { cpu, gpu };
inline constexpr Device DEVICE_CPU = Device::cpu;
inline constexpr Device DEVICE_GPU = Device::gpu;

struct Context {
  float* data = nullptr;
  int size = 0;
};

class OpKernel {
 public:
  virtual ~OpKernel() = default;
  virtual void compute(Context& context) = 0;
};

using Factory = OpKernel* (*)();

struct KernelRegistrar {
  KernelRegistrar(std::string_view op, Device device, Factory factory);
};

namespace composite {
// Ops written as other ops (what a device without a kernel of its own runs).
void gelu(Context& context);
}  // namespace composite

}  // namespace kern

#define KERN_CONCAT_INNER(a, b) a##b
#define KERN_CONCAT(a, b) KERN_CONCAT_INNER(a, b)
#define KERN_REGISTER(op, device, kernel)                                      \
  static const ::kern::KernelRegistrar KERN_CONCAT(kern_registrar_, __LINE__)( \
      op, device, []() -> ::kern::OpKernel* { return new kernel; })
