// The BLAS backend, category "comparison": comparisons, logic, float predicates, isclose, all/any and where:
// the shared host layer's (backends/host/comparison_ops.cpp).
#include "blas_backend.hpp"

namespace ember::blas {

EMBER_HOST_COMPARISON_OPS(EMBER_HOST_FORWARD, BlasBackend)

}  // namespace ember::blas
