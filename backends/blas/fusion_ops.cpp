// The BLAS backend, category "fusion": the host block loop over this backend's own element-wise methods: the
// shared host layer's (backends/host/fusion_ops.cpp).
#include "blas_backend.hpp"

namespace ember::blas {

EMBER_HOST_FUSION_OPS(EMBER_HOST_FORWARD, BlasBackend)

}  // namespace ember::blas
