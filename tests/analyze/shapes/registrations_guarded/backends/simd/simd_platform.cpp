// The SIMD platform: the portable one with vector loops where it has them.
#include "portable/portable_platform.hpp"

namespace quill::simd {

class SimdPlatform : public portable::PortablePlatform {
 public:
  SimdPlatform() { install(ScaleKernel::key(), std::make_shared<portable::PortableFactory>()); }
};

}  // namespace quill::simd
