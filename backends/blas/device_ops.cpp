// BLAS backend, category "device": the single cpu device and counted, 64-byte aligned host memory
// (frontend/src/host/host_memory.hpp). OpenBLAS and LAPACKE work on these host buffers directly.
#include <memory>

#include "blas_backend.hpp"
#include "host/host_memory.hpp"
#include "host/tensor_kernels.hpp"

namespace ember::blas {

BlasBackend::BlasBackend() : memory_(std::make_shared<host::HostMemoryCounters>()) {}

std::unique_ptr<Backend> make_backend() {
  return std::make_unique<BlasBackend>();
}

bool BlasBackend::is_available() {
  return true;
}

std::vector<Device> BlasBackend::devices() {
  return {Device::cpu()};
}

std::shared_ptr<Buffer> BlasBackend::allocate(std::size_t nbytes, Device device) {
  if (!(device == Device::cpu())) {
    throw DeviceError("blas: allocate: device " + device.str() + " does not exist (blas has only cpu)");
  }
  return std::make_shared<host::HostBuffer>(nbytes, memory_);
}

void BlasBackend::to_device(const Tensor& x, Tensor& out) {
  host::copy_bytes(x.raw_data(), out.raw_data(), x.nbytes());
}

void BlasBackend::synchronize(Device /*device*/) {}

MemoryInfo BlasBackend::memory_info(Device /*device*/) {
  return memory_->info();
}

}  // namespace ember::blas
