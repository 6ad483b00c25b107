// The BLAS backend, category "random": counter-based sampling, bit-identical on every backend: the shared
// host layer's (backends/host/random_ops.cpp).
#include "blas_backend.hpp"

namespace ember::blas {

EMBER_HOST_RANDOM_OPS(EMBER_HOST_FORWARD, BlasBackend)

}  // namespace ember::blas
