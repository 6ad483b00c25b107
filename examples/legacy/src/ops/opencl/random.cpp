// Uniform numbers from the shared splitmix64 sequence; normal() is not written yet.
#include <stdexcept>

#include "ops/opencl/opencl_ops.hpp"

namespace legacy::opencl {

namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

Tensor uniform(std::size_t rows, std::size_t cols, std::uint64_t seed) {
  Tensor out(rows, cols);
  std::uint64_t state = seed;
  for (double& v : out.data) v = static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53;
  return out;
}

Tensor normal(std::size_t, std::size_t, std::uint64_t) {
  throw std::runtime_error("opencl: normal is not implemented");
}

}  // namespace legacy::opencl
