// The BLAS backend, category "device": the single cpu device and counted host memory, the shared host layer's
// (backends/host/device_ops.cpp).
#include "blas_backend.hpp"

namespace ember::blas {

BlasBackend::BlasBackend() : HostOps("blas", *this) {}

std::unique_ptr<Backend> make_backend() {
  return std::make_unique<BlasBackend>();
}

EMBER_HOST_DEVICE_OPS(EMBER_HOST_FORWARD, BlasBackend)

}  // namespace ember::blas
