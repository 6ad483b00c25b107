// The BLAS backend, category "tensor": creation, copies, layout changes, indexing and sorting: the shared
// host layer's (backends/host/tensor_ops.cpp).
#include "blas_backend.hpp"

namespace ember::blas {

EMBER_HOST_TENSOR_OPS(EMBER_HOST_FORWARD, BlasBackend)

}  // namespace ember::blas
