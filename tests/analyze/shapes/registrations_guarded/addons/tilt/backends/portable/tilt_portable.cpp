// The tilt add-on's portable kernels: installed on every platform that is a portable one.
#include <typeinfo>

#include "portable/portable_platform.hpp"

namespace quill::tilt {

void load_portable() {
  auto factory = std::make_shared<portable::PortableFactory>();
  for (Platform* platform : Platform::all()) {
    if (dynamic_cast<portable::PortablePlatform*>(platform) != nullptr)
      platform->install(ShiftKernel::key(), factory);
    try {
      auto& own = dynamic_cast<portable::PortablePlatform&>(*platform);
      own.install(ClampKernel::key(), factory);
    } catch (const std::bad_cast&) {
    }
  }
}

}  // namespace quill::tilt
