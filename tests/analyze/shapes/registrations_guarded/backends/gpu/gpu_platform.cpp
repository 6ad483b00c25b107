#include "gpu/gpu_platform.hpp"

namespace quill::gpu {

GpuPlatform::GpuPlatform() {
  install(ScaleKernel::key(), std::make_shared<GpuFactory>());
}

}  // namespace quill::gpu
