// Temporary: the tensor, comparison and solver ops the OpenCL backend does not have yet. Each throws
// BackendError so that the library links; entries are deleted as the ops are implemented, then the file.
#include "opencl_backend.hpp"

namespace ember::opencl {

void OpenCLBackend::eye(Tensor&, std::int64_t) {
  throw BackendError("opencl: eye is not implemented yet");
}

void OpenCLBackend::arange(Tensor&, double, double) {
  throw BackendError("opencl: arange is not implemented yet");
}

void OpenCLBackend::linspace(Tensor&, double, double, bool) {
  throw BackendError("opencl: linspace is not implemented yet");
}

void OpenCLBackend::transpose(const Tensor&, const std::vector<int>&, Tensor&) {
  throw BackendError("opencl: transpose is not implemented yet");
}

void OpenCLBackend::broadcast_to(const Tensor&, Tensor&) {
  throw BackendError("opencl: broadcast_to is not implemented yet");
}

void OpenCLBackend::concatenate(const std::vector<Tensor>&, int, Tensor&) {
  throw BackendError("opencl: concatenate is not implemented yet");
}

void OpenCLBackend::tile(const Tensor&, Tensor&) {
  throw BackendError("opencl: tile is not implemented yet");
}

void OpenCLBackend::pad(const Tensor&, const std::vector<std::pair<std::int64_t, std::int64_t>>&, PadMode,
                        Scalar, Tensor&) {
  throw BackendError("opencl: pad is not implemented yet");
}

void OpenCLBackend::slice(const Tensor&, const std::vector<std::int64_t>&, const std::vector<std::int64_t>&,
                          Tensor&) {
  throw BackendError("opencl: slice is not implemented yet");
}

void OpenCLBackend::gather(const Tensor&, const Tensor&, int, Tensor&) {
  throw BackendError("opencl: gather is not implemented yet");
}

void OpenCLBackend::scatter_add(const Tensor&, const Tensor&, const Tensor&, int, Tensor&) {
  throw BackendError("opencl: scatter_add is not implemented yet");
}

void OpenCLBackend::flip(const Tensor&, const std::vector<int>&, Tensor&) {
  throw BackendError("opencl: flip is not implemented yet");
}

void OpenCLBackend::sort(const Tensor&, int, bool, Tensor&) {
  throw BackendError("opencl: sort is not implemented yet");
}

void OpenCLBackend::argsort(const Tensor&, int, bool, Tensor&) {
  throw BackendError("opencl: argsort is not implemented yet");
}

void OpenCLBackend::equal(const Tensor&, const Tensor&, Tensor&) {
  throw BackendError("opencl: equal is not implemented yet");
}

void OpenCLBackend::not_equal(const Tensor&, const Tensor&, Tensor&) {
  throw BackendError("opencl: not_equal is not implemented yet");
}

void OpenCLBackend::less(const Tensor&, const Tensor&, Tensor&) {
  throw BackendError("opencl: less is not implemented yet");
}

void OpenCLBackend::less_equal(const Tensor&, const Tensor&, Tensor&) {
  throw BackendError("opencl: less_equal is not implemented yet");
}

void OpenCLBackend::greater(const Tensor&, const Tensor&, Tensor&) {
  throw BackendError("opencl: greater is not implemented yet");
}

void OpenCLBackend::greater_equal(const Tensor&, const Tensor&, Tensor&) {
  throw BackendError("opencl: greater_equal is not implemented yet");
}

void OpenCLBackend::logical_and(const Tensor&, const Tensor&, Tensor&) {
  throw BackendError("opencl: logical_and is not implemented yet");
}

void OpenCLBackend::logical_or(const Tensor&, const Tensor&, Tensor&) {
  throw BackendError("opencl: logical_or is not implemented yet");
}

void OpenCLBackend::logical_xor(const Tensor&, const Tensor&, Tensor&) {
  throw BackendError("opencl: logical_xor is not implemented yet");
}

void OpenCLBackend::logical_not(const Tensor&, Tensor&) {
  throw BackendError("opencl: logical_not is not implemented yet");
}

void OpenCLBackend::isnan(const Tensor&, Tensor&) {
  throw BackendError("opencl: isnan is not implemented yet");
}

void OpenCLBackend::isinf(const Tensor&, Tensor&) {
  throw BackendError("opencl: isinf is not implemented yet");
}

void OpenCLBackend::isfinite(const Tensor&, Tensor&) {
  throw BackendError("opencl: isfinite is not implemented yet");
}

void OpenCLBackend::isclose(const Tensor&, const Tensor&, double, double, bool, Tensor&) {
  throw BackendError("opencl: isclose is not implemented yet");
}

void OpenCLBackend::all(const Tensor&, const std::vector<int>&, Tensor&) {
  throw BackendError("opencl: all is not implemented yet");
}

void OpenCLBackend::any(const Tensor&, const std::vector<int>&, Tensor&) {
  throw BackendError("opencl: any is not implemented yet");
}

void OpenCLBackend::where(const Tensor&, const Tensor&, const Tensor&, Tensor&) {
  throw BackendError("opencl: where is not implemented yet");
}

void OpenCLBackend::solve(const Tensor&, const Tensor&, Tensor&) {
  throw BackendError("opencl: solve is not implemented yet");
}

void OpenCLBackend::inv(const Tensor&, Tensor&) {
  throw BackendError("opencl: inv is not implemented yet");
}

void OpenCLBackend::det(const Tensor&, Tensor&) {
  throw BackendError("opencl: det is not implemented yet");
}

void OpenCLBackend::cholesky(const Tensor&, Tensor&) {
  throw BackendError("opencl: cholesky is not implemented yet");
}

void OpenCLBackend::qr(const Tensor&, Tensor&, Tensor&) {
  throw BackendError("opencl: qr is not implemented yet");
}

void OpenCLBackend::svd(const Tensor&, Tensor&, Tensor&, Tensor&, bool) {
  throw BackendError("opencl: svd is not implemented yet");
}

void OpenCLBackend::eigh(const Tensor&, Tensor&, Tensor&) {
  throw BackendError("opencl: eigh is not implemented yet");
}

void OpenCLBackend::lstsq(const Tensor&, const Tensor&, double, Tensor&, std::int64_t&, Tensor&) {
  throw BackendError("opencl: lstsq is not implemented yet");
}

void OpenCLBackend::norm(const Tensor&, double, const std::vector<int>&, Tensor&) {
  throw BackendError("opencl: norm is not implemented yet");
}

void OpenCLBackend::diag(const Tensor&, std::int64_t, Tensor&) {
  throw BackendError("opencl: diag is not implemented yet");
}

void OpenCLBackend::diagonal(const Tensor&, std::int64_t, Tensor&) {
  throw BackendError("opencl: diagonal is not implemented yet");
}

void OpenCLBackend::trace(const Tensor&, std::int64_t, Tensor&) {
  throw BackendError("opencl: trace is not implemented yet");
}

void OpenCLBackend::outer(const Tensor&, const Tensor&, Tensor&) {
  throw BackendError("opencl: outer is not implemented yet");
}

}  // namespace ember::opencl
