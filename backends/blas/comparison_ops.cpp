// The BLAS backend's comparison ops: comparisons, logic, float predicates, isclose, all/any and where,
// through the shared host loops (frontend/src/host/).
#include <cmath>

#include "blas_backend.hpp"
#include "common.hpp"
#include "host/math_kernels.hpp"

namespace ember::blas {

void BlasBackend::equal(const Tensor& a, const Tensor& b, Tensor& out) {
  host::compare(a, b, out, [](auto x, auto y) { return x == y; });
}
void BlasBackend::not_equal(const Tensor& a, const Tensor& b, Tensor& out) {
  host::compare(a, b, out, [](auto x, auto y) { return x != y; });
}
void BlasBackend::less(const Tensor& a, const Tensor& b, Tensor& out) {
  host::compare(a, b, out, [](auto x, auto y) { return x < y; });
}
void BlasBackend::less_equal(const Tensor& a, const Tensor& b, Tensor& out) {
  host::compare(a, b, out, [](auto x, auto y) { return x <= y; });
}
void BlasBackend::greater(const Tensor& a, const Tensor& b, Tensor& out) {
  host::compare(a, b, out, [](auto x, auto y) { return x > y; });
}
void BlasBackend::greater_equal(const Tensor& a, const Tensor& b, Tensor& out) {
  host::compare(a, b, out, [](auto x, auto y) { return x >= y; });
}

void BlasBackend::logical_and(const Tensor& a, const Tensor& b, Tensor& out) {
  host::map2<bool, bool>(a, b, out, [](bool x, bool y) { return x && y; });
}
void BlasBackend::logical_or(const Tensor& a, const Tensor& b, Tensor& out) {
  host::map2<bool, bool>(a, b, out, [](bool x, bool y) { return x || y; });
}
void BlasBackend::logical_xor(const Tensor& a, const Tensor& b, Tensor& out) {
  host::map2<bool, bool>(a, b, out, [](bool x, bool y) { return x != y; });
}
void BlasBackend::logical_not(const Tensor& x, Tensor& out) {
  host::map1<bool, bool>(x, out, [](bool v) { return !v; });
}

void BlasBackend::isnan(const Tensor& x, Tensor& out) {
  host::float_predicate(kBackend, "isnan", x, out, [](auto v) { return std::isnan(v); });
}
void BlasBackend::isinf(const Tensor& x, Tensor& out) {
  host::float_predicate(kBackend, "isinf", x, out, [](auto v) { return std::isinf(v); });
}
void BlasBackend::isfinite(const Tensor& x, Tensor& out) {
  host::float_predicate(kBackend, "isfinite", x, out, [](auto v) { return std::isfinite(v); });
}

void BlasBackend::isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan,
                          Tensor& out) {
  host::isclose(kBackend, a, b, rtol, atol, equal_nan, out);
}

void BlasBackend::all(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  host::reduce<bool>(x, axes, out.data<bool>(), host::TruthReducer<true>{});
}
void BlasBackend::any(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  host::reduce<bool>(x, axes, out.data<bool>(), host::TruthReducer<false>{});
}

void BlasBackend::where(const Tensor& cond, const Tensor& x, const Tensor& y, Tensor& out) {
  host::where(cond, x, y, out);
}

}  // namespace ember::blas
