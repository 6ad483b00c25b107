#pragma once

#include "../concat.h"

namespace loom {

// The multi-input overload only.
class Concat_x86 : public Concat {
 public:
  int forward(const std::vector<Blob>& bottoms, std::vector<Blob>& tops, const Options& opt) const override;
};

}  // namespace loom
