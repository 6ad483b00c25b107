// ember::ops, category "math": validation, promotion and output allocation for element-wise arithmetic,
// matmul/dot and reductions; the backend only computes.
#include "ember/ops/math.hpp"

#include <string>
#include <utility>
#include <vector>

#include "dispatch.hpp"
#include "ember/error.hpp"
#include "ember/ops/dtype.hpp"
#include "lazy.hpp"

namespace ember::ops {

namespace {

using BinaryMethod = void (MathOps::*)(const Tensor&, const Tensor&, Tensor&);
using UnaryMethod = void (MathOps::*)(const Tensor&, Tensor&);
using ReduceMethod = void (MathOps::*)(const Tensor&, const std::vector<int>&, Tensor&);

std::string prefix(const char* op) {
  return std::string(op) + ": ";
}

// The broadcast shape of a and b; the error names op, both shapes and both dtypes.
Shape broadcast_operands(const char* op, const Tensor& a, const Tensor& b) {
  try {
    return broadcast_shapes(a.shape(), b.shape(), op);
  } catch (const ShapeError& e) {
    throw ShapeError(std::string(e.what()) + " (operands " + detail::describe({&a, &b}) + ")");
  }
}

// normalize_axes/normalize_axis with errors that also name the tensor.
std::vector<int> axes_of(const char* op, const Tensor& x, const Axes& axes) {
  try {
    return detail::normalize_axes(axes, x.ndim(), op);
  } catch (const ShapeError& e) {
    throw ShapeError(std::string(e.what()) + " (" + detail::describe(x) + ")");
  }
}
int axis_of(const char* op, const Tensor& x, std::int64_t axis) {
  try {
    return normalize_axis(axis, x.ndim(), op);
  } catch (const ShapeError& e) {
    throw ShapeError(std::string(e.what()) + " (" + detail::describe(x) + ")");
  }
}

void reject_bool(const char* op, DType dtype, std::initializer_list<const Tensor*> xs) {
  if (dtype == DType::bool_) {
    throw DTypeError(prefix(op) + "arithmetic on bool is not supported (" + detail::describe(xs) +
                     "); cast to an integer dtype first");
  }
}

// Casts a and b to `dtype`, allocates the broadcast output and calls the backend.
Tensor binary(const char* op, const Tensor& a, const Tensor& b, DType dtype, BinaryMethod method) {
  Backend& backend = detail::common_backend(op, {&a, &b});
  Shape shape = a.shape() == b.shape() ? a.shape() : broadcast_operands(op, a, b);
  std::optional<Tensor> a_storage, b_storage;
  const Tensor& ac = detail::cast_into(a, dtype, a_storage);
  const Tensor& bc = detail::cast_into(b, dtype, b_storage);
  if (auto deferred = detail::defer(op, dtype, shape, {&ac, &bc})) return *deferred;
  Tensor out = detail::empty(op, backend, a.device(), std::move(shape), dtype);
  (backend.*method)(ac, bc, out);
  return out;
}

// Promoted arithmetic that rejects bool results.
Tensor arithmetic(const char* op, const Tensor& a, const Tensor& b, BinaryMethod method) {
  const DType dtype = result_type(a.dtype(), b.dtype());
  reject_bool(op, dtype, {&a, &b});
  return binary(op, a, b, dtype, method);
}

// The 0-d tensor a Python-style scalar operand becomes next to a.
Tensor scalar_operand(const char* op, const Tensor& a, const Scalar& s) {
  detail::common_backend(op, {&a});
  return detail::scalar_like(op, a, s, detail::scalar_operand_dtype(a.dtype(), s));
}

Tensor unary(const char* op, const Tensor& x, DType dtype, UnaryMethod method) {
  detail::common_backend(op, {&x});
  const Tensor xc = detail::cast_to(x, dtype);
  if (auto deferred = detail::defer(op, dtype, x.shape(), {&xc})) return *deferred;
  Tensor out = detail::empty_like(op, x, x.shape(), dtype);
  (x.backend().*method)(xc, out);
  return out;
}

Tensor unary_arithmetic(const char* op, const Tensor& x, UnaryMethod method) {
  detail::common_backend(op, {&x});
  reject_bool(op, x.dtype(), {&x});
  return unary(op, x, x.dtype(), method);
}

// Transcendental ops: floats stay, integers promote like NumPy (result_type with float16), bool is an error.
Tensor transcendental(const char* op, const Tensor& x, UnaryMethod method) {
  detail::common_backend(op, {&x});
  reject_bool(op, x.dtype(), {&x});
  const DType dtype = is_floating(x.dtype()) ? x.dtype() : result_type(x.dtype(), DType::float16);
  return unary(op, x, dtype, method);
}

// sum/prod/cumsum: bool and integers narrower than int64 accumulate in int64.
DType accumulation_dtype(DType d) {
  return (d == DType::bool_ || (is_integer(d) && d != DType::int64)) ? DType::int64 : d;
}
// mean/var/std: floats stay, everything else is float64.
DType statistic_dtype(DType d) {
  return is_floating(d) ? d : DType::float64;
}

// Runs a reduction in keepdims form and views the result without the reduced axes unless keepdims.
template <class Call>
Tensor reduction(const char* op, const Tensor& x, const Axes& axes, bool keepdims, DType dtype, Call call) {
  detail::common_backend(op, {&x});
  const std::vector<int> ax = axes_of(op, x, axes);
  const Tensor xc = detail::cast_to(x, dtype);
  Tensor out = detail::empty_like(op, x, detail::reduced_shape(x.shape(), ax, true), dtype);
  call(xc, ax, out);
  return keepdims ? out : out.view(detail::reduced_shape(x.shape(), ax, false));
}

Tensor simple_reduction(const char* op, const Tensor& x, const Axes& axes, bool keepdims, DType dtype,
                        ReduceMethod method) {
  return reduction(
      op, x, axes, keepdims, dtype,
      [&](const Tensor& xc, const std::vector<int>& ax, Tensor& out) { (x.backend().*method)(xc, ax, out); });
}

// min/max/argmin/argmax have no identity: reducing an empty extent is an error.
void require_nonempty(const char* op, const Tensor& x, const std::vector<int>& axes) {
  for (int a : axes) {
    if (x.shape()[static_cast<std::size_t>(a)] == 0) {
      throw ShapeError(prefix(op) + "zero-size reduction along axis " + std::to_string(a) + " of " +
                       detail::describe(x) + " has no identity");
    }
  }
}

Tensor extremum(const char* op, const Tensor& x, const Axes& axes, bool keepdims, ReduceMethod method) {
  detail::common_backend(op, {&x});
  require_nonempty(op, x, axes_of(op, x, axes));
  return simple_reduction(op, x, axes, keepdims, x.dtype(), method);
}

Tensor arg_extremum(const char* op, const Tensor& x, std::optional<std::int64_t> axis, bool keepdims,
                    void (MathOps::*method)(const Tensor&, int, Tensor&)) {
  detail::common_backend(op, {&x});
  const Tensor flat = axis ? x : x.view({x.size()});
  const int ax = axis ? axis_of(op, x, *axis) : 0;
  require_nonempty(op, flat, {ax});
  Shape shape = flat.shape();
  shape[static_cast<std::size_t>(ax)] = 1;
  Tensor out = detail::empty_like(op, x, shape, DType::int64);
  (x.backend().*method)(flat, ax, out);
  if (!axis) return out.view(keepdims ? Shape(x.shape().size(), 1) : Shape{});
  return keepdims ? out : out.view(detail::reduced_shape(x.shape(), {ax}, false));
}

}  // namespace

// ---- element-wise binary ---------------------------------------------------------------------------------

Tensor add(const Tensor& a, const Tensor& b) {
  return arithmetic("add", a, b, &MathOps::add);
}
Tensor add(const Tensor& a, Scalar b) {
  return add(a, scalar_operand("add", a, b));
}
Tensor subtract(const Tensor& a, const Tensor& b) {
  return arithmetic("subtract", a, b, &MathOps::subtract);
}
Tensor subtract(const Tensor& a, Scalar b) {
  return subtract(a, scalar_operand("subtract", a, b));
}
Tensor multiply(const Tensor& a, const Tensor& b) {
  return arithmetic("multiply", a, b, &MathOps::multiply);
}
Tensor multiply(const Tensor& a, Scalar b) {
  return multiply(a, scalar_operand("multiply", a, b));
}

Tensor divide(const Tensor& a, const Tensor& b) {
  detail::common_backend("divide", {&a, &b});
  const DType promoted = result_type(a.dtype(), b.dtype());
  reject_bool("divide", promoted, {&a, &b});
  return binary("divide", a, b, statistic_dtype(promoted), &MathOps::divide);
}
Tensor divide(const Tensor& a, Scalar b) {
  return divide(a, scalar_operand("divide", a, b));
}

Tensor floor_divide(const Tensor& a, const Tensor& b) {
  return arithmetic("floor_divide", a, b, &MathOps::floor_divide);
}
Tensor mod(const Tensor& a, const Tensor& b) {
  return arithmetic("mod", a, b, &MathOps::mod);
}
Tensor power(const Tensor& a, const Tensor& b) {
  return arithmetic("power", a, b, &MathOps::power);
}
Tensor power(const Tensor& a, Scalar b) {
  return power(a, scalar_operand("power", a, b));
}

Tensor minimum(const Tensor& a, const Tensor& b) {
  return arithmetic("minimum", a, b, &MathOps::minimum);
}
Tensor maximum(const Tensor& a, const Tensor& b) {
  return arithmetic("maximum", a, b, &MathOps::maximum);
}

// ---- element-wise unary ----------------------------------------------------------------------------------

Tensor negative(const Tensor& x) {
  return unary_arithmetic("negative", x, &MathOps::negative);
}
Tensor abs(const Tensor& x) {
  return unary_arithmetic("abs", x, &MathOps::abs);
}
Tensor sign(const Tensor& x) {
  return unary_arithmetic("sign", x, &MathOps::sign);
}
Tensor square(const Tensor& x) {
  return unary_arithmetic("square", x, &MathOps::square);
}
Tensor sqrt(const Tensor& x) {
  return transcendental("sqrt", x, &MathOps::sqrt);
}
Tensor exp(const Tensor& x) {
  return transcendental("exp", x, &MathOps::exp);
}
Tensor expm1(const Tensor& x) {
  return transcendental("expm1", x, &MathOps::expm1);
}
Tensor log(const Tensor& x) {
  return transcendental("log", x, &MathOps::log);
}
Tensor log1p(const Tensor& x) {
  return transcendental("log1p", x, &MathOps::log1p);
}
Tensor log2(const Tensor& x) {
  return transcendental("log2", x, &MathOps::log2);
}
Tensor log10(const Tensor& x) {
  return transcendental("log10", x, &MathOps::log10);
}
Tensor sin(const Tensor& x) {
  return transcendental("sin", x, &MathOps::sin);
}
Tensor cos(const Tensor& x) {
  return transcendental("cos", x, &MathOps::cos);
}
Tensor tan(const Tensor& x) {
  return transcendental("tan", x, &MathOps::tan);
}
Tensor sinh(const Tensor& x) {
  return transcendental("sinh", x, &MathOps::sinh);
}
Tensor cosh(const Tensor& x) {
  return transcendental("cosh", x, &MathOps::cosh);
}
Tensor tanh(const Tensor& x) {
  return transcendental("tanh", x, &MathOps::tanh);
}
// Integers are their own floor, ceil and round (same dtype).
Tensor floor(const Tensor& x) {
  return unary_arithmetic("floor", x, &MathOps::floor);
}
Tensor ceil(const Tensor& x) {
  return unary_arithmetic("ceil", x, &MathOps::ceil);
}
Tensor round(const Tensor& x) {
  return unary_arithmetic("round", x, &MathOps::round);
}

// The bounds are scalar operands: an integer tensor clipped to float bounds becomes floating like NumPy.
Tensor clip(const Tensor& x, std::optional<Scalar> lo, std::optional<Scalar> hi) {
  detail::common_backend("clip", {&x});
  DType dtype = x.dtype();
  for (const auto& bound : {lo, hi}) {
    if (bound) dtype = result_type(dtype, detail::scalar_operand_dtype(x.dtype(), *bound));
  }
  const Tensor xc = detail::cast_to(x, dtype);
  Tensor out = detail::empty_like("clip", x, x.shape(), dtype);
  x.backend().clip(xc, lo, hi, out);
  return out;
}

// ---- matmul and dot --------------------------------------------------------------------------------------

Tensor matmul(const Tensor& a, const Tensor& b) {
  const char* op = "matmul";
  Backend& backend = detail::common_backend(op, {&a, &b});
  if (a.ndim() == 0 || b.ndim() == 0) {
    throw ShapeError(prefix(op) + "operands must be at least 1-d, got " + detail::describe({&a, &b}) +
                     "; use multiply for scalars");
  }
  const DType dtype = result_type(a.dtype(), b.dtype());
  reject_bool(op, dtype, {&a, &b});
  // 1-d operands become (1, K) and (K, 1); the added axis is removed from the result.
  const Shape sa = a.ndim() == 1 ? Shape{1, a.dim(0)} : a.shape();
  const Shape sb = b.ndim() == 1 ? Shape{b.dim(0), 1} : b.shape();
  const std::int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  if (sb[sb.size() - 2] != k) {
    throw ShapeError(prefix(op) + "inner dimensions of " + detail::describe({&a, &b}) + " do not match (" +
                     std::to_string(k) + " vs " + std::to_string(sb[sb.size() - 2]) + ")");
  }
  const Shape batch_a(sa.begin(), sa.end() - 2), batch_b(sb.begin(), sb.end() - 2);
  Shape batch;
  try {
    batch = broadcast_shapes(batch_a, batch_b, op);
  } catch (const ShapeError&) {
    throw ShapeError(prefix(op) + "batch dimensions of " + detail::describe({&a, &b}) + " do not broadcast");
  }
  const std::int64_t batches = shape_numel(batch);
  // Each operand as (batches, rows, cols), broadcast along the batch axes when needed.
  auto batched = [&](const Tensor& x, const Shape& s, const Shape& own_batch, std::int64_t rows,
                     std::int64_t cols) {
    const Tensor xc = detail::cast_to(x, dtype);
    if (own_batch == batch) return xc.view({batches, rows, cols});
    Shape padded(batch.size() - own_batch.size(), 1);
    padded.insert(padded.end(), s.begin(), s.end());
    Shape full = batch;
    full.push_back(rows);
    full.push_back(cols);
    Tensor out = detail::empty(op, backend, x.device(), full, dtype);
    backend.broadcast_to(xc.view(padded), out);
    return out.view({batches, rows, cols});
  };
  const Tensor a3 = batched(a, sa, batch_a, m, k);
  const Tensor b3 = batched(b, sb, batch_b, k, n);
  Tensor out = detail::empty(op, backend, a.device(), {batches, m, n}, dtype);
  backend.matmul(a3, b3, out);
  Shape shape = batch;
  if (a.ndim() > 1) shape.push_back(m);
  if (b.ndim() > 1) shape.push_back(n);
  return out.view(shape);
}

Tensor dot(const Tensor& a, const Tensor& b) {
  const char* op = "dot";
  Backend& backend = detail::common_backend(op, {&a, &b});
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  if (a.ndim() == 1 && b.ndim() == 1) {
    if (a.dim(0) != b.dim(0)) {
      throw ShapeError(prefix(op) + "shapes of " + detail::describe({&a, &b}) + " are not aligned (" +
                       std::to_string(a.dim(0)) + " vs " + std::to_string(b.dim(0)) + ")");
    }
    const DType dtype = result_type(a.dtype(), b.dtype());
    reject_bool(op, dtype, {&a, &b});
    Tensor out = detail::empty(op, backend, a.device(), {}, dtype);
    backend.dot(detail::cast_to(a, dtype), detail::cast_to(b, dtype), out);
    return out;
  }
  const std::int64_t k = a.dim(-1);
  const std::int64_t kb = b.ndim() == 1 ? b.dim(0) : b.dim(-2);
  if (k != kb) {
    throw ShapeError(prefix(op) + "shapes of " + detail::describe({&a, &b}) + " are not aligned (" +
                     std::to_string(k) + " vs " + std::to_string(kb) + ")");
  }
  // A 1-d a or a b of at most two axes contracts exactly like matmul (which broadcasts b over a's rows).
  if (a.ndim() == 1 || b.ndim() <= 2) return matmul(a, b);
  // N-d: result[i..., j..., n] = sum_k a[i..., k] b[j..., k, n]. Move b's contracted axis to the front,
  // then it is one (rows of a, K) x (K, rest of b) product.
  const DType dtype = result_type(a.dtype(), b.dtype());
  reject_bool(op, dtype, {&a, &b});
  const Tensor bc = detail::cast_to(b, dtype);
  const int nd = static_cast<int>(b.ndim());
  std::vector<int> perm{nd - 2};
  Shape moved{b.dim(-2)};
  for (int d = 0; d < nd; ++d) {
    if (d == nd - 2) continue;
    perm.push_back(d);
    moved.push_back(b.shape()[static_cast<std::size_t>(d)]);
  }
  Tensor bt = detail::empty(op, backend, b.device(), moved, dtype);
  backend.transpose(bc, perm, bt);
  Shape shape(a.shape().begin(), a.shape().end() - 1);
  const std::int64_t rows = shape_numel(shape);
  shape.insert(shape.end(), b.shape().begin(), b.shape().end() - 2);
  shape.push_back(b.dim(-1));
  const std::int64_t cols = shape_numel(Shape(moved.begin() + 1, moved.end()));
  return matmul(a.view({rows, k}), bt.view({k, cols})).view(shape);
}

// ---- reductions ------------------------------------------------------------------------------------------

Tensor sum(const Tensor& x, Axes axes, bool keepdims) {
  detail::common_backend("sum", {&x});
  return simple_reduction("sum", x, axes, keepdims, accumulation_dtype(x.dtype()), &MathOps::sum);
}
Tensor prod(const Tensor& x, Axes axes, bool keepdims) {
  detail::common_backend("prod", {&x});
  return simple_reduction("prod", x, axes, keepdims, accumulation_dtype(x.dtype()), &MathOps::prod);
}
Tensor mean(const Tensor& x, Axes axes, bool keepdims) {
  detail::common_backend("mean", {&x});
  return simple_reduction("mean", x, axes, keepdims, statistic_dtype(x.dtype()), &MathOps::mean);
}
Tensor var(const Tensor& x, Axes axes, bool keepdims, double ddof) {
  detail::common_backend("var", {&x});
  return reduction(
      "var", x, axes, keepdims, statistic_dtype(x.dtype()),
      [&](const Tensor& xc, const std::vector<int>& ax, Tensor& out) { x.backend().var(xc, ax, ddof, out); });
}
Tensor std(const Tensor& x, Axes axes, bool keepdims, double ddof) {
  detail::common_backend("std", {&x});
  return reduction(
      "std", x, axes, keepdims, statistic_dtype(x.dtype()),
      [&](const Tensor& xc, const std::vector<int>& ax, Tensor& out) { x.backend().std(xc, ax, ddof, out); });
}
Tensor min(const Tensor& x, Axes axes, bool keepdims) {
  return extremum("min", x, axes, keepdims, &MathOps::min);
}
Tensor max(const Tensor& x, Axes axes, bool keepdims) {
  return extremum("max", x, axes, keepdims, &MathOps::max);
}
Tensor argmin(const Tensor& x, std::optional<std::int64_t> axis, bool keepdims) {
  return arg_extremum("argmin", x, axis, keepdims, &MathOps::argmin);
}
Tensor argmax(const Tensor& x, std::optional<std::int64_t> axis, bool keepdims) {
  return arg_extremum("argmax", x, axis, keepdims, &MathOps::argmax);
}

Tensor cumsum(const Tensor& x, std::optional<std::int64_t> axis) {
  const char* op = "cumsum";
  detail::common_backend(op, {&x});
  const Tensor flat = axis ? x : x.view({x.size()});
  const int ax = axis ? axis_of(op, x, *axis) : 0;
  const DType dtype = accumulation_dtype(x.dtype());
  const Tensor xc = detail::cast_to(flat, dtype);
  Tensor out = detail::empty_like(op, x, flat.shape(), dtype);
  x.backend().cumsum(xc, ax, out);
  return out;
}

}  // namespace ember::ops
