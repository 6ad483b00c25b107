#include "common.hpp"

namespace ember::eigen {

ReductionLayout reduction_layout(const Shape& in_shape, const std::vector<int>& axes) {
  const std::size_t nd = in_shape.size();
  const Shape strides = contiguous_strides(in_shape);
  std::vector<bool> reduced(nd, false);
  for (int a : axes) reduced[static_cast<std::size_t>(a)] = true;

  // Enumerates every combination of the dimensions selected by `keep`, in row-major order.
  auto offsets_over = [&](bool want_reduced) {
    std::vector<std::int64_t> dims, strs;
    for (std::size_t d = 0; d < nd; ++d) {
      if (reduced[d] == want_reduced) {
        dims.push_back(in_shape[d]);
        strs.push_back(strides[d]);
      }
    }
    std::int64_t count = 1;
    for (auto e : dims) count *= e;
    std::vector<std::int64_t> result;
    result.reserve(static_cast<std::size_t>(count));
    if (count == 0) return result;
    std::vector<std::int64_t> idx(dims.size(), 0);
    std::int64_t off = 0;
    for (std::int64_t i = 0; i < count; ++i) {
      result.push_back(off);
      for (std::size_t d = dims.size(); d-- > 0;) {
        ++idx[d];
        off += strs[d];
        if (idx[d] < dims[d]) break;
        off -= strs[d] * dims[d];
        idx[d] = 0;
      }
    }
    return result;
  };
  ReductionLayout layout;
  layout.out_base = offsets_over(false);
  layout.reduced_offsets = offsets_over(true);
  return layout;
}

AxisLayout axis_layout(const Shape& shape, int axis) {
  AxisLayout l;
  for (int d = 0; d < static_cast<int>(shape.size()); ++d) {
    if (d < axis) {
      l.outer *= shape[static_cast<std::size_t>(d)];
    } else if (d == axis) {
      l.extent = shape[static_cast<std::size_t>(d)];
    } else {
      l.inner *= shape[static_cast<std::size_t>(d)];
    }
  }
  return l;
}

}  // namespace ember::eigen
