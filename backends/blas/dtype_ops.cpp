// The BLAS backend, category "dtype": element-wise conversion with NumPy's astype results: the shared host
// layer's (backends/host/dtype_ops.cpp).
#include "blas_backend.hpp"

namespace ember::blas {

EMBER_HOST_DTYPE_OPS(EMBER_HOST_FORWARD, BlasBackend)

}  // namespace ember::blas
