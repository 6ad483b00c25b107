// Loops shared by the Eigen backend's op files: typed access, broadcasting iteration, reduction layout.
// Private to backends/eigen/.
#pragma once

#include <Eigen/Core>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "ember/dtype.hpp"
#include "ember/half.hpp"
#include "ember/shape.hpp"
#include "ember/tensor.hpp"

namespace ember::eigen {

// The type arithmetic happens in: float for half, the storage type otherwise.
template <class T>
using compute_t = std::conditional_t<std::is_same_v<T, half>, float, T>;

template <class T>
inline compute_t<T> load(T v) {
  if constexpr (std::is_same_v<T, half>) {
    return static_cast<float>(v);
  } else {
    return v;
  }
}
template <class T, class C>
inline T store(C v) {
  if constexpr (std::is_same_v<T, half>) {
    return half(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

// Storage-type arithmetic: wrapping for integers (never signed overflow: promoted and unsigned), || and &&
// for bool, compute_t (then rounded) for floats.
template <class T>
T wrapping_add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return store<T>(load(a) + load(b));
  }
}
template <class T>
T wrapping_multiply(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
  } else {
    return store<T>(load(a) * load(b));
  }
}

template <class T>
using ArrayMap = Eigen::Map<Eigen::Array<T, Eigen::Dynamic, 1>>;
template <class T>
using ConstArrayMap = Eigen::Map<const Eigen::Array<T, Eigen::Dynamic, 1>>;

template <class T>
ArrayMap<T> array_of(Tensor& t) {
  return ArrayMap<T>(t.data<T>(), t.size());
}
template <class T>
ConstArrayMap<T> array_of(const Tensor& t) {
  return ConstArrayMap<T>(t.data<const T>(), t.size());
}

// Calls f(out_index, a_index, b_index) for every element of out, with a and b broadcast to out's shape.
template <class F>
void for_each_broadcast2(const Shape& a_shape, const Shape& b_shape, const Shape& out_shape, F&& f) {
  const std::size_t nd = out_shape.size();
  const std::int64_t n = shape_numel(out_shape);
  if (n == 0) return;
  const Shape sa = broadcast_strides(a_shape, out_shape);
  const Shape sb = broadcast_strides(b_shape, out_shape);
  if (nd == 0) {
    f(0, 0, 0);
    return;
  }
  // Innermost dimension as a tight loop; the rest through an odometer.
  const std::int64_t inner = out_shape[nd - 1];
  const std::int64_t ia = sa[nd - 1], ib = sb[nd - 1];
  std::vector<std::int64_t> idx(nd, 0);
  std::int64_t oa = 0, ob = 0;
  for (std::int64_t o = 0; o < n; o += inner) {
    for (std::int64_t j = 0; j < inner; ++j) f(o + j, oa + j * ia, ob + j * ib);
    for (std::size_t d = nd - 1; d-- > 0;) {
      ++idx[d];
      oa += sa[d];
      ob += sb[d];
      if (idx[d] < out_shape[d]) break;
      oa -= sa[d] * out_shape[d];
      ob -= sb[d] * out_shape[d];
      idx[d] = 0;
    }
  }
}

// Three-operand form for where(cond, x, y).
template <class F>
void for_each_broadcast3(const Shape& a_shape, const Shape& b_shape, const Shape& c_shape,
                         const Shape& out_shape, F&& f) {
  const std::size_t nd = out_shape.size();
  const std::int64_t n = shape_numel(out_shape);
  if (n == 0) return;
  const Shape sa = broadcast_strides(a_shape, out_shape);
  const Shape sb = broadcast_strides(b_shape, out_shape);
  const Shape sc = broadcast_strides(c_shape, out_shape);
  std::vector<std::int64_t> idx(nd, 0);
  std::int64_t oa = 0, ob = 0, oc = 0;
  for (std::int64_t o = 0; o < n; ++o) {
    f(o, oa, ob, oc);
    for (std::size_t d = nd; d-- > 0;) {
      ++idx[d];
      oa += sa[d];
      ob += sb[d];
      oc += sc[d];
      if (idx[d] < out_shape[d]) break;
      oa -= sa[d] * out_shape[d];
      ob -= sb[d] * out_shape[d];
      oc -= sc[d] * out_shape[d];
      idx[d] = 0;
    }
  }
}

// A reduction over `axes` seen as a loop nest: for each output element (in order), the input offsets of
// the elements reduced into it. Input offsets = out_base(o) + reduced_offsets[r].
struct ReductionLayout {
  std::vector<std::int64_t> out_base;         // input offset of the first reduced element, per output
  std::vector<std::int64_t> reduced_offsets;  // offsets of the reduced elements relative to out_base
};
ReductionLayout reduction_layout(const Shape& in_shape, const std::vector<int>& axes);

// Splits a single-axis op into (outer, extent, inner): element (o, k, i) is at (o * extent + k) * inner + i.
struct AxisLayout {
  std::int64_t outer = 1;
  std::int64_t extent = 1;
  std::int64_t inner = 1;
};
AxisLayout axis_layout(const Shape& shape, int axis);

}  // namespace ember::eigen
