// The Eigen backend, category "comparison": comparisons, logic, float predicates, isclose, all/any and where:
// the shared host layer's (backends/host/comparison_ops.cpp).
#include "eigen_backend.hpp"

namespace ember::eigen {

EMBER_HOST_COMPARISON_OPS(EMBER_HOST_FORWARD, EigenBackend)

}  // namespace ember::eigen
