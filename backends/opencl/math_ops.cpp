// OpenCL backend, category "math": element-wise arithmetic with broadcasting, matmul/dot, reductions and
// cumsum, all as kernels of kernels/math.cl built once per dtype. The kernels mirror the eigen backend's
// scalar semantics and summation order, so integer results are identical and float + - * / and sums are
// bit-identical too; transcendental functions are the device's builtins (a few ulp from glibc's). Large
// float32 products go through CLBlast's GEMM when the library is built with it (EMBER_HAVE_CLBLAST).
#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#ifdef EMBER_HAVE_CLBLAST
#include <clblast.h>
#endif

#include "layout.hpp"
#include "opencl_backend.hpp"
#include "runtime.hpp"

namespace ember::opencl {

namespace {

cl_kernel math_kernel(DeviceContext& dev, DType dtype, const std::string& op) {
  return dev.kernel("math", dtype_options(dtype), (op + "_kernel").c_str());
}

bool is_floating(DType d) {
  return d == DType::float16 || d == DType::float32 || d == DType::float64;
}

void require_float(const char* op, DType d) {
  if (!is_floating(d))
    throw BackendError(std::string("opencl: ") + op + ": expected a floating-point tensor");
}

void binary(Runtime& rt, const char* op, const Tensor& a, const Tensor& b, Tensor& out) {
  if (out.size() == 0) return;
  DeviceContext& dev = rt.device(out.device(), op);
  ClDims sa, sb;
  const cl_int amode = broadcast_mode(op, a, out, sa), bmode = broadcast_mode(op, b, out, sb);
  const auto rows_kernel = [&] {  // broadcasting: without per-element division where the shapes allow
    return dev.kernel("math", dtype_options(out.dtype()), (std::string(op) + "_kernel_rows").c_str());
  };
  if (launch_broadcast_rows(dev, rows_kernel, {amode, bmode}, out, a, b)) return;
  dev.launch(math_kernel(dev, out.dtype(), op), out.size(), arg(a), arg(b), arg(out),
             static_cast<cl_int>(out.ndim()), dims_of(op, out.shape()), sa, sb, amode, bmode);
}

void unary(Runtime& rt, const char* op, const Tensor& x, Tensor& out) {
  if (out.size() == 0) return;
  DeviceContext& dev = rt.device(out.device(), op);
  dev.launch(math_kernel(dev, out.dtype(), op), out.size(), arg(x), arg(out));
}

void float_unary(Runtime& rt, const char* op, const Tensor& x, Tensor& out) {
  require_float(op, out.dtype());
  unary(rt, op, x, out);
}

// The reduction of x over `axes` as the kernels of math.cl see it (REDUCE_ARGS).
struct Reduction {
  cl_int nk = 0, nr = 0;
  ClDims kdims, kstrides, rdims, rstrides;
  cl_long count = 1;
  cl_int contiguous = 0;
  cl_long extent = 1;  // of the last axis when it is kept: outputs the kernel's lanes take side by side
};

Reduction reduction_of(const char* op, const Tensor& x, const std::vector<int>& axes) {
  const Shape& shape = x.shape();
  check_rank(op, shape.size());
  const Shape strides = contiguous_strides(shape);
  Reduction r;
  std::vector<bool> reduced(shape.size(), false);
  for (int a : axes) reduced[static_cast<std::size_t>(a)] = true;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (reduced[d]) {
      r.rdims.v[r.nr] = shape[d];
      r.rstrides.v[r.nr++] = strides[d];
      r.count *= shape[d];
    } else {
      r.kdims.v[r.nk] = shape[d];
      r.kstrides.v[r.nk++] = strides[d];
    }
  }
  // The eigen backend sums a run pairwise when the reduced axes are consecutive and nothing after them
  // has extent > 1 (the run is then contiguous); elsewhere it adds in row-major order, as the kernel does.
  if (!axes.empty() && axes.back() - axes.front() + 1 == static_cast<int>(axes.size())) {
    std::int64_t inner = 1;
    for (std::size_t d = static_cast<std::size_t>(axes.back()) + 1; d < shape.size(); ++d) inner *= shape[d];
    if (inner == 1) {  // one axis of stride 1 over the whole run
      r.contiguous = 1;
      r.nr = 1;
      r.rdims.v[0] = r.count;
      r.rstrides.v[0] = 1;
    }
  }
  if (!shape.empty() && !reduced.back()) r.extent = shape.back();
  return r;
}

template <class... Extra>
void reduce(Runtime& rt, const char* op, const Tensor& x, const std::vector<int>& axes, Tensor& out,
            const Extra&... extra) {
  if (out.size() == 0) return;
  DeviceContext& dev = rt.device(out.device(), op);
  const Reduction r = reduction_of(op, x, axes);
  constexpr cl_long lanes = 32;  // LANES in math.cl
  const cl_long chunks = (r.extent + lanes - 1) / lanes;
  dev.launch(math_kernel(dev, x.dtype(), op), out.size() / r.extent * chunks, arg(x), r.nk, r.kdims,
             r.kstrides, r.nr, r.rdims, r.rstrides, r.count, r.contiguous, r.extent, chunks, arg(out),
             extra...);
}

// (outer, extent, inner) of x around `axis`.
struct AxisSplit {
  cl_long outer = 1, extent = 1, inner = 1;
};
AxisSplit split_at(const Shape& shape, int axis) {
  AxisSplit s;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    const std::int64_t e = shape[static_cast<std::size_t>(d)];
    if (d < axis) {
      s.outer *= e;
    } else if (d == axis) {
      s.extent = e;
    } else {
      s.inner *= e;
    }
  }
  return s;
}

void along_axis(Runtime& rt, const char* op, const Tensor& x, int axis, Tensor& out) {
  const AxisSplit s = split_at(x.shape(), axis);
  if (s.outer * s.inner == 0 || s.extent == 0) return;
  DeviceContext& dev = rt.device(out.device(), op);
  dev.launch(math_kernel(dev, x.dtype(), op), s.outer * s.inner, arg(x), arg(out), s.extent, s.inner);
}

#ifdef EMBER_HAVE_CLBLAST
// float32 products of at least this many multiply-adds (64^3) go through CLBlast's GEMM; smaller ones and
// other dtypes stay on matmul_kernel, which needs no extra program. CLBlast builds its GEMM program at first
// use (about 27 s per precision on pocl; pocl's own kernel cache keeps it, so only a machine's first run
// pays); float64 would double that in a cold test run and has no benchmark case, so it is left out.
constexpr std::int64_t kClblastMinProduct = std::int64_t{1} << 18;

// CLBlast's GEMM parameters for CPU devices: its database has none for pocl, and its defaults (tuned for
// GPUs) take 400 ms for a 1024^3 float32 product on pocl's CPU device, slower than matmul_kernel (340 ms).
// These take 110 ms there (2 cores with AVX-512, pocl 3.1): 64 x 128 output tiles per work-group of 8 x 8
// work-items, each work-item 8 x 16 outputs in registers, vectors of 8 and 16 floats. And the indirect
// kernel from 64^3 up (CLBlast's default, 384^3, would send a 256^3 product to its direct kernel: 5 ms
// instead of 0.8 ms).
void tune_for_cpu(cl_device_id device) {
  const std::unordered_map<std::string, std::size_t> xgemm = {
      {"GEMMK", 0}, {"KREG", 1},  {"KWG", 32},  {"KWI", 2},   {"MDIMA", 8}, {"MDIMC", 8},
      {"MWG", 64},  {"NDIMB", 8}, {"NDIMC", 8}, {"NWG", 128}, {"SA", 0},    {"SB", 0},
      {"STRM", 0},  {"STRN", 0},  {"VWM", 8},   {"VWN", 16}};
  clblast::OverrideParameters(device, "Xgemm", clblast::Precision::kSingle, xgemm);
  clblast::OverrideParameters(device, "GemmRoutine", clblast::Precision::kSingle,
                              {{"XGEMM_MIN_INDIRECT_SIZE", 64}});
}

// out[b] = a[b] x b[b] through CLBlast, enqueued on the device's in-order queue like every kernel; false if
// CLBlast is not to be used for this product (small, not float32) or failed on this device, which then
// keeps to matmul_kernel. CLBlast adds each output's products in its own blocked order (2K ulp bound,
// README); with beta = 0 it never reads out.
bool clblast_gemm(DeviceContext& dev, const Tensor& a, const Tensor& b, Tensor& out, std::int64_t batches,
                  std::int64_t m, std::int64_t k, std::int64_t n) {
  if (out.dtype() != DType::float32 || k == 0 || m * n * k < kClblastMinProduct) return false;
  static std::mutex mutex;
  static std::map<cl_device_id, bool> usable;  // per device: tuned, and not failed
  {
    const std::lock_guard<std::mutex> lock(mutex);
    const auto [it, first] = usable.try_emplace(dev.id(), true);
    if (first) {
      cl_device_type type = 0;
      clGetDeviceInfo(dev.id(), CL_DEVICE_TYPE, sizeof(type), &type, nullptr);
      if ((type & CL_DEVICE_TYPE_CPU) != 0) tune_for_cpu(dev.id());
    }
    if (!it->second) return false;
  }
  const TensorArg ta = arg(a), tb = arg(b), to = arg(out);
  const auto u = [](std::int64_t v) { return static_cast<std::size_t>(v); };
  cl_command_queue queue = dev.queue();
  const clblast::StatusCode status = [&] {
    using T = float;
    const T one = 1;
    if (batches == 1)
      return clblast::Gemm<T>(clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo,
                              u(m), u(n), u(k), one, ta.mem, u(ta.offset), u(k), tb.mem, u(tb.offset), u(n),
                              T(0), to.mem, u(to.offset), u(n), &queue);
    return clblast::GemmStridedBatched<T>(clblast::Layout::kRowMajor, clblast::Transpose::kNo,
                                          clblast::Transpose::kNo, u(m), u(n), u(k), one, ta.mem,
                                          u(ta.offset), u(k), u(m * k), tb.mem, u(tb.offset), u(n), u(k * n),
                                          T(0), to.mem, u(to.offset), u(n), u(m * n), u(batches), &queue);
  }();
  if (status == clblast::StatusCode::kSuccess) return true;
  const std::lock_guard<std::mutex> lock(mutex);
  usable[dev.id()] = false;  // a program that does not build on this device would not build next time either
  return false;
}
#endif

// out[b] = a[b] x b[b] with the tiled kernel (matmul_kernel in math.cl), or CLBlast's GEMM for large float32
// products; a (B, M, K) and b (B, K, N).
void gemm(Runtime& rt, const char* op, const Tensor& a, const Tensor& b, Tensor& out, std::int64_t batches,
          std::int64_t m, std::int64_t k, std::int64_t n) {
  if (batches == 0 || m == 0 || n == 0) return;
  constexpr std::size_t tile = 64, group = 16;  // TM and the work-group size in math.cl
  DeviceContext& dev = rt.device(out.device(), op);
#ifdef EMBER_HAVE_CLBLAST
  if (clblast_gemm(dev, a, b, out, batches, m, k, n)) return;
#endif
  const std::size_t m_tiles = (static_cast<std::size_t>(m) + tile - 1) / tile;
  const std::size_t n_tiles = (static_cast<std::size_t>(n) + tile - 1) / tile;
  const std::size_t global[2] = {n_tiles * group, static_cast<std::size_t>(batches) * m_tiles * group};
  const std::size_t local[2] = {group, group};
  dev.launch_2d(math_kernel(dev, out.dtype(), "matmul"), global, local, arg(a), arg(b), arg(out),
                static_cast<cl_long>(m), static_cast<cl_long>(k), static_cast<cl_long>(n),
                static_cast<cl_long>(m_tiles));
}

}  // namespace

// ---- binary arithmetic -----------------------------------------------------------------------------------

void OpenCLBackend::add(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "add", a, b, out);
}
void OpenCLBackend::subtract(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "subtract", a, b, out);
}
void OpenCLBackend::multiply(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "multiply", a, b, out);
}
void OpenCLBackend::divide(const Tensor& a, const Tensor& b, Tensor& out) {
  require_float("divide", out.dtype());
  binary(*runtime_, "divide", a, b, out);
}
void OpenCLBackend::floor_divide(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "floor_divide", a, b, out);
}
void OpenCLBackend::mod(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "mod", a, b, out);
}
void OpenCLBackend::power(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "power", a, b, out);
}
void OpenCLBackend::minimum(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "minimum", a, b, out);
}
void OpenCLBackend::maximum(const Tensor& a, const Tensor& b, Tensor& out) {
  binary(*runtime_, "maximum", a, b, out);
}

// ---- unary -----------------------------------------------------------------------------------------------

void OpenCLBackend::negative(const Tensor& x, Tensor& out) {
  unary(*runtime_, "negative", x, out);
}
void OpenCLBackend::abs(const Tensor& x, Tensor& out) {
  unary(*runtime_, "abs", x, out);
}
void OpenCLBackend::sign(const Tensor& x, Tensor& out) {
  unary(*runtime_, "sign", x, out);
}
void OpenCLBackend::square(const Tensor& x, Tensor& out) {
  unary(*runtime_, "square", x, out);
}
void OpenCLBackend::sqrt(const Tensor& x, Tensor& out) {
  float_unary(*runtime_, "sqrt", x, out);
}
void OpenCLBackend::exp(const Tensor& x, Tensor& out) {
  float_unary(*runtime_, "exp", x, out);
}
void OpenCLBackend::expm1(const Tensor& x, Tensor& out) {
  float_unary(*runtime_, "expm1", x, out);
}
void OpenCLBackend::log(const Tensor& x, Tensor& out) {
  float_unary(*runtime_, "log", x, out);
}
void OpenCLBackend::log1p(const Tensor& x, Tensor& out) {
  float_unary(*runtime_, "log1p", x, out);
}
void OpenCLBackend::log2(const Tensor& x, Tensor& out) {
  float_unary(*runtime_, "log2", x, out);
}
void OpenCLBackend::log10(const Tensor& x, Tensor& out) {
  float_unary(*runtime_, "log10", x, out);
}
void OpenCLBackend::sin(const Tensor& x, Tensor& out) {
  float_unary(*runtime_, "sin", x, out);
}
void OpenCLBackend::cos(const Tensor& x, Tensor& out) {
  float_unary(*runtime_, "cos", x, out);
}
void OpenCLBackend::tan(const Tensor& x, Tensor& out) {
  float_unary(*runtime_, "tan", x, out);
}
void OpenCLBackend::sinh(const Tensor& x, Tensor& out) {
  float_unary(*runtime_, "sinh", x, out);
}
void OpenCLBackend::cosh(const Tensor& x, Tensor& out) {
  float_unary(*runtime_, "cosh", x, out);
}
void OpenCLBackend::tanh(const Tensor& x, Tensor& out) {
  float_unary(*runtime_, "tanh", x, out);
}

// Integers (and bool) are their own floor, ceil and round.
void OpenCLBackend::floor(const Tensor& x, Tensor& out) {
  is_floating(out.dtype()) ? unary(*runtime_, "floor", x, out) : copy(x, out);
}
void OpenCLBackend::ceil(const Tensor& x, Tensor& out) {
  is_floating(out.dtype()) ? unary(*runtime_, "ceil", x, out) : copy(x, out);
}
void OpenCLBackend::round(const Tensor& x, Tensor& out) {
  is_floating(out.dtype()) ? unary(*runtime_, "round", x, out) : copy(x, out);
}

void OpenCLBackend::clip(const Tensor& x, std::optional<Scalar> lo, std::optional<Scalar> hi, Tensor& out) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "clip");
  const cl_int has_lo = lo.has_value() ? 1 : 0, has_hi = hi.has_value() ? 1 : 0;
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    // The bounds in the kernel's compute type C, converted through T like the eigen backend does.
    auto bound = [&](const std::optional<Scalar>& s) {
      if constexpr (std::is_same_v<T, half>) {
        return s ? static_cast<float>(s->to<half>()) : 0.0f;
      } else if constexpr (std::is_same_v<T, bool>) {
        return static_cast<cl_uchar>(s ? s->to<bool>() : false);
      } else {
        return s ? s->to<T>() : T{};
      }
    };
    dev.launch(math_kernel(dev, out.dtype(), "clip"), out.size(), arg(x), arg(out), has_lo, bound(lo), has_hi,
               bound(hi));
  });
}

// ---- matmul and dot --------------------------------------------------------------------------------------

void OpenCLBackend::matmul(const Tensor& a, const Tensor& b, Tensor& out) {
  gemm(*runtime_, "matmul", a, b, out, a.shape()[0], a.shape()[1], a.shape()[2], b.shape()[2]);
}

void OpenCLBackend::dot(const Tensor& a, const Tensor& b, Tensor& out) {
  // (1, n) x (n, 1): the same kernel adds the n products in order.
  gemm(*runtime_, "dot", a, b, out, 1, 1, a.size(), 1);
}

// ---- reductions ------------------------------------------------------------------------------------------

void OpenCLBackend::sum(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  // Float sums over leading axes (0 .. m - 1 of m < ndim): math.cl's sum_columns, strips of columns down the
  // rows, one work-item per work-group. A strip is as wide as spreads the columns over the device's compute
  // units, at most kMaxSumStrip columns: a 4096 x 4096 float32 sum along axis 0 took 3.4 to 3.7 ms in strips
  // of 256 columns, 1.75 to 2.0 ms in strips of 1024 (pocl, 2 cores).
  constexpr std::int64_t kLanes = 32, kMaxSumStrip = 32 * kLanes;  // LANES and MAX_STRIP in math.cl
  const bool leading = !axes.empty() && axes.front() == 0 &&
                       axes.back() + 1 == static_cast<int>(axes.size()) && axes.back() + 1 < x.ndim();
  if (leading && is_floating(x.dtype()) && out.size() > 0) {
    DeviceContext& dev = runtime_->device(out.device(), "sum");
    const std::int64_t cols = out.size(), rows = x.size() / cols;
    const auto units = static_cast<std::int64_t>(dev.compute_units());
    const std::int64_t strip =
        std::clamp(((cols + units - 1) / units + kLanes - 1) / kLanes * kLanes, kLanes, kMaxSumStrip);
    const std::size_t global[2] = {static_cast<std::size_t>((cols + strip - 1) / strip), 1};
    const std::size_t local[2] = {1, 1};
    dev.launch_2d(dev.kernel("math", dtype_options(x.dtype()), "sum_columns"), global, local, arg(x),
                  static_cast<cl_long>(rows), static_cast<cl_long>(cols), static_cast<cl_long>(strip),
                  arg(out));
    return;
  }
  reduce(*runtime_, "sum", x, axes, out);
}
void OpenCLBackend::prod(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  reduce(*runtime_, "prod", x, axes, out);
}
void OpenCLBackend::mean(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  require_float("mean", out.dtype());
  reduce(*runtime_, "mean", x, axes, out);
}

namespace {
void variance(Runtime& rt, const char* op, const Tensor& x, const std::vector<int>& axes, double ddof,
              Tensor& out, bool take_sqrt) {
  require_float(op, out.dtype());
  if (out.size() == 0) return;
  const cl_int sqrt_flag = take_sqrt ? 1 : 0;
  // ddof in the kernel's accumulation type (FACC in math.cl): double where the device has it.
  if (rt.device(out.device(), op).has_fp64()) {
    reduce(rt, "var", x, axes, out, static_cast<cl_double>(ddof), sqrt_flag);
  } else {
    reduce(rt, "var", x, axes, out, static_cast<cl_float>(ddof), sqrt_flag);
  }
}
}  // namespace

void OpenCLBackend::var(const Tensor& x, const std::vector<int>& axes, double ddof, Tensor& out) {
  variance(*runtime_, "var", x, axes, ddof, out, false);
}
void OpenCLBackend::std(const Tensor& x, const std::vector<int>& axes, double ddof, Tensor& out) {
  variance(*runtime_, "std", x, axes, ddof, out, true);
}
void OpenCLBackend::min(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  reduce(*runtime_, "min", x, axes, out);
}
void OpenCLBackend::max(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  reduce(*runtime_, "max", x, axes, out);
}
void OpenCLBackend::argmin(const Tensor& x, int axis, Tensor& out) {
  along_axis(*runtime_, "argmin", x, axis, out);
}
void OpenCLBackend::argmax(const Tensor& x, int axis, Tensor& out) {
  along_axis(*runtime_, "argmax", x, axis, out);
}
void OpenCLBackend::cumsum(const Tensor& x, int axis, Tensor& out) {
  along_axis(*runtime_, "cumsum", x, axis, out);
}

}  // namespace ember::opencl
