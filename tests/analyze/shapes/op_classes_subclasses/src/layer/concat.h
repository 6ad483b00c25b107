#pragma once

#include "layer.h"

namespace loom {

class Concat : public Layer {
 public:
  int forward(const std::vector<Blob>& bottoms, std::vector<Blob>& tops, const Options& opt) const override;
};

}  // namespace loom
