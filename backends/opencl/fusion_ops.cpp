// OpenCL backend, category "fusion": a FusedProgram as ONE generated kernel. The kernel text depends only
// on the program's structure (FusedProgram::structure(): ops, dtypes, operand references), so it is built
// once per structure and device and cached under that key (DeviceContext::kernel_from_source); shapes,
// broadcast modes, tensors and constant values are kernel arguments. Each step computes with the
// OP_<name> expression of kernels/math_scalar.cl that math.cl's eager kernel uses, and each intermediate is
// kept exactly as a tensor of its dtype would hold it, so fused results are bit-identical to running the
// steps one by one. Programs are single-dtype: casts are not fused (the frontend runs them eagerly).
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "build_stats.hpp"
#include "layout.hpp"
#include "opencl_backend.hpp"
#include "runtime.hpp"

namespace ember::opencl {

namespace {

// CL_DEVICE_MAX_PARAMETER_SIZE is at least this on every (non-custom) device.
constexpr std::size_t kMinParameterBytes = 1024;

bool is_floating(DType d) {
  return d == DType::float16 || d == DType::float32 || d == DType::float64;
}

// Ops whose eager method requires a float dtype (math_ops.cpp's require_float): integers never fuse them.
bool float_only(ElementOp op) {
  return op == ElementOp::divide || (op >= ElementOp::sqrt && op <= ElementOp::tanh);
}

[[noreturn]] void reject(const std::string& what) {
  throw BackendError("opencl: fused_elementwise: " + what);
}

// The kernel's name for an operand: x<i> an input, c<i> a constant, s<i> an earlier step.
std::string ref_name(const FusedRef& r) {
  std::string name(1, r.kind == FusedRef::Kind::input ? 'x' : r.kind == FusedRef::Kind::constant ? 'c' : 's');
  name += std::to_string(r.index);
  return name;
}

// Every step is a non-cast op of out's dtype on operands that exist (steps: earlier ones), and every input
// and constant has out's dtype: the single-dtype programs fuses() accepts.
void check_program(const FusedProgram& p, const Tensor& out) {
  if (p.steps.empty()) reject("the program has no steps");
  const DType t = out.dtype();
  auto check_ref = [&](const FusedRef& r, std::size_t step) {
    const std::size_t limit = r.kind == FusedRef::Kind::input      ? p.inputs.size()
                              : r.kind == FusedRef::Kind::constant ? p.constants.size()
                                                                   : step;
    if (r.index >= limit) reject("step " + std::to_string(step) + " refers to a missing " + ref_name(r));
  };
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    const FusedStep& s = p.steps[i];
    if (s.op == ElementOp::cast || s.dtype != t) {
      reject(std::string("step ") + std::to_string(i) + " (" + element_op_name(s.op) +
             ") is not an op of the output's dtype; only single-dtype programs without casts are fused");
    }
    check_ref(s.a, i);
    if (element_op_arity(s.op) == 2) check_ref(s.b, i);
  }
  for (const Tensor& x : p.inputs) {
    if (x.dtype() != t) reject("an input's dtype differs from the output's");
    if (x.device() != out.device())
      reject("an input is on " + x.device().str() + ", out on " + out.device().str());
  }
  for (const FusedConstant& c : p.constants) {
    if (c.dtype != t) reject("a constant's dtype differs from the output's");
  }
}

// How a fused kernel finds its inputs' elements: `dense` every input's element i (plain loads the compiler
// turns into vector loads, where mode-dependent offsets become gathers); `flat` inputs of modes 0 and 1 only,
// with no per-element division (the compiler can then vectorize the kernel across work-items); `rows` out as
// rows x columns on a 2-D range, each input one of layout.hpp's RowsView kinds (broadcasting without
// division); `strided` inputs of every mode through the coordinates of element i.
enum class Layout { dense, flat, rows, strided };

// One kernel for programs of p's structure (see kernels/fused.cl for the helpers it uses):
//   __kernel void <name>(long n, __global T* o, long o_off, int nd, ember_dims dims,
//                        [__global const T* in<k>, long in<k>_off, int mode<k>, int bcast<k>] per input,
//                        [CONST_T k<k>] per constant)
// For `rows`, n is the row length and mode<k> the input's kind; the row is get_global_id(1).
// `guarded` false leaves out the test of i against n, for a launch of exactly n work-items.
std::string fused_kernel(const FusedProgram& p, const char* name, Layout layout, bool guarded = true) {
  std::string params = "long n, __global T* o, long o_off, int nd, ember_dims dims";
  std::string body;
  if (layout == Layout::rows) {
    body = std::string("  const long col = get_global_id(0);\n") +
           (guarded ? "  if (col >= n) return;\n" : "") +
           "  const long row = get_global_id(1);\n  const long i = row * n + col;\n";
  } else {
    body = std::string("  const long i = get_global_id(0);\n") + (guarded ? "  if (i >= n) return;\n" : "");
  }
  if (layout == Layout::strided) body += "  long idx[EMBER_MAX_RANK];\n  ember_unravel(i, nd, &dims, idx);\n";
  for (std::size_t k = 0; k < p.inputs.size(); ++k) {
    const std::string n = std::to_string(k);
    params += ", __global const T* in" + n + ", long in" + n + "_off, int mode" + n + ", int bcast" + n;
    const std::string offset = layout == Layout::strided
                                   ? "ember_input_offset(i, mode" + n + ", nd, &dims, idx, bcast" + n + ")"
                               : layout == Layout::rows  ? "ember_rows_offset(n, row, col, mode" + n + ")"
                               : layout == Layout::dense ? std::string("i")
                                                         : "ember_flat_offset(i, mode" + n + ")";
    body += "  const C x" + n + " = LOAD(in" + n + ", in" + n + "_off + " + offset + ");\n";
  }
  for (std::size_t k = 0; k < p.constants.size(); ++k) {
    const std::string n = std::to_string(k);
    params += ", CONST_T k" + n;
    body += "  const C c" + n + " = LOAD_CONST(k" + n + ");\n";
  }
  for (std::size_t k = 0; k < p.steps.size(); ++k) {
    const FusedStep& s = p.steps[k];
    std::string expr = std::string("OP_") + element_op_name(s.op) + "(" + ref_name(s.a);
    if (element_op_arity(s.op) == 2) expr += ", " + ref_name(s.b);
    expr += ")";
    if (k + 1 == p.steps.size()) {
      body += "  STORE(o, o_off + i, " + expr + ");\n";
    } else {
      body += "  const C s" + std::to_string(k) + " = ROUNDTRIP(" + expr + ");\n";
    }
  }
  return std::string("__kernel void ") + name + "(" + params + ") {\n" + body + "}\n";
}

std::atomic<std::size_t> sources_written{0};  // fused_sources_written()

// The program for p's structure: kernels "fused_dense", "fused", "fused_rows" and "fused_strided", and of the
// first three an "_exact" variant without the test of i (or the column) against n, for launches of exactly n
// work-items (n a multiple of the work-group size). Without that test pocl's vectorizer keeps the bounds and
// NaN masks of its unrolled loop in registers: a 16M float32 add with canonical NaNs took 8.4 ms with the
// test and 4.4 ms without (2 cores).
std::string fused_source(const FusedProgram& p) {
  sources_written.fetch_add(1, std::memory_order_relaxed);
  std::string source = std::string(embedded_source("fused")) + "\n";
  struct Kernel {
    const char* name;
    Layout layout;
  };
  for (const Kernel& k : {Kernel{"fused_dense", Layout::dense}, Kernel{"fused", Layout::flat},
                          Kernel{"fused_rows", Layout::rows}}) {
    source += fused_kernel(p, k.name, k.layout) +
              fused_kernel(p, (std::string(k.name) + "_exact").c_str(), k.layout, false);
  }
  return source + fused_kernel(p, "fused_strided", Layout::strided);
}

// The bit of each axis of out along which `x` (left-padded with 1s) has extent 1 and out does not.
cl_int broadcast_mask(const Tensor& x, const Tensor& out) {
  const Shape& s = x.shape();
  const Shape& o = out.shape();
  if (s.size() > o.size()) reject("an input has more axes than the output");
  cl_int mask = 0;
  const std::size_t pad = o.size() - s.size();
  for (std::size_t d = 0; d < o.size(); ++d) {
    const std::int64_t e = d < pad ? 1 : s[d - pad];
    if (e == o[d]) continue;
    if (e != 1) reject("an input of shape " + shape_str(s) + " does not broadcast to " + shape_str(o));
    mask |= cl_int{1} << d;
  }
  return mask;
}

}  // namespace

std::size_t fused_sources_written() {
  return sources_written.load(std::memory_order_relaxed);
}

bool OpenCLBackend::fuses(ElementOp op, DType dtype, DType operand_dtype, Device device) {
  if (op == ElementOp::cast || operand_dtype != dtype || !runtime_->has_device(device)) return false;
  if (float_only(op) && !is_floating(dtype)) return false;  // the eager op throws; let it
  return dtype != DType::float64 || runtime_->device(device, "fuses").has_fp64();
}

void OpenCLBackend::fused_elementwise(const FusedProgram& program, Tensor& out) {
  check_program(program, out);
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "fused_elementwise");
  const ClDims dims = dims_of("fused_elementwise", out.shape());
  KernelArgs args;
  args.add(arg(out));
  args.add(static_cast<cl_int>(out.ndim()));
  args.add(dims);
  bool strided = false, dense = true;
  std::vector<cl_int> modes, masks;
  for (const Tensor& x : program.inputs) {
    // As layout.hpp's broadcast_mode: an input of out's element count only lacks axes of extent 1.
    const cl_int mode = x.size() == out.size() ? 0 : x.size() == 1 ? 1 : 2;
    modes.push_back(mode);
    masks.push_back(mode == 2 ? broadcast_mask(x, out) : 0);
    if (mode == 2) strided = true;
    if (mode != 0) dense = false;
  }
  std::vector<Shape> shapes;
  for (const Tensor& x : program.inputs) shapes.push_back(x.shape());
  const std::optional<RowsView> rows = strided ? rows_view(out.shape(), shapes) : std::nullopt;
  for (std::size_t k = 0; k < program.inputs.size(); ++k) {
    args.add(arg(program.inputs[k]));
    args.add(rows ? rows->kinds[k] : modes[k]);
    args.add(masks[k]);
  }
  for (const FusedConstant& c : program.constants) {
    // The bits TensorOps::full stores for the value (bool one byte 0/1, float16 its binary16 bits).
    visit_dtype(c.dtype, [&](auto tag) { args.add(c.value.to<decltype(tag)>()); });
  }
  // 8 inputs and 8 constants (ember/lazy.hpp's caps) take about 300 bytes.
  if (args.total_bytes() + sizeof(cl_long) > kMinParameterBytes) {
    reject("the program's " + std::to_string(program.inputs.size()) + " inputs and " +
           std::to_string(program.constants.size()) + " constants exceed the kernel parameter size " +
           std::to_string(kMinParameterBytes) + " every OpenCL device allows");
  }
  // The launch covers exactly n work-items (n the row length for rows) when n is a multiple of the group
  // size.
  const std::int64_t n = rows ? rows->cols : out.size();
  const bool exact = (!strided || rows) && n % static_cast<std::int64_t>(kWorkGroupSize) == 0;
  const std::string name = std::string(rows      ? "fused_rows"
                                       : strided ? "fused_strided"
                                       : dense   ? "fused_dense"
                                                 : "fused") +
                           (exact ? "_exact" : "");
  const cl_kernel k = dev.kernel_from_source(
      program.structure(), [&] { return fused_source(program); },
      dtype_options(out.dtype()) + " -DEMBER_FUSED=1", name.c_str());
  if (rows) {
    dev.launch_args(k, rows->cols, args, rows->rows);
  } else {
    dev.launch_args(k, out.size(), args);
  }
}

}  // namespace ember::opencl
