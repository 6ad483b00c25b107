// The Eigen backend, category "random": counter-based sampling, bit-identical on every backend: the shared
// host layer's (backends/host/random_ops.cpp).
#include "eigen_backend.hpp"

namespace ember::eigen {

EMBER_HOST_RANDOM_OPS(EMBER_HOST_FORWARD, EigenBackend)

}  // namespace ember::eigen
