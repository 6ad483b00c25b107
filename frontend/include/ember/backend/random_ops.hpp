// Backend interface, category "random": counter-based Philox4x32-10 sampling.
// See ember/backend/tensor_ops.hpp for the contract every backend method follows.
//
// Element i of a call's output depends only on (key.seed, key.counter, i): the Philox key is
// (seed low word, seed high word) and the counter block for draw j of element i is
// (i low word, i high word, j, key.counter). Every backend computes the same bits by using the shared
// sampling code in ember/random/distributions.h, so the same key gives byte-identical tensors everywhere.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>

#include "ember/dtype.hpp"
#include "ember/half.hpp"
#include "ember/tensor.hpp"

namespace ember {

struct RandomKey {
  std::uint64_t seed = 0;
  std::uint32_t counter = 0;  // the generator's call counter; the frontend advances it once per call
};

// The largest value of floating dtype `dtype` below `high`, but not below low's value in that dtype (so
// low == high gives low). random_uniform clamps every sample to it (ember_below_f32/_f64 of
// ember/random/distributions.h) before storing: the float32 draw rounded to float16, or low * (1 - u) +
// high * u rounded to float32/float64, could otherwise equal high and break the half-open [low, high).
// float16 and float32 caps are exact float values; low and high are finite.
inline double uniform_cap(double low, double high, DType dtype) {
  constexpr float inf = std::numeric_limits<float>::infinity();
  const auto nearest_f32 = [](double v) {  // round to nearest, saturating to +-inf past FLT_MAX + half an ulp
    constexpr double limit = 0x1.ffffffp127;
    return v >= limit ? inf : v <= -limit ? -inf : static_cast<float>(v);
  };
  const auto below_f32 = [&](double v) {  // the largest float < v
    const float f = nearest_f32(v);
    return static_cast<double>(f) >= v ? std::nextafter(f, -inf) : f;
  };
  switch (dtype) {
    case DType::float16: {
      half h(below_f32(high));  // the nearest float16 to a float below high: at most one step too high
      while (static_cast<double>(static_cast<float>(h)) >= high) {
        // one float16 step down: +-0 to the negative subnormal, positives towards 0, negatives away from it
        const std::uint16_t b = h.bits;
        h = half::from_bits((b & 0x7fffu) == 0 ? std::uint16_t{0x8001u}
                            : (b & 0x8000u)    ? static_cast<std::uint16_t>(b + 1u)
                                               : static_cast<std::uint16_t>(b - 1u));
      }
      const float lo = static_cast<float>(half(nearest_f32(low)));
      return std::fmax(static_cast<float>(h), lo);
    }
    case DType::float32:
      return std::fmax(below_f32(high), static_cast<double>(nearest_f32(low)));
    default:
      return std::fmax(std::nextafter(high, -std::numeric_limits<double>::infinity()), low);
  }
}

class RandomOps {
 public:
  virtual ~RandomOps() = default;

  // Floating-point out; parameters are validated by the frontend. Uniform samples are clamped to
  // uniform_cap(low, high, out.dtype()).
  virtual void random_uniform(Tensor& out, double low, double high, RandomKey key) = 0;
  virtual void random_normal(Tensor& out, double mean, double stddev, RandomKey key) = 0;
  // out is bool: true with probability p.
  virtual void random_bernoulli(Tensor& out, double p, RandomKey key) = 0;
  virtual void random_exponential(Tensor& out, double scale, RandomKey key) = 0;
  virtual void random_gamma(Tensor& out, double alpha, double scale, RandomKey key) = 0;
  // out is int64.
  virtual void random_poisson(Tensor& out, double lam, RandomKey key) = 0;
  // logits is (R, K) floating-point, out is int64 (R, S): S samples per row by the Gumbel-max rule.
  virtual void random_categorical(const Tensor& logits, Tensor& out, RandomKey key) = 0;
  // out is int64 (n,): a uniformly random permutation of [0, n).
  virtual void random_permutation(Tensor& out, RandomKey key) = 0;
  // out = x with its first axis permuted by random_permutation(x.shape[0], key).
  virtual void shuffle(const Tensor& x, Tensor& out, RandomKey key) = 0;
};

}  // namespace ember
