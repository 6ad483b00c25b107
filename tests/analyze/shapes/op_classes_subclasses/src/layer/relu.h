#pragma once

#include "layer.h"
#include "layer/activation_helpers.h"

namespace loom {

class ReLU : public Layer {
 public:
  int forward_inplace(Blob& blob, const Options& opt) const override;
  float slope = 0.f;
};

}  // namespace loom
