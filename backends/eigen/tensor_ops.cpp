// The Eigen backend, category "tensor": creation, copies, layout changes, indexing and sorting: the shared
// host layer's (backends/host/tensor_ops.cpp).
#include "eigen_backend.hpp"

namespace ember::eigen {

EMBER_HOST_TENSOR_OPS(EMBER_HOST_FORWARD, EigenBackend)

}  // namespace ember::eigen
