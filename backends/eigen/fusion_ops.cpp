// The Eigen backend, category "fusion": the host block loop over this backend's own element-wise methods: the
// shared host layer's (backends/host/fusion_ops.cpp).
#include "eigen_backend.hpp"

namespace ember::eigen {

EMBER_HOST_FUSION_OPS(EMBER_HOST_FORWARD, EigenBackend)

}  // namespace ember::eigen
