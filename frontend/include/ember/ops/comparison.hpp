// ember::ops, category "comparison": comparisons, logic, predicates and selection. Results are bool.
#pragma once

#include <optional>

#include "ember/scalar.hpp"
#include "ember/tensor.hpp"

namespace ember::ops {

Tensor equal(const Tensor& a, const Tensor& b);
Tensor equal(const Tensor& a, Scalar b);
Tensor not_equal(const Tensor& a, const Tensor& b);
Tensor not_equal(const Tensor& a, Scalar b);
Tensor less(const Tensor& a, const Tensor& b);
Tensor less(const Tensor& a, Scalar b);
Tensor less_equal(const Tensor& a, const Tensor& b);
Tensor less_equal(const Tensor& a, Scalar b);
Tensor greater(const Tensor& a, const Tensor& b);
Tensor greater(const Tensor& a, Scalar b);
Tensor greater_equal(const Tensor& a, const Tensor& b);
Tensor greater_equal(const Tensor& a, Scalar b);
// Logical ops take any dtype by truthiness (non-zero, NaN included, is true).
Tensor logical_and(const Tensor& a, const Tensor& b);
Tensor logical_or(const Tensor& a, const Tensor& b);
Tensor logical_xor(const Tensor& a, const Tensor& b);
Tensor logical_not(const Tensor& x);
Tensor isnan(const Tensor& x);
Tensor isinf(const Tensor& x);
Tensor isfinite(const Tensor& x);
Tensor isclose(const Tensor& a, const Tensor& b, double rtol = 1e-05, double atol = 1e-08,
               bool equal_nan = false);
bool allclose(const Tensor& a, const Tensor& b, double rtol = 1e-05, double atol = 1e-08,
              bool equal_nan = false);
Tensor all(const Tensor& x, Axes axes = std::nullopt, bool keepdims = false);
Tensor any(const Tensor& x, Axes axes = std::nullopt, bool keepdims = false);
// Elements of x where cond is true, else of y; x and y promote, all three broadcast.
Tensor where(const Tensor& cond, const Tensor& x, const Tensor& y);

}  // namespace ember::ops
