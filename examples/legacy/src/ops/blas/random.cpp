// Random tensors: splitmix64 from the seed, so every backend draws the same numbers.
#include <cmath>
#include <numbers>

#include "ops/blas/blas_ops.hpp"

namespace legacy::blas {

namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A double in [0, 1) from the top 53 bits.
double unit(std::uint64_t& state) {
  return static_cast<double>(splitmix64(state) >> 11) * 0x1.0p-53;
}

}  // namespace

Tensor uniform(std::size_t rows, std::size_t cols, std::uint64_t seed) {
  Tensor out(rows, cols);
  std::uint64_t state = seed;
  for (double& v : out.data) v = unit(state);
  return out;
}

// Box-Muller over pairs of uniforms.
Tensor normal(std::size_t rows, std::size_t cols, std::uint64_t seed) {
  Tensor out(rows, cols);
  std::uint64_t state = seed;
  for (std::size_t i = 0; i < out.size(); ++i) {
    double u1 = 1.0 - unit(state), u2 = unit(state);
    out.data[i] = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  }
  return out;
}

}  // namespace legacy::blas
