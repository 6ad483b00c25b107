#include "relu_x86.h"

namespace loom {

int ReLU_x86::forward_inplace(Blob& blob, const Options&) const {
  for (float& x : blob.data) x = x > 0 ? x : x * slope;
  return 0;
}

}  // namespace loom
