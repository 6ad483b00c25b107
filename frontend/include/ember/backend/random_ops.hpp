// Backend interface, category "random": counter-based Philox4x32-10 sampling.
// See ember/backend/tensor_ops.hpp for the contract every backend method follows.
//
// Element i of a call's output depends only on (key.seed, key.counter, i): the Philox key is
// (seed low word, seed high word) and the counter block for draw j of element i is
// (i low word, i high word, j, key.counter). Every backend computes the same bits by using the shared
// sampling code in ember/random/distributions.h, so the same key gives byte-identical tensors everywhere.
#pragma once

#include <cstdint>

#include "ember/tensor.hpp"

namespace ember {

struct RandomKey {
  std::uint64_t seed = 0;
  std::uint32_t counter = 0;  // the generator's call counter; the frontend advances it once per call
};

class RandomOps {
 public:
  virtual ~RandomOps() = default;

  // Floating-point out; parameters are validated by the frontend.
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
