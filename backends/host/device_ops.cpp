// The host backends' category "device": the single cpu device and counted, 64-byte aligned host memory
// (frontend/src/host/host_memory.hpp). Eigen, OpenBLAS and LAPACKE work on these host buffers directly.
#include <memory>

#include "backends/host/host_ops.hpp"
#include "ember/error.hpp"
#include "host/host_memory.hpp"
#include "host/tensor_kernels.hpp"

namespace ember::host {

HostOps::HostOps(const char* backend, Backend& self)
    : backend_(backend), self_(self), memory_(std::make_shared<HostMemoryCounters>()) {}

bool HostOps::is_available() {
  return true;
}

std::vector<Device> HostOps::devices() {
  return {Device::cpu()};
}

std::shared_ptr<Buffer> HostOps::allocate(std::size_t nbytes, Device device) {
  if (!(device == Device::cpu())) {
    throw DeviceError(std::string(backend_) + ": allocate: device " + device.str() + " does not exist (" +
                      backend_ + " has only cpu)");
  }
  return std::make_shared<HostBuffer>(nbytes, memory_);
}

void HostOps::to_device(const Tensor& x, Tensor& out) {
  host::copy_bytes(x.raw_data(), out.raw_data(), x.nbytes());
}

void HostOps::synchronize(Device /*device*/) {}

MemoryInfo HostOps::memory_info(Device /*device*/) {
  return memory_->info();
}

}  // namespace ember::host
