#pragma once

#include "layer.h"

namespace loom {

class Pool : public Layer {
 public:
  int forward(const Blob& bottom, Blob& top, const Options& opt) const override;
  int window = 2;
};

}  // namespace loom
