// Element-wise kernels shared by the Eigen backend's math and comparison ops: typed maps over one, two or
// three tensors (with same-shape and scalar fast paths), the wrapping integer arithmetic, Python-style
// division, NaN-propagating min/max and the reduction loop nest. Private to backends/eigen/.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "common.hpp"

namespace ember::eigen {

// ---- scalar semantics ------------------------------------------------------------------------------------

// The unsigned type integer arithmetic wraps in: never narrower than `unsigned`, so that small types do not
// promote to (signed, overflowing) int.
template <class T>
using wrap_t = std::conditional_t<(sizeof(T) <= sizeof(unsigned)), unsigned, std::uint64_t>;

template <class T>
inline constexpr bool is_float_v = std::is_floating_point_v<T>;

template <class T>
inline T wrap_add(T x, T y) {
  return static_cast<T>(static_cast<wrap_t<T>>(x) + static_cast<wrap_t<T>>(y));
}
template <class T>
inline T wrap_sub(T x, T y) {
  return static_cast<T>(static_cast<wrap_t<T>>(x) - static_cast<wrap_t<T>>(y));
}
template <class T>
inline T wrap_mul(T x, T y) {
  return static_cast<T>(static_cast<wrap_t<T>>(x) * static_cast<wrap_t<T>>(y));
}

// Arithmetic in compute type C: wrapping for integers, IEEE for floats.
template <class C>
inline C add_of(C x, C y) {
  if constexpr (is_float_v<C>)
    return x + y;
  else
    return wrap_add(x, y);
}
template <class C>
inline C sub_of(C x, C y) {
  if constexpr (is_float_v<C>)
    return x - y;
  else
    return wrap_sub(x, y);
}
template <class C>
inline C mul_of(C x, C y) {
  if constexpr (is_float_v<C>)
    return x * y;
  else
    return wrap_mul(x, y);
}

template <class C>
inline bool is_nan(C x) {
  if constexpr (is_float_v<C>)
    return std::isnan(x);
  else
    return false;
}

// NumPy's minimum/maximum: NaN propagates (the first NaN operand wins).
template <class C>
inline C min_of(C x, C y) {
  if (is_nan(x)) return x;
  if (is_nan(y)) return y;
  return y < x ? y : x;
}
template <class C>
inline C max_of(C x, C y) {
  if (is_nan(x)) return x;
  if (is_nan(y)) return y;
  return x < y ? y : x;
}

// NumPy's npy_divmod for floats: floor division and a remainder with the sign of the divisor.
template <class C>
inline C float_floor_divide(C a, C b) {
  if (b == C(0)) return a / b;
  C mod = std::fmod(a, b);
  C div = (a - mod) / b;
  if (mod != C(0)) {
    if ((b < C(0)) != (mod < C(0))) div -= C(1);
  }
  if (div != C(0)) {
    C floordiv = std::floor(div);
    if (div - floordiv > C(0.5)) floordiv += C(1);
    return floordiv;
  }
  return std::copysign(C(0), a / b);
}
template <class C>
inline C float_mod(C a, C b) {
  C mod = std::fmod(a, b);
  if (b == C(0)) return mod;
  if (mod != C(0)) {
    if ((b < C(0)) != (mod < C(0))) mod += b;
  } else {
    mod = std::copysign(C(0), b);
  }
  return mod;
}

// Python integer division: floor, x // 0 == 0, MIN // -1 == MIN (wraps).
template <class C>
inline C int_floor_divide(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) {
    return b ? a : false;
  } else {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<C>) {
      if (b == -1) return wrap_sub(C(0), a);
      C q = static_cast<C>(a / b);
      if (static_cast<C>(a % b) != 0 && ((a < 0) != (b < 0))) --q;
      return q;
    } else {
      return static_cast<C>(a / b);
    }
  }
}
// Python integer modulo: the sign of the divisor, x % 0 == 0.
template <class C>
inline C int_mod(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) {
    return false;
  } else {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<C>) {
      if (b == -1) return 0;
      C r = static_cast<C>(a % b);
      if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<C>(r + b);
      return r;
    } else {
      return static_cast<C>(a % b);
    }
  }
}

// Exact integer power by repeated squaring, wrapping; negative exponents give 1 for 1, +-1 for -1, else 0.
template <class C>
inline C int_power(C base, C exponent) {
  if constexpr (std::is_same_v<C, bool>) {
    return base || !exponent;
  } else {
    if constexpr (std::is_signed_v<C>) {
      if (exponent < 0) {
        if (base == 1) return 1;
        if (base == -1) return (exponent % 2 == 0) ? C(1) : C(-1);
        return 0;
      }
    }
    wrap_t<C> result = 1, b = static_cast<wrap_t<C>>(base);
    auto e = static_cast<std::uint64_t>(exponent);
    while (e != 0) {
      if (e & 1u) result *= b;
      b *= b;
      e >>= 1u;
    }
    return static_cast<C>(result);
  }
}

// ---- maps ------------------------------------------------------------------------------------------------

// out[i] = op(x[i]) in compute type; TOut is out's storage type.
template <class T, class TOut, class Op>
void map1(const Tensor& x, Tensor& out, Op op) {
  const T* px = x.data<const T>();
  TOut* po = out.data<TOut>();
  const std::int64_t n = out.size();
  for (std::int64_t i = 0; i < n; ++i) po[i] = store<TOut>(op(load(px[i])));
}

// out[i] = op(a[i], b[i]) with a and b broadcast to out's shape.
template <class T, class TOut, class Op>
void map2(const Tensor& a, const Tensor& b, Tensor& out, Op op) {
  const T* pa = a.data<const T>();
  const T* pb = b.data<const T>();
  TOut* po = out.data<TOut>();
  const std::int64_t n = out.size();
  if (n == 0) return;
  if (a.size() == n && b.size() == n) {
    for (std::int64_t i = 0; i < n; ++i) po[i] = store<TOut>(op(load(pa[i]), load(pb[i])));
  } else if (a.size() == n && b.size() == 1) {
    const auto y = load(pb[0]);
    for (std::int64_t i = 0; i < n; ++i) po[i] = store<TOut>(op(load(pa[i]), y));
  } else if (a.size() == 1 && b.size() == n) {
    const auto x = load(pa[0]);
    for (std::int64_t i = 0; i < n; ++i) po[i] = store<TOut>(op(x, load(pb[i])));
  } else {
    for_each_broadcast2(a.shape(), b.shape(), out.shape(),
                        [&](std::int64_t o, std::int64_t ia, std::int64_t ib) {
                          po[o] = store<TOut>(op(load(pa[ia]), load(pb[ib])));
                        });
  }
}

// map2 for float and double with an Eigen array expression on the same-shape and scalar paths:
// array_op(ArrayA, ArrayB) gives the result expression.
template <class T, class Op, class ArrayOp>
void map2_vectorized(const Tensor& a, const Tensor& b, Tensor& out, Op op, ArrayOp array_op) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
    const std::int64_t n = out.size();
    if (n > 0 && a.size() == n && b.size() == n) {
      array_of<T>(out) = array_op(array_of<T>(a), array_of<T>(b));
      return;
    }
    if (n > 0 && a.size() == n && b.size() == 1) {
      array_of<T>(out) = array_op(array_of<T>(a), Array::Constant(n, b.data<const T>()[0]));
      return;
    }
    if (n > 0 && a.size() == 1 && b.size() == n) {
      array_of<T>(out) = array_op(Array::Constant(n, a.data<const T>()[0]), array_of<T>(b));
      return;
    }
  }
  map2<T, T>(a, b, out, op);
}

// out[i] = op(c[i], x[i], y[i]) with all three broadcast to out's shape.
template <class TC, class T, class Op>
void map3(const Tensor& c, const Tensor& x, const Tensor& y, Tensor& out, Op op) {
  const TC* pc = c.data<const TC>();
  const T* px = x.data<const T>();
  const T* py = y.data<const T>();
  T* po = out.data<T>();
  const std::int64_t n = out.size();
  if (c.size() == n && x.size() == n && y.size() == n) {
    for (std::int64_t i = 0; i < n; ++i) po[i] = op(pc[i], px[i], py[i]);
    return;
  }
  for_each_broadcast3(c.shape(), x.shape(), y.shape(), out.shape(),
                      [&](std::int64_t o, std::int64_t ic, std::int64_t ix, std::int64_t iy) {
                        po[o] = op(pc[ic], px[ix], py[iy]);
                      });
}

// ---- reductions ------------------------------------------------------------------------------------------

// The reduction over `axes` of a tensor of shape `shape` as a loop nest. When the reduced axes are one
// consecutive run, element (o, k, i) is at (o * extent + k) * inner + i and out index o * inner + i.
struct ReductionPlan {
  bool consecutive = false;
  std::int64_t outer = 1, extent = 1, inner = 1;
};
inline ReductionPlan plan_reduction(const Shape& shape, const std::vector<int>& axes) {
  ReductionPlan p;
  if (axes.empty()) {
    p.consecutive = true;
    p.outer = shape_numel(shape);
    return p;
  }
  p.consecutive = axes.back() - axes.front() + 1 == static_cast<int>(axes.size());
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    const std::int64_t e = shape[static_cast<std::size_t>(d)];
    if (d < axes.front()) {
      p.outer *= e;
    } else if (d <= axes.back()) {
      p.extent *= e;
    } else {
      p.inner *= e;
    }
  }
  return p;
}

// Reduces x (storage type T) over `axes` into po[0 .. number of outputs).
// R provides: Acc init(o), void step(Acc&, compute_t<T> v) and TOut finish(const Acc&, std::int64_t count).
// Optionally R::contiguous(Acc&, const T* p, n) reduces a contiguous run at once (pairwise sums).
template <class T, class TOut, class R>
void reduce(const Tensor& x, const std::vector<int>& axes, TOut* po, const R& r) {
  const T* px = x.data<const T>();
  const ReductionPlan p = plan_reduction(x.shape(), axes);
  const std::int64_t count = p.consecutive ? p.extent : [&] {
    std::int64_t c = 1;
    for (int a : axes) c *= x.shape()[static_cast<std::size_t>(a)];
    return c;
  }();
  if (!p.consecutive) {
    const ReductionLayout layout = reduction_layout(x.shape(), axes);
    for (std::size_t o = 0; o < layout.out_base.size(); ++o) {
      auto acc = r.init(static_cast<std::int64_t>(o));
      const T* base = px + layout.out_base[o];
      for (std::int64_t off : layout.reduced_offsets) r.step(acc, load(base[off]));
      po[o] = r.finish(acc, count);
    }
    return;
  }
  if (p.inner == 1) {  // each output reduces one contiguous run
    for (std::int64_t o = 0; o < p.outer; ++o) {
      auto acc = r.init(o);
      const T* run = px + o * p.extent;
      if constexpr (requires { r.contiguous(acc, run, p.extent); }) {
        r.contiguous(acc, run, p.extent);
      } else {
        for (std::int64_t k = 0; k < p.extent; ++k) r.step(acc, load(run[k]));
      }
      po[o] = r.finish(acc, count);
    }
    return;
  }
  // Reduced run followed by kept axes: accumulate whole rows, which keeps the inner loop contiguous.
  using Acc = decltype(r.init(0));
  const auto accs = std::make_unique<Acc[]>(static_cast<std::size_t>(p.inner));  // not vector<bool>
  for (std::int64_t o = 0; o < p.outer; ++o) {
    for (std::int64_t i = 0; i < p.inner; ++i) accs[static_cast<std::size_t>(i)] = r.init(o * p.inner + i);
    for (std::int64_t k = 0; k < p.extent; ++k) {
      const T* row = px + (o * p.extent + k) * p.inner;
      for (std::int64_t i = 0; i < p.inner; ++i) r.step(accs[static_cast<std::size_t>(i)], load(row[i]));
    }
    for (std::int64_t i = 0; i < p.inner; ++i) {
      po[o * p.inner + i] = r.finish(accs[static_cast<std::size_t>(i)], count);
    }
  }
}

// NumPy's pairwise summation of p[0..n) into Acc: blocks of 128 with eight partial sums, split in halves
// above that. get(p[i]) gives the value to add.
template <class Acc, class T, class Get>
Acc pairwise_sum(const T* p, std::int64_t n, Get get) {
  if (n < 8) {
    Acc s = -Acc(0);  // -0.0 is the exact identity: a sum of -0.0 stays -0.0, like NumPy's
    for (std::int64_t i = 0; i < n; ++i) s += get(p[i]);
    return s;
  }
  if (n <= 128) {
    Acc r[8];
    for (int j = 0; j < 8; ++j) r[j] = get(p[j]);
    std::int64_t i = 8;
    for (; i + 8 <= n; i += 8) {
      for (int j = 0; j < 8; ++j) r[j] += get(p[i + j]);
    }
    Acc s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) s += get(p[i]);
    return s;
  }
  std::int64_t half_n = n / 2;
  half_n -= half_n % 8;
  return pairwise_sum<Acc>(p, half_n, get) + pairwise_sum<Acc>(p + half_n, n - half_n, get);
}

// The type float sums accumulate in: double for float16 and float32 (accuracy at no cost), T otherwise.
template <class T>
using sum_acc_t = std::conditional_t<std::is_integral_v<T>, T, double>;

// ---- reducers for reduce() --------------------------------------------------------------------------------

template <class T>
struct SumReducer {
  using A = sum_acc_t<T>;
  // -0.0 is the exact identity of float addition (a sum of -0.0 stays -0.0, as in NumPy).
  A init(std::int64_t) const {
    if constexpr (is_float_v<A>)
      return -A(0);
    else
      return A(0);
  }
  void step(A& acc, compute_t<T> v) const { acc = add_of<A>(acc, static_cast<A>(v)); }
  void contiguous(A& acc, const T* p, std::int64_t n) const requires is_float_v<compute_t<T>> {
    acc = pairwise_sum<A>(p, n, [](T v) { return static_cast<A>(load(v)); });
  }
  T finish(A acc, std::int64_t count) const { return store<T>(count == 0 ? A(0) : acc); }
};

template <class T>
struct ProdReducer {
  using A = compute_t<T>;
  A init(std::int64_t) const { return A(1); }
  void step(A& acc, A v) const { acc = mul_of(acc, v); }
  T finish(A acc, std::int64_t) const { return store<T>(acc); }
};

// Mean in double; TOut is T for mean itself and double for var's first pass.
template <class T, class TOut>
struct MeanReducer {
  double init(std::int64_t) const { return -0.0; }
  void step(double& acc, compute_t<T> v) const { acc += static_cast<double>(v); }
  void contiguous(double& acc, const T* p, std::int64_t n) const {
    acc = pairwise_sum<double>(p, n, [](T v) { return static_cast<double>(load(v)); });
  }
  TOut finish(double acc, std::int64_t count) const {
    const double mean =
        count == 0 ? std::numeric_limits<double>::quiet_NaN() : acc / static_cast<double>(count);
    return store<TOut>(mean);
  }
};

// Second pass of var/std: squared deviations from the per-output mean.
template <class T>
struct DeviationReducer {
  struct Acc {
    double mean = 0.0;
    double squares = 0.0;
  };
  const std::vector<double>* means;
  double ddof;
  bool take_sqrt;
  Acc init(std::int64_t o) const { return {(*means)[static_cast<std::size_t>(o)], 0.0}; }
  void step(Acc& acc, compute_t<T> v) const {
    const double d = static_cast<double>(v) - acc.mean;
    acc.squares += d * d;
  }
  T finish(const Acc& acc, std::int64_t count) const {
    // NumPy divides by max(N - ddof, 0): too few degrees of freedom give inf (or NaN for no spread).
    const double denom = std::max(static_cast<double>(count) - ddof, 0.0);
    double v = acc.squares / denom;
    if (take_sqrt) v = std::sqrt(v);
    return store<T>(v);
  }
};

template <class T, bool IsMax>
struct ExtremumReducer {
  using A = compute_t<T>;
  A init(std::int64_t) const {
    if constexpr (is_float_v<A>) {
      return IsMax ? -std::numeric_limits<A>::infinity() : std::numeric_limits<A>::infinity();
    } else {
      return IsMax ? std::numeric_limits<A>::lowest() : std::numeric_limits<A>::max();
    }
  }
  void step(A& acc, A v) const { acc = IsMax ? max_of(acc, v) : min_of(acc, v); }
  T finish(A acc, std::int64_t) const { return store<T>(acc); }
};

}  // namespace ember::eigen
