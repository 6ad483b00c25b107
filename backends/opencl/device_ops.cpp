// OpenCL backend, category "device": every device of every OpenCL platform, device buffers with counters.
#include <vector>

#include "opencl_backend.hpp"
#include "runtime.hpp"

namespace ember::opencl {

OpenCLBackend::OpenCLBackend() : runtime_(std::make_unique<Runtime>()) {}
OpenCLBackend::~OpenCLBackend() = default;

std::unique_ptr<Backend> make_backend() {
  return std::make_unique<OpenCLBackend>();
}

bool OpenCLBackend::is_available() {
  return runtime_->available();
}

std::string OpenCLBackend::unavailable_reason() {
  return runtime_->unavailable_reason();
}

std::vector<Device> OpenCLBackend::devices() {
  return runtime_->devices();
}

std::shared_ptr<Buffer> OpenCLBackend::allocate(std::size_t nbytes, Device device) {
  return runtime_->device(device, "allocate").allocate(nbytes);
}

void OpenCLBackend::to_device(const Tensor& x, Tensor& out) {
  if (x.nbytes() == 0) return;
  DeviceContext& from = runtime_->device(x.device(), "to_device");
  DeviceContext& to = runtime_->device(out.device(), "to_device");
  // Each device has its own context, so buffers cannot be copied directly: go through the host.
  std::vector<unsigned char> staging(x.nbytes());
  from.read(mem_of(x), x.byte_offset(), x.nbytes(), staging.data());
  to.write(mem_of(out), out.byte_offset(), out.nbytes(), staging.data());
}

void OpenCLBackend::synchronize(Device device) {
  runtime_->device(device, "synchronize").finish();
}

MemoryInfo OpenCLBackend::memory_info(Device device) {
  DeviceContext& dev = runtime_->device(device, "memory_info");
  const MemoryCounters& c = *dev.counters();
  MemoryInfo info;
  info.total_bytes = dev.global_mem_bytes();
  info.free_bytes = 0;  // OpenCL 1.2 has no portable query for free device memory
  info.bytes_in_use = c.bytes_in_use.load(std::memory_order_relaxed);
  info.peak_bytes_in_use = c.peak_bytes_in_use.load(std::memory_order_relaxed);
  info.allocations = c.allocations.load(std::memory_order_relaxed);
  return info;
}

}  // namespace ember::opencl
