// The Eigen backend's comparison ops: comparisons, logic, float predicates, isclose, all/any and where.
#include <cmath>
#include <string>

#include "eigen_backend.hpp"
#include "elementwise.hpp"

namespace ember::eigen {

namespace {

// out (bool) = op(a, b) on a and b of any one dtype, compared in compute_t.
template <class Op>
void compare(const Tensor& a, const Tensor& b, Tensor& out, Op op) {
  visit_dtype(a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2<T, bool>(a, b, out, op);
  });
}

// out (bool) = pred(x) on floating-point x.
template <class Pred>
void float_predicate(const char* op, const Tensor& x, Tensor& out, Pred pred) {
  auto run = [&](auto tag) {
    using T = decltype(tag);
    map1<T, bool>(x, out, pred);
  };
  switch (x.dtype()) {
    case DType::float16:
      return run(half{});
    case DType::float32:
      return run(float{});
    case DType::float64:
      return run(double{});
    default:
      throw BackendError(std::string("eigen: ") + op + ": expected a floating-point tensor");
  }
}

template <bool All>
struct TruthReducer {
  bool init(std::int64_t) const { return All; }
  void step(bool& acc, bool v) const { acc = All ? (acc && v) : (acc || v); }
  bool finish(bool acc, std::int64_t) const { return acc; }
};

}  // namespace

void EigenBackend::equal(const Tensor& a, const Tensor& b, Tensor& out) {
  compare(a, b, out, [](auto x, auto y) { return x == y; });
}
void EigenBackend::not_equal(const Tensor& a, const Tensor& b, Tensor& out) {
  compare(a, b, out, [](auto x, auto y) { return x != y; });
}
void EigenBackend::less(const Tensor& a, const Tensor& b, Tensor& out) {
  compare(a, b, out, [](auto x, auto y) { return x < y; });
}
void EigenBackend::less_equal(const Tensor& a, const Tensor& b, Tensor& out) {
  compare(a, b, out, [](auto x, auto y) { return x <= y; });
}
void EigenBackend::greater(const Tensor& a, const Tensor& b, Tensor& out) {
  compare(a, b, out, [](auto x, auto y) { return x > y; });
}
void EigenBackend::greater_equal(const Tensor& a, const Tensor& b, Tensor& out) {
  compare(a, b, out, [](auto x, auto y) { return x >= y; });
}

void EigenBackend::logical_and(const Tensor& a, const Tensor& b, Tensor& out) {
  map2<bool, bool>(a, b, out, [](bool x, bool y) { return x && y; });
}
void EigenBackend::logical_or(const Tensor& a, const Tensor& b, Tensor& out) {
  map2<bool, bool>(a, b, out, [](bool x, bool y) { return x || y; });
}
void EigenBackend::logical_xor(const Tensor& a, const Tensor& b, Tensor& out) {
  map2<bool, bool>(a, b, out, [](bool x, bool y) { return x != y; });
}
void EigenBackend::logical_not(const Tensor& x, Tensor& out) {
  map1<bool, bool>(x, out, [](bool v) { return !v; });
}

void EigenBackend::isnan(const Tensor& x, Tensor& out) {
  float_predicate("isnan", x, out, [](auto v) { return std::isnan(v); });
}
void EigenBackend::isinf(const Tensor& x, Tensor& out) {
  float_predicate("isinf", x, out, [](auto v) { return std::isinf(v); });
}
void EigenBackend::isfinite(const Tensor& x, Tensor& out) {
  float_predicate("isfinite", x, out, [](auto v) { return std::isfinite(v); });
}

void EigenBackend::isclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan,
                           Tensor& out) {
  auto run = [&](auto tag) {
    using T = decltype(tag);
    using C = compute_t<T>;
    // Like NumPy, the tolerances are applied in the operands' precision.
    const C r = static_cast<C>(rtol), t = static_cast<C>(atol);
    map2<T, bool>(a, b, out, [&](C x, C y) {
      if (std::isnan(x) || std::isnan(y)) return equal_nan && std::isnan(x) && std::isnan(y);
      if (std::isinf(x) || std::isinf(y)) return x == y;
      return std::fabs(x - y) <= t + r * std::fabs(y);
    });
  };
  switch (a.dtype()) {
    case DType::float16:
      return run(half{});
    case DType::float32:
      return run(float{});
    case DType::float64:
      return run(double{});
    default:
      throw BackendError("eigen: isclose: expected floating-point tensors");
  }
}

void EigenBackend::all(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  reduce<bool>(x, axes, out.data<bool>(), TruthReducer<true>{});
}
void EigenBackend::any(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  reduce<bool>(x, axes, out.data<bool>(), TruthReducer<false>{});
}

void EigenBackend::where(const Tensor& cond, const Tensor& x, const Tensor& y, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map3<bool, T>(cond, x, y, out, [](bool c, T u, T v) { return c ? u : v; });
  });
}

}  // namespace ember::eigen
