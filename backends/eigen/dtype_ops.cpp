// The Eigen backend, category "dtype": element-wise conversion with NumPy's astype results: the shared host
// layer's (backends/host/dtype_ops.cpp).
#include "eigen_backend.hpp"

namespace ember::eigen {

EMBER_HOST_DTYPE_OPS(EMBER_HOST_FORWARD, EigenBackend)

}  // namespace ember::eigen
