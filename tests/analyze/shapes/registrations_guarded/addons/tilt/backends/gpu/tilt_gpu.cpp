// The tilt add-on's GPU kernels, and one for a platform defined elsewhere.
#include "gpu/gpu_platform.hpp"

namespace quill::tilt {

void load_gpu() {
  auto factory = std::make_shared<gpu::GpuFactory>();
  for (Platform* platform : Platform::all()) {
    if (auto* device = dynamic_cast<gpu::GpuPlatform*>(platform)) {
      device->install(ShiftKernel::key(), factory);
    }
    if (dynamic_cast<ForeignPlatform*>(platform)) platform->install(WrapKernel::key(), factory);
  }
}

}  // namespace quill::tilt
