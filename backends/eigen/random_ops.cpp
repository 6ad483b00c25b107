// PLACEHOLDER: replaced by the real random ops.
#include "eigen_backend.hpp"

namespace ember::eigen {

void EigenBackend::random_uniform(Tensor& /*out*/, double /*low*/, double /*high*/, RandomKey /*key*/) { throw BackendError("eigen: random_uniform pending"); }
void EigenBackend::random_normal(Tensor& /*out*/, double /*mean*/, double /*stddev*/, RandomKey /*key*/) { throw BackendError("eigen: random_normal pending"); }
void EigenBackend::random_bernoulli(Tensor& /*out*/, double /*p*/, RandomKey /*key*/) { throw BackendError("eigen: random_bernoulli pending"); }
void EigenBackend::random_exponential(Tensor& /*out*/, double /*scale*/, RandomKey /*key*/) { throw BackendError("eigen: random_exponential pending"); }
void EigenBackend::random_gamma(Tensor& /*out*/, double /*alpha*/, double /*scale*/, RandomKey /*key*/) { throw BackendError("eigen: random_gamma pending"); }
void EigenBackend::random_poisson(Tensor& /*out*/, double /*lam*/, RandomKey /*key*/) { throw BackendError("eigen: random_poisson pending"); }
void EigenBackend::random_categorical(const Tensor& /*logits*/, Tensor& /*out*/, RandomKey /*key*/) { throw BackendError("eigen: random_categorical pending"); }
void EigenBackend::random_permutation(Tensor& /*out*/, RandomKey /*key*/) { throw BackendError("eigen: random_permutation pending"); }
void EigenBackend::shuffle(const Tensor& /*x*/, Tensor& /*out*/, RandomKey /*key*/) { throw BackendError("eigen: shuffle pending"); }

}  // namespace ember::eigen
