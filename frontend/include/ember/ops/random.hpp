// ember::ops, category "random": counter-based Philox4x32-10 sampling, bit-identical on every backend.
//
// The process-wide generator is (seed, counter). Each sampling call uses the current counter and then
// advances it by one, so a sequence of calls after set_seed(s) is reproducible on any backend, thread
// layout or device.
#pragma once

#include <cstdint>
#include <optional>

#include "ember/device.hpp"
#include "ember/dtype.hpp"
#include "ember/tensor.hpp"

namespace ember::ops {

// Resets the generator to (seed, counter 0).
void set_seed(std::uint64_t seed);
std::uint64_t get_seed();
// The generator's counter: how many sampling calls since set_seed.
std::uint32_t get_random_counter();

// dtype must be floating-point for the continuous distributions.
Tensor random_uniform(const Shape& shape, double low = 0.0, double high = 1.0, DType dtype = DType::float32,
                      std::optional<Device> device = std::nullopt);
Tensor random_normal(const Shape& shape, double mean = 0.0, double stddev = 1.0, DType dtype = DType::float32,
                     std::optional<Device> device = std::nullopt);
// bool tensor, true with probability p in [0, 1].
Tensor random_bernoulli(const Shape& shape, double p = 0.5, std::optional<Device> device = std::nullopt);
Tensor random_exponential(const Shape& shape, double scale = 1.0, DType dtype = DType::float32,
                          std::optional<Device> device = std::nullopt);
// Gamma(alpha, scale) with alpha > 0 and scale > 0.
Tensor random_gamma(const Shape& shape, double alpha, double scale = 1.0, DType dtype = DType::float32,
                    std::optional<Device> device = std::nullopt);
// int64 counts, lam >= 0.
Tensor random_poisson(const Shape& shape, double lam = 1.0, std::optional<Device> device = std::nullopt);
// logits (K,) or (R, K) unnormalised log-probabilities -> int64 (num_samples,) or (R, num_samples).
Tensor random_categorical(const Tensor& logits, std::int64_t num_samples);
// int64 permutation of [0, n).
Tensor random_permutation(std::int64_t n, std::optional<Device> device = std::nullopt);
// x with its first axis randomly permuted (a new tensor).
Tensor shuffle(const Tensor& x);

}  // namespace ember::ops
