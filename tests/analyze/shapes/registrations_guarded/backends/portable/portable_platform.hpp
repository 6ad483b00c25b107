// The portable platform: plain loops.
#pragma once

#include "quill/kernels.hpp"

namespace quill::portable {

class PortableFactory : public Factory {
 public:
  std::unique_ptr<Kernel> create(const std::string&) const override { return nullptr; }
};

class PortablePlatform : public Platform {
 public:
  PortablePlatform();
};

}  // namespace quill::portable
