// The Eigen backend, category "device": the single cpu device and counted host memory, the shared host
// layer's (backends/host/device_ops.cpp).
#include "eigen_backend.hpp"

namespace ember::eigen {

EigenBackend::EigenBackend() : HostOps("eigen", *this) {}

std::unique_ptr<Backend> make_backend() {
  return std::make_unique<EigenBackend>();
}

EMBER_HOST_DEVICE_OPS(EMBER_HOST_FORWARD, EigenBackend)

}  // namespace ember::eigen
