#pragma once

#include "layer.h"

namespace loom {

class Conv : public Layer {
 public:
  int forward(const Blob& bottom, Blob& top, const Options& opt) const override;
  std::vector<float> weights;
};

}  // namespace loom
