// ember::ops, category "math": element-wise arithmetic, matmul and reductions.
//
// Type promotion: two tensors promote by the Array API lattice, and int/float mixes like NumPy
// (ember::ops::result_type). A Scalar operand takes the tensor's dtype when it is of the same kind (NumPy's
// value-based rule for Python scalars), else the promotion of its natural dtype. Arithmetic on bool is a
// DTypeError. Transcendental ops promote integers to the float NumPy uses (int8/uint8 -> float16,
// int16 -> float32, int32/int64 -> float64).
#pragma once

#include <cstdint>
#include <optional>

#include "ember/scalar.hpp"
#include "ember/tensor.hpp"

namespace ember::ops {

Tensor add(const Tensor& a, const Tensor& b);
Tensor add(const Tensor& a, Scalar b);
Tensor subtract(const Tensor& a, const Tensor& b);
Tensor subtract(const Tensor& a, Scalar b);
Tensor multiply(const Tensor& a, const Tensor& b);
Tensor multiply(const Tensor& a, Scalar b);
// True division: integers promote to float64 (float16/float32 stay).
Tensor divide(const Tensor& a, const Tensor& b);
Tensor divide(const Tensor& a, Scalar b);
Tensor floor_divide(const Tensor& a, const Tensor& b);
Tensor mod(const Tensor& a, const Tensor& b);
Tensor power(const Tensor& a, const Tensor& b);
Tensor power(const Tensor& a, Scalar b);
Tensor minimum(const Tensor& a, const Tensor& b);
Tensor maximum(const Tensor& a, const Tensor& b);

Tensor negative(const Tensor& x);
Tensor abs(const Tensor& x);
Tensor sign(const Tensor& x);
Tensor square(const Tensor& x);
Tensor sqrt(const Tensor& x);
Tensor exp(const Tensor& x);
Tensor expm1(const Tensor& x);
Tensor log(const Tensor& x);
Tensor log1p(const Tensor& x);
Tensor log2(const Tensor& x);
Tensor log10(const Tensor& x);
Tensor sin(const Tensor& x);
Tensor cos(const Tensor& x);
Tensor tan(const Tensor& x);
Tensor sinh(const Tensor& x);
Tensor cosh(const Tensor& x);
Tensor tanh(const Tensor& x);
Tensor floor(const Tensor& x);
Tensor ceil(const Tensor& x);
Tensor round(const Tensor& x);
Tensor clip(const Tensor& x, std::optional<Scalar> lo, std::optional<Scalar> hi);

// NumPy matmul: 1-D operands are promoted to matrices and the added axis removed; batch axes broadcast.
Tensor matmul(const Tensor& a, const Tensor& b);
// NumPy dot: inner product for 1-D, matmul for 2-D, sum over a's last and b's second-to-last axis for N-D,
// multiply when either is 0-d.
Tensor dot(const Tensor& a, const Tensor& b);

// Reductions. sum/prod of bool and integers smaller than int64 accumulate in int64 (NumPy on Linux);
// mean/var/std of integers give float64.
Tensor sum(const Tensor& x, Axes axes = std::nullopt, bool keepdims = false);
Tensor prod(const Tensor& x, Axes axes = std::nullopt, bool keepdims = false);
Tensor mean(const Tensor& x, Axes axes = std::nullopt, bool keepdims = false);
Tensor var(const Tensor& x, Axes axes = std::nullopt, bool keepdims = false, double ddof = 0.0);
Tensor std(const Tensor& x, Axes axes = std::nullopt, bool keepdims = false, double ddof = 0.0);
// ShapeError on an empty reduction (no identity).
Tensor min(const Tensor& x, Axes axes = std::nullopt, bool keepdims = false);
Tensor max(const Tensor& x, Axes axes = std::nullopt, bool keepdims = false);
// int64; axis = nullopt: index into the flattened tensor.
Tensor argmin(const Tensor& x, std::optional<std::int64_t> axis = std::nullopt, bool keepdims = false);
Tensor argmax(const Tensor& x, std::optional<std::int64_t> axis = std::nullopt, bool keepdims = false);
// axis = nullopt: over the flattened tensor.
Tensor cumsum(const Tensor& x, std::optional<std::int64_t> axis = std::nullopt);

}  // namespace ember::ops
