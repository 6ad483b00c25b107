// OpenCL backend, category "comparison": comparisons, logic, float predicates, isclose, all/any
// (kernels/comparison.cl, built per operand dtype) and where (kernels/layout.cl, per element width). Results
// are exact, so they equal the eigen backend's byte for byte.
#include <string>
#include <vector>

#include "layout.hpp"
#include "opencl_backend.hpp"
#include "runtime.hpp"

namespace ember::opencl {

namespace {

cl_kernel comparison_kernel(DeviceContext& dev, DType dtype, const std::string& op) {
  return dev.kernel("comparison", dtype_options(dtype), (op + "_kernel").c_str());
}

void require_float(const char* op, DType d) {
  if (d != DType::float16 && d != DType::float32 && d != DType::float64)
    throw BackendError(std::string("opencl: ") + op + ": expected a floating-point tensor");
}

// out (bool) = op(a, b) with broadcasting; `extra` follows the operand arguments (isclose's tolerances).
template <class... Extra>
void binary(Runtime& rt, const char* op, const Tensor& a, const Tensor& b, Tensor& out,
            const Extra&... extra) {
  if (out.size() == 0) return;
  DeviceContext& dev = rt.device(out.device(), op);
  ClDims sa, sb;
  const cl_int amode = broadcast_mode(op, a, out, sa), bmode = broadcast_mode(op, b, out, sb);
  if constexpr (sizeof...(Extra) == 0) {  // broadcasting: without per-element division where the shapes allow
    const auto rows_kernel = [&] {
      return dev.kernel("comparison", dtype_options(a.dtype()), (std::string(op) + "_kernel_rows").c_str());
    };
    if (launch_broadcast_rows(dev, rows_kernel, {amode, bmode}, out, a, b)) return;
  }
  dev.launch(comparison_kernel(dev, a.dtype(), op), out.size(), arg(a), arg(b), arg(out),
             static_cast<cl_int>(out.ndim()), dims_of(op, out.shape()), sa, sb, amode, bmode, extra...);
}

void unary(Runtime& rt, const char* op, const Tensor& x, Tensor& out) {
  if (out.size() == 0) return;
  DeviceContext& dev = rt.device(out.device(), op);
  dev.launch(comparison_kernel(dev, x.dtype(), op), out.size(), arg(x), arg(out));
}

// all (want = 0) or any (want = 1) of bool x over `axes`, one work-item per output element reading its
// reduced elements in row-major order of the reduced axes.
void truth(Runtime& rt, const char* op, const Tensor& x, const std::vector<int>& axes, Tensor& out,
           cl_int want) {
  if (out.size() == 0) return;
  DeviceContext& dev = rt.device(out.device(), op);
  const Shape& shape = x.shape();
  check_rank(op, shape.size());
  const Shape strides = contiguous_strides(shape);
  std::vector<bool> reduced(shape.size(), false);
  for (int a : axes) reduced[static_cast<std::size_t>(a)] = true;
  ClDims kdims, kstrides, rdims, rstrides;
  cl_int nk = 0, nr = 0;
  cl_long count = 1;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (reduced[d]) {
      rdims.v[nr] = shape[d];
      rstrides.v[nr++] = strides[d];
      count *= shape[d];
    } else {
      kdims.v[nk] = shape[d];
      kstrides.v[nk++] = strides[d];
    }
  }
  dev.launch(comparison_kernel(dev, DType::bool_, "truth"), out.size(), arg(x), nk, kdims, kstrides, nr,
             rdims, rstrides, count, arg(out), want);
}

}  // namespace

void OpenCLBackend::equal(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "equal", a, b, out);
}
void OpenCLBackend::not_equal(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "not_equal", a, b, out);
}
void OpenCLBackend::less(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "less", a, b, out);
}
void OpenCLBackend::less_equal(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "less_equal", a, b, out);
}
void OpenCLBackend::greater(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "greater", a, b, out);
}
void OpenCLBackend::greater_equal(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "greater_equal", a, b, out);
}

void OpenCLBackend::logical_and(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "logical_and", a, b, out);
}
void OpenCLBackend::logical_or(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "logical_or", a, b, out);
}
void OpenCLBackend::logical_xor(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "logical_xor", a, b, out);
}
void OpenCLBackend::logical_not(const Tensor& x, Tensor& out) {
  unary(*runtime_, "logical_not", x, out);
}

void OpenCLBackend::isnan(const Tensor& x, Tensor& out) {
  require_float("isnan", x.dtype());
  unary(*runtime_, "isnan", x, out);
}
void OpenCLBackend::isinf(const Tensor& x, Tensor& out) {
  require_float("isinf", x.dtype());
  unary(*runtime_, "isinf", x, out);
}
void OpenCLBackend::isfinite(const Tensor& x, Tensor& out) {
  require_float("isfinite", x.dtype());
  unary(*runtime_, "isfinite", x, out);
}

void OpenCLBackend::isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan,
                            Tensor& out) {
  require_float("isclose", a.dtype());
  const cl_int nan_flag = equal_nan ? 1 : 0;
  // The tolerances in the kernel's compute type (double for float64, float otherwise), like NumPy and the
  // eigen backend, which apply them in the operands' precision.
  if (a.dtype() == DType::float64) {
    binary(*runtime_, "isclose", a, b, out, static_cast<cl_double>(rtol), static_cast<cl_double>(atol),
           nan_flag);
  } else {
    binary(*runtime_, "isclose", a, b, out, static_cast<cl_float>(rtol), static_cast<cl_float>(atol),
           nan_flag);
  }
}

void OpenCLBackend::all(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  truth(*runtime_, "all", x, axes, out, 0);
}
void OpenCLBackend::any(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  truth(*runtime_, "any", x, axes, out, 1);
}

void OpenCLBackend::where(const Tensor& cond, const Tensor& x, const Tensor& y, Tensor& out) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "where");
  ClDims sc, sx, sy;
  const cl_int cmode = broadcast_mode("where", cond, out, sc), xmode = broadcast_mode("where", x, out, sx),
               ymode = broadcast_mode("where", y, out, sy);
  // Broadcasting without per-element division where the shapes allow, as the binary ops.
  const auto rows_kernel = [&] { return layout_kernel(dev, out.itemsize(), "where_select_rows"); };
  if (launch_broadcast_rows(dev, rows_kernel, {cmode, xmode, ymode}, out, cond, x, y)) return;
  dev.launch(layout_kernel(dev, out.itemsize(), "where_select"), out.size(), arg(cond), arg(x), arg(y),
             arg(out), static_cast<cl_int>(out.ndim()), dims_of("where", out.shape()), sc, sx, sy, cmode,
             xmode, ymode);
}

}  // namespace ember::opencl
