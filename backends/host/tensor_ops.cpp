// The host backends' category "tensor": creation, copies, layout changes, indexing and sorting. These move or
// fill elements without arithmetic a BLAS routine or Eigen could speed up, so they run the shared host
// kernels (frontend/src/host/tensor_kernels.hpp), which keeps their bytes identical on every host backend.
#include "backends/host/host_ops.hpp"
#include "host/tensor_kernels.hpp"

namespace ember::host {

void HostOps::full(Tensor& out, Scalar value) {
  host::full(out, value);
}
void HostOps::eye(Tensor& out, std::int64_t k) {
  host::eye(out, k);
}
void HostOps::arange(Tensor& out, double start, double step) {
  host::arange(out, start, step);
}
void HostOps::linspace(Tensor& out, double start, double stop, bool endpoint) {
  host::linspace(out, start, stop, endpoint);
}
void HostOps::from_data(Tensor& out, const void* data) {
  host::copy_bytes(data, out.raw_data(), out.nbytes());
}
void HostOps::to_host(const Tensor& x, void* data) {
  host::copy_bytes(x.raw_data(), data, x.nbytes());
}
void HostOps::copy(const Tensor& x, Tensor& out) {
  host::copy_bytes(x.raw_data(), out.raw_data(), x.nbytes());
}
void HostOps::transpose(const Tensor& x, const std::vector<int>& perm, Tensor& out) {
  host::transpose(x, perm, out);
}
void HostOps::broadcast_to(const Tensor& x, Tensor& out) {
  host::broadcast_to(x, out);
}
void HostOps::concatenate(const std::vector<Tensor>& xs, int axis, Tensor& out) {
  host::concatenate(xs, axis, out);
}
void HostOps::tile(const Tensor& x, Tensor& out) {
  host::tile(x, out);
}
void HostOps::pad(const Tensor& x, const std::vector<std::pair<std::int64_t, std::int64_t>>& pads,
                  PadMode mode, Scalar value, Tensor& out) {
  host::pad(x, pads, mode, value, out);
}
void HostOps::slice(const Tensor& x, const std::vector<std::int64_t>& starts,
                    const std::vector<std::int64_t>& steps, Tensor& out) {
  host::slice(x, starts, steps, out);
}
void HostOps::gather(const Tensor& x, const Tensor& indices, int axis, Tensor& out) {
  host::gather(x, indices, axis, out);
}
void HostOps::scatter_add(const Tensor& x, const Tensor& indices, const Tensor& updates, int axis,
                          Tensor& out) {
  host::scatter_add(x, indices, updates, axis, out);
}
void HostOps::flip(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  host::flip(x, axes, out);
}
void HostOps::sort(const Tensor& x, int axis, bool descending, Tensor& out) {
  host::sort(x, axis, descending, out);
}
void HostOps::argsort(const Tensor& x, int axis, bool descending, Tensor& out) {
  host::argsort(x, axis, descending, out);
}

}  // namespace ember::host
