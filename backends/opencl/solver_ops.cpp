// OpenCL backend, category "solver". diag, diagonal, trace and outer are cheap element ops and run as
// kernels (kernels/layout.cl and kernels/tensor.cl). The factorizations and norm run as an explicit HOST
// FALLBACK (allowed by the design; the inventory shows them as fallback): host_fallback downloads the
// operands, runs the same-named op of a host backend from the registry ("blas" when it is registered and
// available, else "eigen") and uploads the results. Exceptions, LinAlgError with its batch index included,
// propagate unchanged.
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "ember/selection.hpp"
#include "layout.hpp"
#include "opencl_backend.hpp"
#include "runtime.hpp"

namespace ember::opencl {

namespace {

// The backend the fallback runs on.
Backend& host_backend() {
  const std::vector<std::string> names = registered_backends();
  for (const char* name : {"blas", "eigen"}) {
    for (const std::string& registered : names) {
      if (registered != name) continue;
      Backend& b = get_backend(name);
      if (b.is_available()) return b;
    }
  }
  throw BackendError("opencl: the solver ops need a host backend (blas or eigen) and none is available");
}

// An uninitialised host tensor of t's shape and dtype on `host`; undefined for an undefined t (the outputs
// svd leaves untouched without compute_uv).
Tensor host_tensor(Backend& host, const Tensor& t) {
  if (!t.defined()) return {};
  return {host.allocate(t.nbytes(), Device::cpu()), 0, t.shape(), t.dtype(), &host};
}

// Runs op(host, host_inputs, host_outputs) on copies of `inputs` in host memory and uploads host_outputs
// into `outputs` (undefined outputs stay untouched).
template <class Op>
void host_fallback(OpenCLBackend& self, std::initializer_list<const Tensor*> inputs,
                   std::initializer_list<Tensor*> outputs, Op op) {
  Backend& host = host_backend();
  std::vector<Tensor> in, out;
  for (const Tensor* t : inputs) {
    in.push_back(host_tensor(host, *t));
    self.to_host(*t, in.back().raw_data());
  }
  for (Tensor* t : outputs) out.push_back(host_tensor(host, *t));
  op(host, in, out);
  std::size_t k = 0;
  for (Tensor* t : outputs) {
    // emberlint: ignore-next-line[EL302] the host backend computed these results in host memory
    if (t->defined()) self.from_data(*t, out[k].raw_data());
    ++k;
  }
}

}  // namespace

// ---- host fallback ---------------------------------------------------------------------------------------

void OpenCLBackend::solve(const Tensor& a, const Tensor& b, Tensor& out) {
  host_fallback(*this, {&a, &b}, {&out}, [](Backend& h, auto& in, auto& o) { h.solve(in[0], in[1], o[0]); });
}
void OpenCLBackend::inv(const Tensor& a, Tensor& out) {
  host_fallback(*this, {&a}, {&out}, [](Backend& h, auto& in, auto& o) { h.inv(in[0], o[0]); });
}
void OpenCLBackend::det(const Tensor& a, Tensor& out) {
  host_fallback(*this, {&a}, {&out}, [](Backend& h, auto& in, auto& o) { h.det(in[0], o[0]); });
}
void OpenCLBackend::cholesky(const Tensor& a, Tensor& out) {
  host_fallback(*this, {&a}, {&out}, [](Backend& h, auto& in, auto& o) { h.cholesky(in[0], o[0]); });
}
void OpenCLBackend::qr(const Tensor& a, Tensor& q, Tensor& r) {
  host_fallback(*this, {&a}, {&q, &r}, [](Backend& h, auto& in, auto& o) { h.qr(in[0], o[0], o[1]); });
}
void OpenCLBackend::svd(const Tensor& a, Tensor& u, Tensor& s, Tensor& vt, bool compute_uv) {
  host_fallback(*this, {&a}, {&u, &s, &vt},
                [&](Backend& h, auto& in, auto& o) { h.svd(in[0], o[0], o[1], o[2], compute_uv); });
}
void OpenCLBackend::eigh(const Tensor& a, Tensor& w, Tensor& v) {
  host_fallback(*this, {&a}, {&w, &v}, [](Backend& h, auto& in, auto& o) { h.eigh(in[0], o[0], o[1]); });
}
void OpenCLBackend::lstsq(const Tensor& a, const Tensor& b, double rcond, Tensor& x, std::int64_t& rank,
                          Tensor& s) {
  host_fallback(*this, {&a, &b}, {&x, &s},
                [&](Backend& h, auto& in, auto& o) { h.lstsq(in[0], in[1], rcond, o[0], rank, o[1]); });
}
void OpenCLBackend::norm(const Tensor& x, double ord, const std::vector<int>& axes, Tensor& out) {
  host_fallback(*this, {&x}, {&out}, [&](Backend& h, auto& in, auto& o) { h.norm(in[0], ord, axes, o[0]); });
}

// ---- native ----------------------------------------------------------------------------------------------

void OpenCLBackend::diag(const Tensor& x, std::int64_t k, Tensor& out) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "diag");
  dev.launch(layout_kernel(dev, x.itemsize(), "diag"), out.size(), arg(x), arg(out),
             static_cast<cl_long>(out.shape()[0]), static_cast<cl_long>(k));
}

void OpenCLBackend::diagonal(const Tensor& x, std::int64_t offset, Tensor& out) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "diagonal");
  const std::int64_t rows = x.shape()[1], cols = x.shape()[2];
  const DiagonalSpan d = diagonal_span(rows, cols, offset);
  dev.launch(layout_kernel(dev, x.itemsize(), "diagonal"), out.size(), arg(x), arg(out),
             static_cast<cl_long>(rows), static_cast<cl_long>(cols), static_cast<cl_long>(d.row),
             static_cast<cl_long>(d.col), static_cast<cl_long>(d.length));
}

void OpenCLBackend::trace(const Tensor& x, std::int64_t offset, Tensor& out) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "trace");
  const std::int64_t rows = x.shape()[1], cols = x.shape()[2];
  const DiagonalSpan d = diagonal_span(rows, cols, offset);
  dev.launch(dev.kernel("tensor", dtype_options(x.dtype()), "trace"), out.size(), arg(x), arg(out),
             static_cast<cl_long>(rows), static_cast<cl_long>(cols), static_cast<cl_long>(d.row),
             static_cast<cl_long>(d.col), static_cast<cl_long>(d.length));
}

void OpenCLBackend::outer(const Tensor& a, const Tensor& b, Tensor& out) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "outer");
  dev.launch(dev.kernel("tensor", dtype_options(out.dtype()), "outer"), out.size(), arg(a), arg(b), arg(out),
             static_cast<cl_long>(b.size()));
}

}  // namespace ember::opencl
