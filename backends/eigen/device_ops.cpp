// Eigen backend, category "device": the single cpu device and counted, 64-byte aligned host memory
// (frontend/src/host/host_memory.hpp).
#include <memory>

#include "eigen_backend.hpp"
#include "host/host_memory.hpp"
#include "host/tensor_kernels.hpp"

namespace ember::eigen {

// The backend's private name for its counters (the header declares it; the buffers only need the base).
struct EigenBackend::Allocator final : host::HostMemoryCounters {};

EigenBackend::EigenBackend() : allocator_(std::make_shared<Allocator>()) {}

EigenBackend::Allocator& EigenBackend::allocator() {
  return *allocator_;
}

bool EigenBackend::is_available() {
  return true;
}

std::vector<Device> EigenBackend::devices() {
  return {Device::cpu()};
}

std::shared_ptr<Buffer> EigenBackend::allocate(std::size_t nbytes, Device device) {
  if (!(device == Device::cpu())) {
    throw DeviceError("eigen: allocate: device " + device.str() + " does not exist (eigen has only cpu)");
  }
  return std::make_shared<host::HostBuffer>(nbytes, allocator_);
}

void EigenBackend::to_device(const Tensor& x, Tensor& out) {
  host::copy_bytes(x.raw_data(), out.raw_data(), x.nbytes());
}

void EigenBackend::synchronize(Device /*device*/) {}

MemoryInfo EigenBackend::memory_info(Device /*device*/) {
  return allocator().info();
}

}  // namespace ember::eigen
