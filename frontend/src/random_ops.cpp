// PLACEHOLDER: replaced by the real frontend random ops.
#include "ember/ops/random.hpp"
#include "ember/error.hpp"

namespace ember::ops {

void set_seed(std::uint64_t /*seed*/) { throw Error("set_seed: pending"); }
std::uint64_t get_seed() { throw Error("get_seed: pending"); }
std::uint32_t get_random_counter() { throw Error("get_random_counter: pending"); }
Tensor random_uniform(const Shape& /*shape*/, double /*low*/, double /*high*/, DType /*dtype*/, std::optional<Device> /*device*/) { throw Error("random_uniform: pending"); }
Tensor random_normal(const Shape& /*shape*/, double /*mean*/, double /*stddev*/, DType /*dtype*/, std::optional<Device> /*device*/) { throw Error("random_normal: pending"); }
Tensor random_bernoulli(const Shape& /*shape*/, double /*p*/, std::optional<Device> /*device*/) { throw Error("random_bernoulli: pending"); }
Tensor random_exponential(const Shape& /*shape*/, double /*scale*/, DType /*dtype*/, std::optional<Device> /*device*/) { throw Error("random_exponential: pending"); }
Tensor random_gamma(const Shape& /*shape*/, double /*alpha*/, double /*scale*/, DType /*dtype*/, std::optional<Device> /*device*/) { throw Error("random_gamma: pending"); }
Tensor random_poisson(const Shape& /*shape*/, double /*lam*/, std::optional<Device> /*device*/) { throw Error("random_poisson: pending"); }
Tensor random_categorical(const Tensor& /*logits*/, std::int64_t /*num_samples*/) { throw Error("random_categorical: pending"); }
Tensor random_permutation(std::int64_t /*n*/, std::optional<Device> /*device*/) { throw Error("random_permutation: pending"); }
Tensor shuffle(const Tensor& /*x*/) { throw Error("shuffle: pending"); }

}  // namespace ember::ops
