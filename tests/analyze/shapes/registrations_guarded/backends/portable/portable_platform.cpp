#include "portable/portable_platform.hpp"

namespace quill::portable {

PortablePlatform::PortablePlatform() {
  install(ScaleKernel::key(), std::make_shared<PortableFactory>());
}

}  // namespace quill::portable
