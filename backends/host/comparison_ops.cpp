// The host backends' comparison ops: comparisons, logic, float predicates, isclose, all/any and where,
// through the shared host loops (frontend/src/host/).
#include <cmath>

#include "backends/host/host_ops.hpp"
#include "host/math_kernels.hpp"

namespace ember::host {

void HostOps::equal(const Tensor& a, const Tensor& b, Tensor& out) {
  host::compare(a, b, out, [](auto x, auto y) { return x == y; });
}
void HostOps::not_equal(const Tensor& a, const Tensor& b, Tensor& out) {
  host::compare(a, b, out, [](auto x, auto y) { return x != y; });
}
void HostOps::less(const Tensor& a, const Tensor& b, Tensor& out) {
  host::compare(a, b, out, [](auto x, auto y) { return x < y; });
}
void HostOps::less_equal(const Tensor& a, const Tensor& b, Tensor& out) {
  host::compare(a, b, out, [](auto x, auto y) { return x <= y; });
}
void HostOps::greater(const Tensor& a, const Tensor& b, Tensor& out) {
  host::compare(a, b, out, [](auto x, auto y) { return x > y; });
}
void HostOps::greater_equal(const Tensor& a, const Tensor& b, Tensor& out) {
  host::compare(a, b, out, [](auto x, auto y) { return x >= y; });
}

void HostOps::logical_and(const Tensor& a, const Tensor& b, Tensor& out) {
  host::map2<bool, bool>(a, b, out, [](bool x, bool y) { return x && y; });
}
void HostOps::logical_or(const Tensor& a, const Tensor& b, Tensor& out) {
  host::map2<bool, bool>(a, b, out, [](bool x, bool y) { return x || y; });
}
void HostOps::logical_xor(const Tensor& a, const Tensor& b, Tensor& out) {
  host::map2<bool, bool>(a, b, out, [](bool x, bool y) { return x != y; });
}
void HostOps::logical_not(const Tensor& x, Tensor& out) {
  host::map1<bool, bool>(x, out, [](bool v) { return !v; });
}

void HostOps::isnan(const Tensor& x, Tensor& out) {
  host::float_predicate(backend_, "isnan", x, out, [](auto v) { return std::isnan(v); });
}
void HostOps::isinf(const Tensor& x, Tensor& out) {
  host::float_predicate(backend_, "isinf", x, out, [](auto v) { return std::isinf(v); });
}
void HostOps::isfinite(const Tensor& x, Tensor& out) {
  host::float_predicate(backend_, "isfinite", x, out, [](auto v) { return std::isfinite(v); });
}

void HostOps::isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan,
                      Tensor& out) {
  host::isclose(backend_, a, b, rtol, atol, equal_nan, out);
}

void HostOps::all(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  host::reduce<bool>(x, axes, out.data<bool>(), host::TruthReducer<true>{});
}
void HostOps::any(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  host::reduce<bool>(x, axes, out.data<bool>(), host::TruthReducer<false>{});
}

void HostOps::where(const Tensor& cond, const Tensor& x, const Tensor& y, Tensor& out) {
  host::where(cond, x, y, out);
}

}  // namespace ember::host
