#pragma once

#include "../relu.h"

namespace loom {

// Builds its pipeline but computes nothing itself: ReLU::forward_inplace runs.
class ReLU_gpu : public ReLU {
 public:
  int create_pipeline(const Options& opt) override;
};

}  // namespace loom
