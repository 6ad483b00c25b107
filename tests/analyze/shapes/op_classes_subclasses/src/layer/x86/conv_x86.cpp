#include "conv_x86.h"

namespace loom {

int Conv_x86::forward(const Blob& bottom, Blob& top, const Options&) const {
  top.data.assign(bottom.data.size(), 0.f);
  for (std::size_t i = 0; i < bottom.data.size(); ++i) top.data[i] = bottom.data[i] * weights[i % weights.size()];
  return 0;
}

}  // namespace loom
