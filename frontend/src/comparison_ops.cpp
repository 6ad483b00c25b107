// ember::ops, category "comparison": validation, promotion and output allocation for comparisons, logic,
// float predicates, isclose/allclose, all/any and where; the backend only computes.
#include "ember/ops/comparison.hpp"

#include <string>
#include <vector>

#include "dispatch.hpp"
#include "ember/error.hpp"
#include "ember/ops/dtype.hpp"

namespace ember::ops {

namespace {

using BinaryMethod = void (ComparisonOps::*)(const Tensor&, const Tensor&, Tensor&);
using UnaryMethod = void (ComparisonOps::*)(const Tensor&, Tensor&);
using ReduceMethod = void (ComparisonOps::*)(const Tensor&, const std::vector<int>&, Tensor&);

// The broadcast shape of a and b; the error names op, both shapes and both dtypes.
Shape broadcast_operands(const char* op, const Tensor& a, const Tensor& b) {
  try {
    return broadcast_shapes(a.shape(), b.shape(), op);
  } catch (const ShapeError& e) {
    throw ShapeError(std::string(e.what()) + " (operands " + detail::describe({&a, &b}) + ")");
  }
}

// a and b cast to `dtype`, broadcast, bool result.
Tensor binary(const char* op, const Tensor& a, const Tensor& b, DType dtype, BinaryMethod method) {
  Backend& backend = detail::common_backend(op, {&a, &b});
  const Shape shape = broadcast_operands(op, a, b);
  const Tensor ac = detail::cast_to(a, dtype), bc = detail::cast_to(b, dtype);
  Tensor out = detail::empty(op, backend, a.device(), shape, DType::bool_);
  (backend.*method)(ac, bc, out);
  return out;
}

Tensor comparison(const char* op, const Tensor& a, const Tensor& b, BinaryMethod method) {
  detail::common_backend(op, {&a, &b});
  return binary(op, a, b, result_type(a.dtype(), b.dtype()), method);
}

Tensor scalar_operand(const char* op, const Tensor& a, const Scalar& s) {
  detail::common_backend(op, {&a});
  return detail::scalar_like(op, a, s, detail::scalar_operand_dtype(a.dtype(), s));
}

// Logical ops read their operands by truthiness.
Tensor logical(const char* op, const Tensor& a, const Tensor& b, BinaryMethod method) {
  detail::common_backend(op, {&a, &b});
  return binary(op, a, b, DType::bool_, method);
}

// isnan/isinf/isfinite: integers and bool are never NaN or infinite, so the answer is a constant.
Tensor predicate(const char* op, const Tensor& x, UnaryMethod method, bool integer_answer) {
  detail::common_backend(op, {&x});
  Tensor out = detail::empty_like(op, x, x.shape(), DType::bool_);
  if (is_floating(x.dtype())) {
    (x.backend().*method)(x, out);
  } else {
    x.backend().full(out, Scalar(integer_answer));
  }
  return out;
}

Tensor truth_reduction(const char* op, const Tensor& x, const Axes& axes, bool keepdims,
                       ReduceMethod method) {
  detail::common_backend(op, {&x});
  std::vector<int> ax;
  try {
    ax = detail::normalize_axes(axes, x.ndim(), op);
  } catch (const ShapeError& e) {
    throw ShapeError(std::string(e.what()) + " (" + detail::describe(x) + ")");
  }
  const Tensor xc = detail::cast_to(x, DType::bool_);
  Tensor out = detail::empty_like(op, x, detail::reduced_shape(x.shape(), ax, true), DType::bool_);
  (x.backend().*method)(xc, ax, out);
  return keepdims ? out : out.view(detail::reduced_shape(x.shape(), ax, false));
}

}  // namespace

Tensor equal(const Tensor& a, const Tensor& b) {
  return comparison("equal", a, b, &ComparisonOps::equal);
}
Tensor equal(const Tensor& a, Scalar b) {
  return equal(a, scalar_operand("equal", a, b));
}
Tensor not_equal(const Tensor& a, const Tensor& b) {
  return comparison("not_equal", a, b, &ComparisonOps::not_equal);
}
Tensor not_equal(const Tensor& a, Scalar b) {
  return not_equal(a, scalar_operand("not_equal", a, b));
}
Tensor less(const Tensor& a, const Tensor& b) {
  return comparison("less", a, b, &ComparisonOps::less);
}
Tensor less(const Tensor& a, Scalar b) {
  return less(a, scalar_operand("less", a, b));
}
Tensor less_equal(const Tensor& a, const Tensor& b) {
  return comparison("less_equal", a, b, &ComparisonOps::less_equal);
}
Tensor less_equal(const Tensor& a, Scalar b) {
  return less_equal(a, scalar_operand("less_equal", a, b));
}
Tensor greater(const Tensor& a, const Tensor& b) {
  return comparison("greater", a, b, &ComparisonOps::greater);
}
Tensor greater(const Tensor& a, Scalar b) {
  return greater(a, scalar_operand("greater", a, b));
}
Tensor greater_equal(const Tensor& a, const Tensor& b) {
  return comparison("greater_equal", a, b, &ComparisonOps::greater_equal);
}
Tensor greater_equal(const Tensor& a, Scalar b) {
  return greater_equal(a, scalar_operand("greater_equal", a, b));
}

Tensor logical_and(const Tensor& a, const Tensor& b) {
  return logical("logical_and", a, b, &ComparisonOps::logical_and);
}
Tensor logical_or(const Tensor& a, const Tensor& b) {
  return logical("logical_or", a, b, &ComparisonOps::logical_or);
}
Tensor logical_xor(const Tensor& a, const Tensor& b) {
  return logical("logical_xor", a, b, &ComparisonOps::logical_xor);
}
Tensor logical_not(const Tensor& x) {
  detail::common_backend("logical_not", {&x});
  const Tensor xc = detail::cast_to(x, DType::bool_);
  Tensor out = detail::empty_like("logical_not", x, x.shape(), DType::bool_);
  x.backend().logical_not(xc, out);
  return out;
}

Tensor isnan(const Tensor& x) {
  return predicate("isnan", x, &ComparisonOps::isnan, false);
}
Tensor isinf(const Tensor& x) {
  return predicate("isinf", x, &ComparisonOps::isinf, false);
}
Tensor isfinite(const Tensor& x) {
  return predicate("isfinite", x, &ComparisonOps::isfinite, true);
}

// Compared in the operands' common floating dtype (integers and bool as float64, like NumPy).
Tensor isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  const char* op = "isclose";
  Backend& backend = detail::common_backend(op, {&a, &b});
  const Shape shape = broadcast_operands(op, a, b);
  const DType promoted = result_type(a.dtype(), b.dtype());
  const DType dtype = is_floating(promoted) ? promoted : DType::float64;
  const Tensor ac = detail::cast_to(a, dtype), bc = detail::cast_to(b, dtype);
  Tensor out = detail::empty(op, backend, a.device(), shape, DType::bool_);
  backend.isclose(ac, bc, rtol, atol, equal_nan, out);
  return out;
}

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  const Tensor everything = all(isclose(a, b, rtol, atol, equal_nan));
  bool result = false;
  everything.backend().to_host(everything, &result);
  return result;
}

Tensor all(const Tensor& x, Axes axes, bool keepdims) {
  return truth_reduction("all", x, axes, keepdims, &ComparisonOps::all);
}
Tensor any(const Tensor& x, Axes axes, bool keepdims) {
  return truth_reduction("any", x, axes, keepdims, &ComparisonOps::any);
}

Tensor where(const Tensor& cond, const Tensor& x, const Tensor& y) {
  const char* op = "where";
  Backend& backend = detail::common_backend(op, {&cond, &x, &y});
  Shape shape;
  try {
    shape = broadcast_shapes(cond.shape(), broadcast_shapes(x.shape(), y.shape(), op), op);
  } catch (const ShapeError&) {
    throw ShapeError(std::string(op) + ": shapes " + shape_str(cond.shape()) + ", " + shape_str(x.shape()) +
                     " and " + shape_str(y.shape()) + " do not broadcast (operands " +
                     detail::describe({&cond, &x, &y}) + ")");
  }
  const DType dtype = result_type(x.dtype(), y.dtype());
  const Tensor cc = detail::cast_to(cond, DType::bool_);
  const Tensor xc = detail::cast_to(x, dtype), yc = detail::cast_to(y, dtype);
  Tensor out = detail::empty(op, backend, cond.device(), shape, dtype);
  backend.where(cc, xc, yc, out);
  return out;
}

}  // namespace ember::ops
