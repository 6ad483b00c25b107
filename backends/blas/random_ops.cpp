// Random sampling for the BLAS backend: the shared host loops (frontend/src/host/random_kernels.hpp) over the
// samplers of ember/random/distributions.h, so every element is a pure function of (key.seed, key.counter,
// index) and matches every other backend bit for bit. This file is compiled with -ffp-contract=off
// (CMakeLists).
#include "blas_backend.hpp"
#include "common.hpp"
#include "host/random_kernels.hpp"

namespace ember::blas {

void BlasBackend::random_uniform(Tensor& out, double low, double high, RandomKey key) {
  host::random_uniform(kBackend, out, low, high, key);
}
void BlasBackend::random_normal(Tensor& out, double mean, double stddev, RandomKey key) {
  host::random_normal(kBackend, out, mean, stddev, key);
}
void BlasBackend::random_bernoulli(Tensor& out, double p, RandomKey key) {
  host::random_bernoulli(out, p, key);
}
void BlasBackend::random_exponential(Tensor& out, double scale, RandomKey key) {
  host::random_exponential(kBackend, out, scale, key);
}
void BlasBackend::random_gamma(Tensor& out, double alpha, double scale, RandomKey key) {
  host::random_gamma(kBackend, out, alpha, scale, key);
}
void BlasBackend::random_poisson(Tensor& out, double lam, RandomKey key) {
  host::random_poisson(out, lam, key);
}
void BlasBackend::random_categorical(const Tensor& logits, Tensor& out, RandomKey key) {
  host::random_categorical(kBackend, logits, out, key);
}
void BlasBackend::random_permutation(Tensor& out, RandomKey key) {
  host::random_permutation(out, key);
}
void BlasBackend::shuffle(const Tensor& x, Tensor& out, RandomKey key) {
  host::shuffle(x, out, key);
}

}  // namespace ember::blas
