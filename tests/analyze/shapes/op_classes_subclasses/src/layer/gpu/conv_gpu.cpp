#include "conv_gpu.h"

namespace loom {

int Conv_gpu::forward(const Blob& bottom, Blob& top, const Options&) const {
  top.data = bottom.data;
  return static_cast<int>(weights.size() % 2);
}

}  // namespace loom
