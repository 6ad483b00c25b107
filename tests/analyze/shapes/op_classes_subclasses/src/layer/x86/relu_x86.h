#pragma once

#include "../relu.h"

namespace loom {

class ReLU_x86 : public ReLU {
 public:
  int forward_inplace(Blob& blob, const Options& opt) const override;
};

}  // namespace loom
