// Backend interface, category "comparison": comparisons, logic, predicates and selection.
// See ember/backend/tensor_ops.hpp for the contract every backend method follows.
// Binary comparisons: a and b have the same dtype and broadcast to out's shape; out is bool.
#pragma once

#include <vector>

#include "ember/tensor.hpp"

namespace ember {

class ComparisonOps {
 public:
  virtual ~ComparisonOps() = default;

  // IEEE semantics: every comparison with NaN is false except not_equal.
  virtual void equal(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  virtual void not_equal(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  virtual void less(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  virtual void less_equal(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  virtual void greater(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  virtual void greater_equal(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  // Logical ops take bool inputs (the frontend converts by truthiness).
  virtual void logical_and(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  virtual void logical_or(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  virtual void logical_xor(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  virtual void logical_not(const Tensor& x, Tensor& out) = 0;
  // Floating-point x (the frontend answers integer and bool inputs itself).
  virtual void isnan(const Tensor& x, Tensor& out) = 0;
  virtual void isinf(const Tensor& x, Tensor& out) = 0;
  virtual void isfinite(const Tensor& x, Tensor& out) = 0;
  // |a - b| <= atol + rtol * |b| on floating-point a and b; infinities are close only to themselves;
  // NaN is close to NaN only with equal_nan.
  virtual void isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan,
                       Tensor& out) = 0;
  // Bool x; reductions in keepdims form as in ember/backend/math_ops.hpp; empty: all = true, any = false.
  virtual void all(const Tensor& x, const std::vector<int>& axes, Tensor& out) = 0;
  virtual void any(const Tensor& x, const std::vector<int>& axes, Tensor& out) = 0;
  // cond is bool; x and y have out's dtype; all three broadcast to out's shape.
  virtual void where(const Tensor& cond, const Tensor& x, const Tensor& y, Tensor& out) = 0;
};

}  // namespace ember
