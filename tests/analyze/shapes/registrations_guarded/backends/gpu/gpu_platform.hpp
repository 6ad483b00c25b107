// The GPU platform: a platform of its own.
#pragma once

#include "quill/kernels.hpp"

namespace quill::gpu {

class GpuFactory : public Factory {
 public:
  std::unique_ptr<Kernel> create(const std::string&) const override { return nullptr; }
};

class GpuPlatform : public Platform {
 public:
  GpuPlatform();
};

}  // namespace quill::gpu
