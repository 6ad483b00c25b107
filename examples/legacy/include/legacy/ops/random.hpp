// Random tensors from a seed: the same seed gives the same tensor on every backend.
#pragma once

#include <cstdint>

#include "legacy/tensor.hpp"

namespace legacy::ops {

Tensor uniform(std::size_t rows, std::size_t cols, std::uint64_t seed);
Tensor normal(std::size_t rows, std::size_t cols, std::uint64_t seed);

}  // namespace legacy::ops
