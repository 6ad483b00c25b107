#pragma once

#include "../conv.h"

namespace loom {

class Conv_x86 : public Conv {
 public:
  int forward(const Blob& bottom, Blob& top, const Options& opt) const override;
};

}  // namespace loom
