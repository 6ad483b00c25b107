// Op-level kernels of the math, comparison and dtype categories that every host backend computes the same
// way: plain loops over contiguous tensors (host/loops.hpp) with the scalar semantics of
// host/scalar_semantics.hpp. A backend calls them from its own op methods and keeps its library's fast
// paths (Eigen expressions, BLAS calls) for the ops where a library does better. `backend` names the calling
// backend in error messages. Backend-agnostic: no backend library header may be included here.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "ember/dtype.hpp"
#include "ember/error.hpp"
#include "ember/scalar.hpp"
#include "ember/tensor.hpp"
#include "host/loops.hpp"
#include "host/scalar_semantics.hpp"
#include "host/vector_kernels.hpp"

namespace ember::host {

// ---- binary arithmetic -----------------------------------------------------------------------------------

// Float32 and float64 + - * / with the vector kernels (host/vector_kernels.hpp): operands of out's size or of
// one element in one call, broadcast ones row by row (each row of out is a vector or scalar op of a row of a
// and one of b: contiguous inputs step 0 or 1 along a row), a run of rows along out's second-innermost
// dimension to a kernel call, the rows split over the host threads. False (nothing done) for other dtypes.
inline bool vector_binary(BinaryOp op, const Tensor& a, const Tensor& b, Tensor& out) {
  const std::int64_t n = out.size();
  const DType d = out.dtype();
  if ((d != DType::float32 && d != DType::float64) || a.dtype() != d || b.dtype() != d || n == 0)
    return false;
  const auto run = [&](const auto* pa, bool a_scalar, const auto* pb, bool b_scalar, auto* po,
                       std::int64_t len) {
    if constexpr (std::is_same_v<std::remove_const_t<std::remove_pointer_t<decltype(pa)>>, float>) {
      binary_f32(op, pa, a_scalar, pb, b_scalar, po, len);
    } else {
      binary_f64(op, pa, a_scalar, pb, b_scalar, po, len);
    }
  };
  const bool stream = stream_stores(n * (d == DType::float32 ? 4 : 8));  // binary_f32 decides alike
  const auto run_rows = [&](const auto* pa, bool a_scalar, std::int64_t a_row, const auto* pb, bool b_scalar,
                            std::int64_t b_row, auto* po, std::int64_t len, std::int64_t rows) {
    if constexpr (std::is_same_v<std::remove_const_t<std::remove_pointer_t<decltype(pa)>>, float>) {
      binary_rows_f32(op, pa, a_scalar, a_row, pb, b_scalar, b_row, po, len, rows, stream);
    } else {
      binary_rows_f64(op, pa, a_scalar, a_row, pb, b_scalar, b_row, po, len, rows, stream);
    }
  };
  const auto compute = [&](auto tag) {
    using T = decltype(tag);
    const T* pa = a.data<const T>();
    const T* pb = b.data<const T>();
    T* po = out.data<T>();
    if ((a.size() == n || a.size() == 1) && (b.size() == n || b.size() == 1)) {
      run(pa, a.size() != n, pb, b.size() != n, po, n);
      return;
    }
    const std::array<const Shape*, 2> shapes{&a.shape(), &b.shape()};
    parallel_broadcast_rows(out.shape(), [&](std::int64_t first, std::int64_t last) {
      for_each_broadcast_run_in<2>(shapes, out.shape(), first, last,
                                   [&](std::int64_t o, const std::array<std::int64_t, 2>& offsets,
                                       const std::array<std::int64_t, 2>& steps, std::int64_t len,
                                       std::int64_t rows, const std::array<std::int64_t, 2>& row_steps) {
                                     if (steps[0] == 0 && steps[1] == 0) {  // each row one value repeated
                                       for (std::int64_t r = 0; r < rows; ++r) {
                                         T* d = po + o + r * len;
                                         run(pa + offsets[0] + r * row_steps[0], true,
                                             pb + offsets[1] + r * row_steps[1], true, d, 1);
                                         std::fill(d + 1, d + len, d[0]);
                                       }
                                     } else {
                                       run_rows(pa + offsets[0], steps[0] == 0, row_steps[0], pb + offsets[1],
                                                steps[1] == 0, row_steps[1], po + o, len, rows);
                                     }
                                   });
    });
  };
  if (d == DType::float32) {
    compute(float{});
  } else {
    compute(double{});
  }
  return true;
}

// out = a + b, a - b, a * b (wrapping for integers) and a / b (floats only), broadcast.
inline void add(const Tensor& a, const Tensor& b, Tensor& out) {
  if (vector_binary(BinaryOp::add, a, b, out)) return;
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2<T, T>(a, b, out, [](auto x, auto y) { return add_of(x, y); });
  });
}
inline void subtract(const Tensor& a, const Tensor& b, Tensor& out) {
  if (vector_binary(BinaryOp::subtract, a, b, out)) return;
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2<T, T>(a, b, out, [](auto x, auto y) { return sub_of(x, y); });
  });
}
inline void multiply(const Tensor& a, const Tensor& b, Tensor& out) {
  if (vector_binary(BinaryOp::multiply, a, b, out)) return;
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2<T, T>(a, b, out, [](auto x, auto y) { return mul_of(x, y); });
  });
}
inline void divide(const char* backend, const Tensor& a, const Tensor& b, Tensor& out) {
  if (vector_binary(BinaryOp::divide, a, b, out)) return;
  visit_float(backend, "divide", out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2<T, T>(a, b, out, [](auto x, auto y) { return x / y; });
  });
}

inline void floor_divide(const Tensor& a, const Tensor& b, Tensor& out) {
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

inline void mod(const Tensor& a, const Tensor& b, Tensor& out) {
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

inline void power(const Tensor& a, const Tensor& b, Tensor& out) {
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

inline void minimum(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2<T, T>(a, b, out, [](auto x, auto y) { return min_of(x, y); });
  });
}

inline void maximum(const Tensor& a, const Tensor& b, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map2<T, T>(a, b, out, [](auto x, auto y) { return max_of(x, y); });
  });
}

// ---- unary arithmetic ------------------------------------------------------------------------------------

inline void negative(const Tensor& x, Tensor& out) {
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

inline void abs(const Tensor& x, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float>) {  // the vector kernels: AVX-512 or AVX2 where the cpu has them
      abs_f32(x.data<const float>(), out.data<float>(), out.size());
      return;
    } else if constexpr (std::is_same_v<T, double>) {
      abs_f64(x.data<const double>(), out.data<double>(), out.size());
      return;
    }
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

inline void sign(const Tensor& x, Tensor& out) {
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

inline void square(const Tensor& x, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map1<T, T>(x, out, [](auto v) { return mul_of(v, v); });
  });
}

// out = f(x) for floating-point x, computed in compute_t (float for float16).
template <class F>
void float_unary(const char* backend, const char* op, const Tensor& x, Tensor& out, F f) {
  visit_float(backend, op, out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map1<T, T>(x, out, f);
  });
}

// f32/f64 (host/vector_kernels.hpp) over float32 and float64 tensors, scalar(v) over float16 ones.
template <class Scalar>
void vector_unary(const char* backend, const char* op, const Tensor& x, Tensor& out,
                  void (*f32)(const float*, float*, std::int64_t),
                  void (*f64)(const double*, double*, std::int64_t), Scalar scalar) {
  if (out.dtype() == DType::float32 && x.dtype() == DType::float32 && x.size() == out.size()) {
    f32(x.data<const float>(), out.data<float>(), out.size());
  } else if (out.dtype() == DType::float64 && x.dtype() == DType::float64 && x.size() == out.size()) {
    f64(x.data<const double>(), out.data<double>(), out.size());
  } else {
    float_unary(backend, op, x, out, scalar);
  }
}

// exp and log for every host backend: the vectorized kernels, std::exp and std::log for float16.
inline void exp(const char* backend, const Tensor& x, Tensor& out) {
  vector_unary(backend, "exp", x, out, exp_f32, exp_f64, [](auto v) { return std::exp(v); });
}
inline void log(const char* backend, const Tensor& x, Tensor& out) {
  vector_unary(backend, "log", x, out, log_f32, log_f64, [](auto v) { return std::log(v); });
}

// floor, ceil and round: f on floats; integers (and bool) are their own floor, ceil and round.
template <class F>
void rounding(const Tensor& x, Tensor& out, F f) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_float_v<compute_t<T>>) {
      map1<T, T>(x, out, f);
    } else if (x.nbytes() != 0) {
      std::memcpy(out.raw_data(), x.raw_data(), x.nbytes());
    }
  });
}

inline void clip(const Tensor& x, std::optional<Scalar> lo, std::optional<Scalar> hi, Tensor& out) {
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

// ---- products --------------------------------------------------------------------------------------------

// The type products of T are computed in: float for float16, the wrapping unsigned type for integers (exact
// modulo 2^bits), T for float and double.
template <class T>
using product_t = std::conditional_t<std::is_same_v<T, half>, float,
                                     std::conditional_t<std::is_integral_v<T>, wrap_t<T>, T>>;

// sum(a[i] * b[i]) over the n elements of a and b, accumulated in order in product_t and rounded once.
template <class T>
T dot_loop(const Tensor& a, const Tensor& b) {
  using U = product_t<T>;
  const T* pa = a.data<const T>();
  const T* pb = b.data<const T>();
  U acc = 0;
  for (std::int64_t i = 0; i < a.size(); ++i)
    acc += static_cast<U>(load(pa[i])) * static_cast<U>(load(pb[i]));
  return store<T>(acc);
}

// ---- reductions ------------------------------------------------------------------------------------------

inline void sum(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    reduce<T>(x, axes, out.data<T>(), SumReducer<T>{});
  });
}

inline void prod(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    reduce<T>(x, axes, out.data<T>(), ProdReducer<T>{});
  });
}

inline void mean(const char* backend, const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  visit_float(backend, "mean", out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    reduce<T>(x, axes, out.data<T>(), MeanReducer<T, T>{});
  });
}

// var (or std with take_sqrt) in two passes: the mean, then the squared deviations from it.
inline void variance(const char* backend, const Tensor& x, const std::vector<int>& axes, double ddof,
                     Tensor& out, bool take_sqrt) {
  visit_float(backend, take_sqrt ? "std" : "var", out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    std::vector<double> means(static_cast<std::size_t>(out.size()));
    reduce<T>(x, axes, means.data(), MeanReducer<T, double>{});
    reduce<T>(x, axes, out.data<T>(), DeviationReducer<T>{&means, ddof, take_sqrt});
  });
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

inline void cumsum(const Tensor& x, int axis, Tensor& out) {
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

// Vector p-norm over `axes` (keepdims form), accumulated in double and rounded once: ord may be +-inf (a
// NaN anywhere gives NaN), 0 (count of non-zeros), 1, 2 or any p.
inline void norm(const Tensor& x, double ord, const std::vector<int>& axes, Tensor& out) {
  const ReductionLayout layout = reduction_layout(x.shape(), axes);
  const auto run = [&](auto tag) {
    using T = decltype(tag);
    const T* p = x.data<const T>();
    T* o = out.data<T>();
    for (std::size_t r = 0; r < layout.out_base.size(); ++r) {
      const T* base = p + layout.out_base[r];
      double acc = 0.0;
      bool nan = false;
      if (std::isinf(ord)) {
        acc = ord > 0 ? 0.0 : std::numeric_limits<double>::infinity();
        for (auto off : layout.reduced_offsets) {
          const double v = std::abs(static_cast<double>(base[off]));
          nan = nan || std::isnan(v);
          acc = ord > 0 ? std::max(acc, v) : std::min(acc, v);
        }
      } else if (ord == 0.0) {
        for (auto off : layout.reduced_offsets) acc += base[off] != T(0) ? 1.0 : 0.0;
      } else if (ord == 1.0) {
        for (auto off : layout.reduced_offsets) acc += std::abs(static_cast<double>(base[off]));
      } else if (ord == 2.0) {
        for (auto off : layout.reduced_offsets)
          acc += static_cast<double>(base[off]) * static_cast<double>(base[off]);
        acc = std::sqrt(acc);
      } else {
        for (auto off : layout.reduced_offsets)
          acc += std::pow(std::abs(static_cast<double>(base[off])), ord);
        acc = std::pow(acc, 1.0 / ord);
      }
      o[r] = nan ? std::numeric_limits<T>::quiet_NaN() : static_cast<T>(acc);
    }
  };
  // The solver ops compute in float32 or float64 only.
  if (x.dtype() == DType::float32) {
    run(float{});
  } else {
    run(double{});
  }
}

// ---- comparison ------------------------------------------------------------------------------------------

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
void float_predicate(const char* backend, const char* op, const Tensor& x, Tensor& out, Pred pred) {
  visit_float(backend, op, x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map1<T, bool>(x, out, pred);
  });
}

inline void isclose(const char* backend, const Tensor& a, const Tensor& b, double rtol, double atol,
                    bool equal_nan, Tensor& out) {
  visit_float(backend, "isclose", a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    using C = compute_t<T>;
    // Like NumPy, the tolerances are applied in the operands' precision.
    const C r = static_cast<C>(rtol), t = static_cast<C>(atol);
    map2<T, bool>(a, b, out, [&](C x, C y) {
      if (std::isnan(x) || std::isnan(y)) return equal_nan && std::isnan(x) && std::isnan(y);
      if (std::isinf(x) || std::isinf(y)) return x == y;
      return std::fabs(x - y) <= t + r * std::fabs(y);
    });
  });
}

// c ? u : v on the bits, without a branch: a random condition would mispredict half the time, and the
// compiler vectorizes the masks. The bytes are u's or v's exactly.
template <class T>
T select_bits(bool c, T u, T v) {
  using U = std::conditional_t<
      sizeof(T) == 1, std::uint8_t,
      std::conditional_t<sizeof(T) == 2, std::uint16_t,
                         std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
  const U a = std::bit_cast<U>(u), b = std::bit_cast<U>(v);
  const U mask = static_cast<U>(U{0} - static_cast<U>(c));
  return std::bit_cast<T>(static_cast<U>((a & mask) | (b & static_cast<U>(~mask))));
}

inline void where(const Tensor& cond, const Tensor& x, const Tensor& y, Tensor& out) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    map3<bool, T>(cond, x, y, out, [](bool c, T u, T v) { return select_bits(c, u, v); });
  });
}

// ---- dtype -----------------------------------------------------------------------------------------------

// out = x converted element by element to out's dtype (convert() semantics).
inline void cast(const Tensor& x, Tensor& out) {
  if (x.dtype() == out.dtype()) {
    if (x.nbytes() != 0) std::memcpy(out.raw_data(), x.raw_data(), x.nbytes());
    return;
  }
  visit_dtype(x.dtype(), [&](auto from_tag) {
    using From = decltype(from_tag);
    visit_dtype(out.dtype(), [&](auto to_tag) {
      using To = decltype(to_tag);
      const From* px = x.data<const From>();
      To* po = out.data<To>();
      const std::int64_t n = x.size();
      for (std::int64_t i = 0; i < n; ++i) po[i] = convert<To>(px[i]);
    });
  });
}

}  // namespace ember::host
