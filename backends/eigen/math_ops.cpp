// The Eigen backend's math ops: element-wise arithmetic, matmul/dot and reductions.
// Floats use Eigen array and matrix maps where that is the fast path; integers wrap through unsigned
// arithmetic (elementwise.hpp) so that no input is undefined behaviour.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "eigen_backend.hpp"
#include "elementwise.hpp"

namespace ember::eigen {

namespace {

// visit_dtype restricted to the floating-point dtypes the frontend promotes transcendental inputs to.
template <class F>
void visit_float(const char* op, DType dtype, F&& f) {
  switch (dtype) {
    case DType::float16:
      f(half{});
      return;
    case DType::float32:
      f(float{});
      return;
    case DType::float64:
      f(double{});
      return;
    default:
      throw BackendError(std::string("eigen: ") + op + ": expected a floating-point tensor");
  }
}

// out = f(x) for floating-point x, computed in compute_t (float for float16).
template <class F>
void float_unary(const char* op, const Tensor& x, Tensor& out, F f) {
  visit_float(op, out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map1<T, T>(x, out, f);
  });
}

// ---- matmul ----------------------------------------------------------------------------------------------

template <class U>
using RowMatrix = Eigen::Matrix<U, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// out[b] = a[b] * b[b] for (B, M, K) x (B, K, N) buffers of type U.
template <class U>
void batched_product(const U* a, const U* b, U* out, std::int64_t batches, std::int64_t m, std::int64_t k,
                     std::int64_t n) {
  for (std::int64_t i = 0; i < batches; ++i) {
    Eigen::Map<RowMatrix<U>> o(out + i * m * n, m, n);
    if (k == 0) {
      o.setZero();
      continue;
    }
    Eigen::Map<const RowMatrix<U>> ma(a + i * m * k, m, k);
    Eigen::Map<const RowMatrix<U>> mb(b + i * k * n, k, n);
    o.noalias() = ma * mb;
  }
}

// Converts a tensor of T into a buffer of the type its products are computed in.
template <class U, class T>
std::vector<U> widened(const Tensor& x) {
  const T* p = x.data<const T>();
  std::vector<U> v(static_cast<std::size_t>(x.size()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<U>(load(p[i]));
  return v;
}

template <bool IsMax>
void extremum(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    reduce<T>(x, axes, out.data<T>(), ExtremumReducer<T, IsMax>{});
  });
}

// Index of the first extreme element along `axis`; a NaN is more extreme than anything and the first wins.
template <bool IsMax>
void arg_extremum(const Tensor& x, int axis, Tensor& out) {
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using C = compute_t<T>;
    const AxisLayout l = axis_layout(x.shape(), axis);
    const T* px = x.data<const T>();
    auto* po = out.data<std::int64_t>();
    std::vector<C> best(static_cast<std::size_t>(l.inner));
    std::vector<bool> settled(static_cast<std::size_t>(l.inner));
    for (std::int64_t o = 0; o < l.outer; ++o) {
      std::int64_t* idx = po + o * l.inner;
      for (std::int64_t i = 0; i < l.inner; ++i) {
        const C v = load(px[o * l.extent * l.inner + i]);
        best[static_cast<std::size_t>(i)] = v;
        settled[static_cast<std::size_t>(i)] = is_nan(v);
        idx[i] = 0;
      }
      for (std::int64_t k = 1; k < l.extent; ++k) {
        const T* row = px + (o * l.extent + k) * l.inner;
        for (std::int64_t i = 0; i < l.inner; ++i) {
          const auto s = static_cast<std::size_t>(i);
          if (settled[s]) continue;
          const C v = load(row[i]);
          if (is_nan(v)) {
            settled[s] = true;
            idx[i] = k;
          } else if (IsMax ? best[s] < v : v < best[s]) {
            best[s] = v;
            idx[i] = k;
          }
        }
      }
    }
  });
}

}  // namespace

// ---- binary arithmetic -----------------------------------------------------------------------------------

void EigenBackend::add(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2_vectorized<T>(
        a, b, out, [](auto x, auto y) { return add_of(x, y); },
        [](const auto& x, const auto& y) { return x + y; });
  });
}

void EigenBackend::subtract(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2_vectorized<T>(
        a, b, out, [](auto x, auto y) { return sub_of(x, y); },
        [](const auto& x, const auto& y) { return x - y; });
  });
}

void EigenBackend::multiply(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2_vectorized<T>(
        a, b, out, [](auto x, auto y) { return mul_of(x, y); },
        [](const auto& x, const auto& y) { return x * y; });
  });
}

void EigenBackend::divide(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_float("divide", out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2_vectorized<T>(
        a, b, out, [](auto x, auto y) { return x / y; }, [](const auto& x, const auto& y) { return x / y; });
  });
}

void EigenBackend::floor_divide(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2<T, T>(a, b, out, [](auto x, auto y) {
      if constexpr (is_float_v<decltype(x)>) {
        return float_floor_divide(x, y);
      } else {
        return int_floor_divide(x, y);
      }
    });
  });
}

void EigenBackend::mod(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2<T, T>(a, b, out, [](auto x, auto y) {
      if constexpr (is_float_v<decltype(x)>) {
        return float_mod(x, y);
      } else {
        return int_mod(x, y);
      }
    });
  });
}

void EigenBackend::power(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2<T, T>(a, b, out, [](auto x, auto y) {
      if constexpr (is_float_v<decltype(x)>) {
        return std::pow(x, y);
      } else {
        return int_power(x, y);
      }
    });
  });
}

void EigenBackend::minimum(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2<T, T>(a, b, out, [](auto x, auto y) { return min_of(x, y); });
  });
}

void EigenBackend::maximum(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2<T, T>(a, b, out, [](auto x, auto y) { return max_of(x, y); });
  });
}

// ---- unary arithmetic ------------------------------------------------------------------------------------

void EigenBackend::negative(const Tensor& x, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map1<T, T>(x, out, [](auto v) {
      if constexpr (is_float_v<decltype(v)>) {
        return -v;  // -(+0.0) is -0.0, unlike 0 - 0.0
      } else {
        return sub_of(decltype(v)(0), v);
      }
    });
  });
}

void EigenBackend::abs(const Tensor& x, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map1<T, T>(x, out, [](auto v) {
      using C = decltype(v);
      if constexpr (is_float_v<C>) {
        return std::fabs(v);
      } else if constexpr (std::is_signed_v<C>) {
        return v < 0 ? wrap_sub(C(0), v) : v;
      } else {
        return v;
      }
    });
  });
}

void EigenBackend::sign(const Tensor& x, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map1<T, T>(x, out, [](auto v) {
      using C = decltype(v);
      if (is_nan(v) || v == C(0)) return v;  // NaN stays NaN; a zero keeps its sign
      if constexpr (std::is_signed_v<C>) {
        return v > C(0) ? C(1) : v < C(0) ? C(-1) : C(0);
      } else {
        return static_cast<C>(v != C(0));
      }
    });
  });
}

void EigenBackend::square(const Tensor& x, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map1<T, T>(x, out, [](auto v) { return mul_of(v, v); });
  });
}

// ---- transcendental and rounding -------------------------------------------------------------------------

void EigenBackend::sqrt(const Tensor& x, Tensor& out) {
  float_unary("sqrt", x, out, [](auto v) { return std::sqrt(v); });
}
void EigenBackend::exp(const Tensor& x, Tensor& out) {
  float_unary("exp", x, out, [](auto v) { return std::exp(v); });
}
void EigenBackend::expm1(const Tensor& x, Tensor& out) {
  float_unary("expm1", x, out, [](auto v) { return std::expm1(v); });
}
void EigenBackend::log(const Tensor& x, Tensor& out) {
  float_unary("log", x, out, [](auto v) { return std::log(v); });
}
void EigenBackend::log1p(const Tensor& x, Tensor& out) {
  float_unary("log1p", x, out, [](auto v) { return std::log1p(v); });
}
void EigenBackend::log2(const Tensor& x, Tensor& out) {
  float_unary("log2", x, out, [](auto v) { return std::log2(v); });
}
void EigenBackend::log10(const Tensor& x, Tensor& out) {
  float_unary("log10", x, out, [](auto v) { return std::log10(v); });
}
void EigenBackend::sin(const Tensor& x, Tensor& out) {
  float_unary("sin", x, out, [](auto v) { return std::sin(v); });
}
void EigenBackend::cos(const Tensor& x, Tensor& out) {
  float_unary("cos", x, out, [](auto v) { return std::cos(v); });
}
void EigenBackend::tan(const Tensor& x, Tensor& out) {
  float_unary("tan", x, out, [](auto v) { return std::tan(v); });
}
void EigenBackend::sinh(const Tensor& x, Tensor& out) {
  float_unary("sinh", x, out, [](auto v) { return std::sinh(v); });
}
void EigenBackend::cosh(const Tensor& x, Tensor& out) {
  float_unary("cosh", x, out, [](auto v) { return std::cosh(v); });
}
void EigenBackend::tanh(const Tensor& x, Tensor& out) {
  float_unary("tanh", x, out, [](auto v) { return std::tanh(v); });
}

// Integers (and bool) are their own floor, ceil and round.
template <class F>
static void rounding(const Tensor& x, Tensor& out, F f) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_float_v<compute_t<T>>) {
      map1<T, T>(x, out, f);
    } else {
      std::memcpy(out.raw_data(), x.raw_data(), x.nbytes());
    }
  });
}

void EigenBackend::floor(const Tensor& x, Tensor& out) {
  rounding(x, out, [](auto v) { return std::floor(v); });
}
void EigenBackend::ceil(const Tensor& x, Tensor& out) {
  rounding(x, out, [](auto v) { return std::ceil(v); });
}
void EigenBackend::round(const Tensor& x, Tensor& out) {
  // nearbyint under the default rounding mode is round-half-to-even, like NumPy.
  rounding(x, out, [](auto v) { return std::nearbyint(v); });
}

void EigenBackend::clip(const Tensor& x, std::optional<Scalar> lo, std::optional<Scalar> hi, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using C = compute_t<T>;
    const bool has_lo = lo.has_value(), has_hi = hi.has_value();
    const C l = has_lo ? load(lo->to<T>()) : C{};
    const C h = has_hi ? load(hi->to<T>()) : C{};
    map1<T, T>(x, out, [&](C v) {
      if (has_lo) v = max_of(v, l);
      if (has_hi) v = min_of(v, h);
      return v;
    });
  });
}

// ---- matmul and dot --------------------------------------------------------------------------------------

void EigenBackend::matmul(const Tensor& a, const Tensor& b, Tensor& out) {
  const std::int64_t batches = a.shape()[0], m = a.shape()[1], k = a.shape()[2], n = b.shape()[2];
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      batched_product(a.data<const T>(), b.data<const T>(), out.data<T>(), batches, m, k, n);
    } else {
      // float16 in float32; integers in the unsigned type they wrap in (exact modulo 2^bits).
      using U = std::conditional_t<std::is_same_v<T, half>, float, wrap_t<T>>;
      const std::vector<U> wa = widened<U, T>(a), wb = widened<U, T>(b);
      std::vector<U> wo(static_cast<std::size_t>(out.size()));
      batched_product(wa.data(), wb.data(), wo.data(), batches, m, k, n);
      T* po = out.data<T>();
      for (std::size_t i = 0; i < wo.size(); ++i) po[i] = store<T>(wo[i]);
    }
  });
}

void EigenBackend::dot(const Tensor& a, const Tensor& b, Tensor& out) {
  const std::int64_t n = a.size();
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      using Vector = Eigen::Matrix<T, Eigen::Dynamic, 1>;
      Eigen::Map<const Vector> va(a.data<const T>(), n), vb(b.data<const T>(), n);
      out.data<T>()[0] = n == 0 ? T(0) : va.dot(vb);
    } else {
      using U = std::conditional_t<std::is_same_v<T, half>, float, wrap_t<T>>;
      const T* pa = a.data<const T>();
      const T* pb = b.data<const T>();
      U acc = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        acc += static_cast<U>(load(pa[i])) * static_cast<U>(load(pb[i]));
      }
      out.data<T>()[0] = store<T>(acc);
    }
  });
}

// ---- reductions ------------------------------------------------------------------------------------------

void EigenBackend::sum(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    reduce<T>(x, axes, out.data<T>(), SumReducer<T>{});
  });
}

void EigenBackend::prod(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    reduce<T>(x, axes, out.data<T>(), ProdReducer<T>{});
  });
}

void EigenBackend::mean(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  visit_float("mean", out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    reduce<T>(x, axes, out.data<T>(), MeanReducer<T, T>{});
  });
}

namespace {
void variance(const Tensor& x, const std::vector<int>& axes, double ddof, Tensor& out, bool take_sqrt) {
  visit_float(take_sqrt ? "std" : "var", out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    std::vector<double> means(static_cast<std::size_t>(out.size()));
    reduce<T>(x, axes, means.data(), MeanReducer<T, double>{});
    reduce<T>(x, axes, out.data<T>(), DeviationReducer<T>{&means, ddof, take_sqrt});
  });
}
}  // namespace

void EigenBackend::var(const Tensor& x, const std::vector<int>& axes, double ddof, Tensor& out) {
  variance(x, axes, ddof, out, false);
}
void EigenBackend::std(const Tensor& x, const std::vector<int>& axes, double ddof, Tensor& out) {
  variance(x, axes, ddof, out, true);
}

void EigenBackend::min(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  extremum<false>(x, axes, out);
}
void EigenBackend::max(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  extremum<true>(x, axes, out);
}
void EigenBackend::argmin(const Tensor& x, int axis, Tensor& out) {
  arg_extremum<false>(x, axis, out);
}
void EigenBackend::argmax(const Tensor& x, int axis, Tensor& out) {
  arg_extremum<true>(x, axis, out);
}

void EigenBackend::cumsum(const Tensor& x, int axis, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const AxisLayout l = axis_layout(x.shape(), axis);
    const T* px = x.data<const T>();
    T* po = out.data<T>();
    // Row k of each block adds row k - 1 of the result, rounding to T at every step like NumPy.
    for (std::int64_t o = 0; o < l.outer; ++o) {
      for (std::int64_t k = 0; k < l.extent; ++k) {
        const std::int64_t row = (o * l.extent + k) * l.inner;
        for (std::int64_t i = 0; i < l.inner; ++i) {
          po[row + i] =
              k == 0 ? px[row + i] : store<T>(add_of(load(po[row - l.inner + i]), load(px[row + i])));
        }
      }
    }
  });
}

}  // namespace ember::eigen
