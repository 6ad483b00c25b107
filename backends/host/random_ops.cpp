// Random sampling for the host backends: the shared host loops (frontend/src/host/random_kernels.hpp) over
// the samplers of ember/random/distributions.h, so every element is a pure function of (key.seed,
// key.counter, index) and matches every other backend bit for bit. This file is compiled with
// -ffp-contract=off (CMakeLists).
#include "backends/host/host_ops.hpp"
#include "host/random_kernels.hpp"

namespace ember::host {

void HostOps::random_uniform(Tensor& out, double low, double high, RandomKey key) {
  host::random_uniform(backend_, out, low, high, key);
}
void HostOps::random_normal(Tensor& out, double mean, double stddev, RandomKey key) {
  host::random_normal(backend_, out, mean, stddev, key);
}
void HostOps::random_bernoulli(Tensor& out, double p, RandomKey key) {
  host::random_bernoulli(out, p, key);
}
void HostOps::random_exponential(Tensor& out, double scale, RandomKey key) {
  host::random_exponential(backend_, out, scale, key);
}
void HostOps::random_gamma(Tensor& out, double alpha, double scale, RandomKey key) {
  host::random_gamma(backend_, out, alpha, scale, key);
}
void HostOps::random_poisson(Tensor& out, double lam, RandomKey key) {
  host::random_poisson(out, lam, key);
}
void HostOps::random_categorical(const Tensor& logits, Tensor& out, RandomKey key) {
  host::random_categorical(backend_, logits, out, key);
}
void HostOps::random_permutation(Tensor& out, RandomKey key) {
  host::random_permutation(out, key);
}
void HostOps::shuffle(const Tensor& x, Tensor& out, RandomKey key) {
  host::shuffle(x, out, key);
}

}  // namespace ember::host
