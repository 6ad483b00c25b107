#pragma once

#include "layer.h"

namespace loom {

class ReLU : public Layer {
 public:
  int forward_inplace(Blob& blob, const Options& opt) const override;
  float slope = 0.f;
};

}  // namespace loom
