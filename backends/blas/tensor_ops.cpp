// BLAS backend, category "tensor": creation, copies, layout changes, indexing and sorting. These move or fill
// elements without arithmetic a BLAS routine covers, so they run the shared host kernels
// (frontend/src/host/tensor_kernels.hpp), which keeps their bytes identical on every host backend.
#include "blas_backend.hpp"
#include "host/tensor_kernels.hpp"

namespace ember::blas {

void BlasBackend::full(Tensor& out, Scalar value) {
  host::full(out, value);
}
void BlasBackend::eye(Tensor& out, std::int64_t k) {
  host::eye(out, k);
}
void BlasBackend::arange(Tensor& out, double start, double step) {
  host::arange(out, start, step);
}
void BlasBackend::linspace(Tensor& out, double start, double stop, bool endpoint) {
  host::linspace(out, start, stop, endpoint);
}
void BlasBackend::from_data(Tensor& out, const void* data) {
  host::copy_bytes(data, out.raw_data(), out.nbytes());
}
void BlasBackend::to_host(const Tensor& x, void* data) {
  host::copy_bytes(x.raw_data(), data, x.nbytes());
}
void BlasBackend::copy(const Tensor& x, Tensor& out) {
  host::copy_bytes(x.raw_data(), out.raw_data(), x.nbytes());
}
void BlasBackend::transpose(const Tensor& x, const std::vector<int>& perm, Tensor& out) {
  host::transpose(x, perm, out);
}
void BlasBackend::broadcast_to(const Tensor& x, Tensor& out) {
  host::broadcast_to(x, out);
}
void BlasBackend::concatenate(const std::vector<Tensor>& xs, int axis, Tensor& out) {
  host::concatenate(xs, axis, out);
}
void BlasBackend::tile(const Tensor& x, Tensor& out) {
  host::tile(x, out);
}
void BlasBackend::pad(const Tensor& x, const std::vector<std::pair<std::int64_t, std::int64_t>>& pads,
                      PadMode mode, Scalar value, Tensor& out) {
  host::pad(x, pads, mode, value, out);
}
void BlasBackend::slice(const Tensor& x, const std::vector<std::int64_t>& starts,
                        const std::vector<std::int64_t>& steps, Tensor& out) {
  host::slice(x, starts, steps, out);
}
void BlasBackend::gather(const Tensor& x, const Tensor& indices, int axis, Tensor& out) {
  host::gather(x, indices, axis, out);
}
void BlasBackend::scatter_add(const Tensor& x, const Tensor& indices, const Tensor& updates, int axis,
                              Tensor& out) {
  host::scatter_add(x, indices, updates, axis, out);
}
void BlasBackend::flip(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  host::flip(x, axes, out);
}
void BlasBackend::sort(const Tensor& x, int axis, bool descending, Tensor& out) {
  host::sort(x, axis, descending, out);
}
void BlasBackend::argsort(const Tensor& x, int axis, bool descending, Tensor& out) {
  host::argsort(x, axis, descending, out);
}

}  // namespace ember::blas
