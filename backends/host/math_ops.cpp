// The host backends' math ops: element-wise arithmetic and reductions as the shared host loops
// (frontend/src/host/) compute them, written for the compiler to vectorize; integers wrap through unsigned
// arithmetic so that no input is undefined behaviour. matmul and dot are each host backend's own.
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "backends/host/host_ops.hpp"
#include "host/math_kernels.hpp"

namespace ember::host {

// ---- binary arithmetic -----------------------------------------------------------------------------------

void HostOps::add(const Tensor& a, const Tensor& b, Tensor& out) {
  host::add(a, b, out);
}
void HostOps::subtract(const Tensor& a, const Tensor& b, Tensor& out) {
  host::subtract(a, b, out);
}
void HostOps::multiply(const Tensor& a, const Tensor& b, Tensor& out) {
  host::multiply(a, b, out);
}
void HostOps::divide(const Tensor& a, const Tensor& b, Tensor& out) {
  host::divide(backend_, a, b, out);
}
void HostOps::floor_divide(const Tensor& a, const Tensor& b, Tensor& out) {
  host::floor_divide(a, b, out);
}
void HostOps::mod(const Tensor& a, const Tensor& b, Tensor& out) {
  host::mod(a, b, out);
}
void HostOps::power(const Tensor& a, const Tensor& b, Tensor& out) {
  host::power(a, b, out);
}
void HostOps::minimum(const Tensor& a, const Tensor& b, Tensor& out) {
  host::minimum(a, b, out);
}
void HostOps::maximum(const Tensor& a, const Tensor& b, Tensor& out) {
  host::maximum(a, b, out);
}

// ---- unary arithmetic ------------------------------------------------------------------------------------

void HostOps::negative(const Tensor& x, Tensor& out) {
  host::negative(x, out);
}
void HostOps::abs(const Tensor& x, Tensor& out) {
  host::abs(x, out);
}
void HostOps::sign(const Tensor& x, Tensor& out) {
  host::sign(x, out);
}
void HostOps::square(const Tensor& x, Tensor& out) {
  host::square(x, out);
}

// ---- transcendental and rounding -------------------------------------------------------------------------

void HostOps::sqrt(const Tensor& x, Tensor& out) {
  host::float_unary(backend_, "sqrt", x, out, [](auto v) { return std::sqrt(v); });
}
void HostOps::exp(const Tensor& x, Tensor& out) {
  host::exp(backend_, x, out);
}
void HostOps::expm1(const Tensor& x, Tensor& out) {
  host::float_unary(backend_, "expm1", x, out, [](auto v) { return std::expm1(v); });
}
void HostOps::log(const Tensor& x, Tensor& out) {
  host::log(backend_, x, out);
}
void HostOps::log1p(const Tensor& x, Tensor& out) {
  host::float_unary(backend_, "log1p", x, out, [](auto v) { return std::log1p(v); });
}
void HostOps::log2(const Tensor& x, Tensor& out) {
  host::float_unary(backend_, "log2", x, out, [](auto v) { return std::log2(v); });
}
void HostOps::log10(const Tensor& x, Tensor& out) {
  host::float_unary(backend_, "log10", x, out, [](auto v) { return std::log10(v); });
}
void HostOps::sin(const Tensor& x, Tensor& out) {
  host::float_unary(backend_, "sin", x, out, [](auto v) { return std::sin(v); });
}
void HostOps::cos(const Tensor& x, Tensor& out) {
  host::float_unary(backend_, "cos", x, out, [](auto v) { return std::cos(v); });
}
void HostOps::tan(const Tensor& x, Tensor& out) {
  host::float_unary(backend_, "tan", x, out, [](auto v) { return std::tan(v); });
}
void HostOps::sinh(const Tensor& x, Tensor& out) {
  host::float_unary(backend_, "sinh", x, out, [](auto v) { return std::sinh(v); });
}
void HostOps::cosh(const Tensor& x, Tensor& out) {
  host::float_unary(backend_, "cosh", x, out, [](auto v) { return std::cosh(v); });
}
void HostOps::tanh(const Tensor& x, Tensor& out) {
  host::float_unary(backend_, "tanh", x, out, [](auto v) { return std::tanh(v); });
}

void HostOps::floor(const Tensor& x, Tensor& out) {
  host::rounding(x, out, [](auto v) { return std::floor(v); });
}
void HostOps::ceil(const Tensor& x, Tensor& out) {
  host::rounding(x, out, [](auto v) { return std::ceil(v); });
}
void HostOps::round(const Tensor& x, Tensor& out) {
  // nearbyint under the default rounding mode is round-half-to-even, like NumPy.
  host::rounding(x, out, [](auto v) { return std::nearbyint(v); });
}

void HostOps::clip(const Tensor& x, std::optional<Scalar> lo, std::optional<Scalar> hi, Tensor& out) {
  host::clip(x, lo, hi, out);
}

// ---- reductions ------------------------------------------------------------------------------------------

void HostOps::sum(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  host::sum(x, axes, out);
}
void HostOps::prod(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  host::prod(x, axes, out);
}
void HostOps::mean(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  host::mean(backend_, x, axes, out);
}
void HostOps::var(const Tensor& x, const std::vector<int>& axes, double ddof, Tensor& out) {
  host::variance(backend_, x, axes, ddof, out, false);
}
void HostOps::std(const Tensor& x, const std::vector<int>& axes, double ddof, Tensor& out) {
  host::variance(backend_, x, axes, ddof, out, true);
}
void HostOps::min(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  host::extremum<false>(x, axes, out);
}
void HostOps::max(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  host::extremum<true>(x, axes, out);
}
void HostOps::argmin(const Tensor& x, int axis, Tensor& out) {
  host::arg_extremum<false>(x, axis, out);
}
void HostOps::argmax(const Tensor& x, int axis, Tensor& out) {
  host::arg_extremum<true>(x, axis, out);
}
void HostOps::cumsum(const Tensor& x, int axis, Tensor& out) {
  host::cumsum(x, axis, out);
}

}  // namespace ember::host
