// Walking the indices of a strided tensor in row-major order without division, shared by the host's strided
// copies (tensor_kernels.hpp) and the fused evaluator's gathers (fused_host.cpp). Backend-agnostic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ember/shape.hpp"

namespace ember::host {

// Steps the index idx[0..axes) over shape[0..axes) to the next one in row-major order and its offset `off`
// under `strides` along (an odometer: no division).
inline void next_index(std::vector<std::int64_t>& idx, std::int64_t& off, std::size_t axes,
                       const Shape& shape, const Shape& strides) {
  for (std::size_t d = axes; d-- > 0;) {
    ++idx[d];
    off += strides[d];
    if (idx[d] < shape[d]) return;
    off -= strides[d] * shape[d];
    idx[d] = 0;
  }
}

}  // namespace ember::host
