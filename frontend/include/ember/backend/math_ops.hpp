// Backend interface, category "math": element-wise arithmetic, matmul and reductions.
// See ember/backend/tensor_ops.hpp for the contract every backend method follows.
//
// Element-wise binary ops: a and b have out's dtype and broadcast to out's shape.
// Element-wise unary ops: x has out's shape and dtype.
// Integer arithmetic wraps (two's complement) and never traps; integer division and modulo by zero give 0,
// like NumPy. float16 computes in float32 and rounds once. Floating results follow IEEE 754 and the Array
// API special cases.
// Reductions: axes are distinct, sorted and normalised; out has x's rank with every reduced axis of extent 1
// (keepdims form); x has out's dtype.
#pragma once

#include <optional>
#include <vector>

#include "ember/scalar.hpp"
#include "ember/tensor.hpp"

namespace ember {

class MathOps {
 public:
  virtual ~MathOps() = default;

  virtual void add(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  virtual void subtract(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  virtual void multiply(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  // Floating-point only (the frontend promotes integers).
  virtual void divide(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  // Python semantics: floor(a / b); for integers x // 0 == 0 and INT_MIN // -1 == INT_MIN.
  virtual void floor_divide(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  // Python semantics: the result has the sign of b; for integers x % 0 == 0.
  virtual void mod(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  // Integers: exact by repeated squaring, wrapping; a negative exponent gives 1 for a == 1, +-1 for
  // a == -1, and 0 otherwise.
  virtual void power(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  // NaN propagates (NumPy's minimum/maximum, not fmin/fmax).
  virtual void minimum(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  virtual void maximum(const Tensor& a, const Tensor& b, Tensor& out) = 0;

  virtual void negative(const Tensor& x, Tensor& out) = 0;
  virtual void abs(const Tensor& x, Tensor& out) = 0;
  // -1, 0 or 1 (0 keeps its sign for floats); NaN for NaN.
  virtual void sign(const Tensor& x, Tensor& out) = 0;
  virtual void square(const Tensor& x, Tensor& out) = 0;
  // Transcendental ops take floating-point x (the frontend promotes integers).
  virtual void sqrt(const Tensor& x, Tensor& out) = 0;
  virtual void exp(const Tensor& x, Tensor& out) = 0;
  virtual void expm1(const Tensor& x, Tensor& out) = 0;
  virtual void log(const Tensor& x, Tensor& out) = 0;
  virtual void log1p(const Tensor& x, Tensor& out) = 0;
  virtual void log2(const Tensor& x, Tensor& out) = 0;
  virtual void log10(const Tensor& x, Tensor& out) = 0;
  virtual void sin(const Tensor& x, Tensor& out) = 0;
  virtual void cos(const Tensor& x, Tensor& out) = 0;
  virtual void tan(const Tensor& x, Tensor& out) = 0;
  virtual void sinh(const Tensor& x, Tensor& out) = 0;
  virtual void cosh(const Tensor& x, Tensor& out) = 0;
  virtual void tanh(const Tensor& x, Tensor& out) = 0;
  // Rounding ops take any numeric dtype; integers are returned unchanged. round is half-to-even.
  virtual void floor(const Tensor& x, Tensor& out) = 0;
  virtual void ceil(const Tensor& x, Tensor& out) = 0;
  virtual void round(const Tensor& x, Tensor& out) = 0;
  // min(max(x, lo), hi) with absent bounds skipped; NaN propagates.
  virtual void clip(const Tensor& x, std::optional<Scalar> lo, std::optional<Scalar> hi, Tensor& out) = 0;

  // a is (B, M, K), b is (B, K, N), out is (B, M, N); numeric, same dtype.
  virtual void matmul(const Tensor& a, const Tensor& b, Tensor& out) = 0;
  // a and b are (n,); out is 0-d.
  virtual void dot(const Tensor& a, const Tensor& b, Tensor& out) = 0;

  // Empty reductions give 0 (sum), 1 (prod), NaN (mean, var, std); min/max/argmin/argmax never see them.
  virtual void sum(const Tensor& x, const std::vector<int>& axes, Tensor& out) = 0;
  virtual void prod(const Tensor& x, const std::vector<int>& axes, Tensor& out) = 0;
  // Floating-point x.
  virtual void mean(const Tensor& x, const std::vector<int>& axes, Tensor& out) = 0;
  // Floating-point x; divides by max(N - ddof, 0) like NumPy: inf when that is 0 and the deviations are not,
  // NaN when both are.
  virtual void var(const Tensor& x, const std::vector<int>& axes, double ddof, Tensor& out) = 0;
  virtual void std(const Tensor& x, const std::vector<int>& axes, double ddof, Tensor& out) = 0;
  // NaN propagates.
  virtual void min(const Tensor& x, const std::vector<int>& axes, Tensor& out) = 0;
  virtual void max(const Tensor& x, const std::vector<int>& axes, Tensor& out) = 0;
  // out is int64 with x's shape and extent 1 along axis; the first occurrence wins; NaN counts as extreme.
  virtual void argmin(const Tensor& x, int axis, Tensor& out) = 0;
  virtual void argmax(const Tensor& x, int axis, Tensor& out) = 0;
  // Inclusive prefix sum along axis; out has x's shape and dtype.
  virtual void cumsum(const Tensor& x, int axis, Tensor& out) = 0;
};

}  // namespace ember
