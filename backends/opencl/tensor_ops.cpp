// OpenCL backend, category "tensor": creation, copies and layout changes.
#include "opencl_backend.hpp"
#include "runtime.hpp"

namespace ember::opencl {

void OpenCLBackend::full(Tensor& out, Scalar value) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "full");
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T v = value.to<T>();  // bool is one byte 0/1, half its binary16 bits: the storage pattern itself
    check(clEnqueueFillBuffer(dev.queue(), mem_of(out), &v, sizeof v, out.byte_offset(), out.nbytes(), 0,
                              nullptr, nullptr),
          "clEnqueueFillBuffer");
  });
}

void OpenCLBackend::from_data(Tensor& out, const void* host) {
  runtime_->device(out.device(), "from_data").write(mem_of(out), out.byte_offset(), out.nbytes(), host);
}

void OpenCLBackend::to_host(const Tensor& x, void* host) {
  runtime_->device(x.device(), "to_host").read(mem_of(x), x.byte_offset(), x.nbytes(), host);
}

void OpenCLBackend::copy(const Tensor& x, Tensor& out) {
  if (x.nbytes() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "copy");
  check(clEnqueueCopyBuffer(dev.queue(), mem_of(x), mem_of(out), x.byte_offset(), out.byte_offset(),
                            x.nbytes(), 0, nullptr, nullptr),
        "clEnqueueCopyBuffer");
}

}  // namespace ember::opencl
