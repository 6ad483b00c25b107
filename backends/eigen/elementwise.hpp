// The Eigen backend's vectorized element-wise map: Eigen array expressions on the same-shape and scalar
// paths of float and double, the shared host loop (host/loops.hpp) everywhere else. Private to
// backends/eigen/.
#pragma once

#include <cstdint>
#include <type_traits>

#include "common.hpp"

namespace ember::eigen {

// host::map2 for float and double with an Eigen array expression on the same-shape and scalar paths:
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
  host::map2<T, T>(a, b, out, op);
}

}  // namespace ember::eigen
