// The kernels: one class each, named by its static key().
#pragma once

#include <string>

#include "quill/platform.hpp"

namespace quill {

class ScaleKernel : public Kernel {
 public:
  static std::string key() { return "Scale"; }
};

// The tilt add-on's kernels.
class ShiftKernel : public Kernel {
 public:
  static std::string key() { return "Shift"; }
};

class ClampKernel : public Kernel {
 public:
  static std::string key() { return "Clamp"; }
};

class WrapKernel : public Kernel {
 public:
  static std::string key() { return "Wrap"; }
};

}  // namespace quill
