// Helpers shared by the OpenCL backend's tensor, comparison and solver ops: the element-width programs of
// kernels/layout.cl, operand broadcasting modes, outputs as rows x columns for broadcasting without
// division, the (outer, extent, inner) view of an axis and diagonal spans. Private to backends/opencl/.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ember/shape.hpp"
#include "runtime.hpp"

namespace ember::opencl {

// Program options that make T (and C) the unsigned integer type as wide as one element: kernels that only
// move elements are built once per width and copy any dtype's bits unchanged (float16 included).
inline std::string word_options(std::size_t itemsize) {
  const char* word = itemsize == 1 ? "uchar" : itemsize == 2 ? "ushort" : itemsize == 4 ? "uint" : "ulong";
  return std::string("-DT=") + word + " -DC=" + word + " -DUT=" + (itemsize == 8 ? "ulong" : "uint") +
         " -DIS_HALF=0 -DIS_FLOAT=0 -DIS_BOOL=0 -DIS_INT=1 -DIS_SIGNED=0 -DIS_F64=0";
}

// Kernel `name` of kernels/layout.cl for elements of `itemsize` bytes.
inline cl_kernel layout_kernel(DeviceContext& dev, std::size_t itemsize, const char* name) {
  return dev.kernel("layout", word_options(itemsize), name);
}

// Calls f(W{}) with W the OpenCL unsigned integer type as wide as one element (the T of word_options).
template <class F>
void visit_word(std::size_t itemsize, F&& f) {
  switch (itemsize) {
    case 1:
      f(cl_uchar{});
      return;
    case 2:
      f(cl_ushort{});
      return;
    case 4:
      f(cl_uint{});
      return;
    default:
      f(cl_ulong{});
      return;
  }
}

// How a broadcast operand reaches element i of out (operand_at in the kernels): 0 = element i, 1 = its only
// element, 2 = through broadcast strides (then written to `strides`).
inline cl_int broadcast_mode(const char* op, const Tensor& t, const Tensor& out, ClDims& strides) {
  if (t.size() == out.size()) return 0;  // broadcasting then only adds axes of extent 1
  if (t.size() == 1) return 1;
  strides = dims_of(op, broadcast_strides(t.shape(), out.shape()));
  return 2;
}

// An output seen as rows x cols for kernels on a 2-D range (cols work-items along dimension 0, rows along
// dimension 1), split before an axis p such that each operand is broadcast along all or none of the
// output's axes of extent > 1 on each side; kinds[k] is operand k's kind for ember_rows_offset
// (kernels/common.cl): 0 = element row * cols + col, 1 = its only element, 2 = element col, 3 = element row.
struct RowsView {
  std::int64_t rows = 1, cols = 1;
  std::vector<cl_int> kinds;
};
// The RowsView of `out` for operands of these shapes (each broadcasts to out), or nullopt when no split
// fits or the rows are shorter than kWorkGroupSize / 2 (the range rounds each row up to kWorkGroupSize
// work-items): then the kernels that find operands through strides serve.
inline std::optional<RowsView> rows_view(const Shape& out, const std::vector<Shape>& operands) {
  const std::size_t nd = out.size();
  const std::int64_t count = shape_numel(out);
  // Per operand: the axes of out along which it is broadcast (left-padded with 1s), as bits.
  std::vector<std::uint32_t> masks;
  for (const Shape& s : operands) {
    std::uint32_t mask = 0;
    if (shape_numel(s) != count) {  // else it only lacks axes of extent 1
      for (std::size_t d = 0; d < nd; ++d) {
        const std::size_t pad = nd - std::min(nd, s.size());
        if (out[d] != 1 && (d < pad || s[d - pad] == 1)) mask |= std::uint32_t{1} << d;
      }
    }
    masks.push_back(mask);
  }
  // 0: broadcast along none of out's axes [from, to) of extent > 1, 1: along all of them (or there are
  // none), -1: along some.
  const auto side = [&](std::uint32_t mask, std::size_t from, std::size_t to) {
    bool broadcast = false, kept = false;
    for (std::size_t d = from; d < to; ++d) {
      if (out[d] != 1) (((mask >> d) & 1) != 0 ? broadcast : kept) = true;
    }
    return broadcast && kept ? -1 : kept ? 0 : 1;
  };
  for (std::size_t p = 0; p <= nd; ++p) {
    RowsView v;
    for (std::size_t d = 0; d < nd; ++d) (d < p ? v.rows : v.cols) *= out[d];
    if (v.cols < static_cast<std::int64_t>(kWorkGroupSize / 2)) continue;
    for (const std::uint32_t mask : masks) {
      const int left = side(mask, 0, p), right = side(mask, p, nd);
      if (left < 0 || right < 0) break;
      v.kinds.push_back(left == 0 ? (right == 0 ? 0 : 3) : (right == 0 ? 2 : 1));
    }
    if (v.kinds.size() == masks.size()) return v;
  }
  return std::nullopt;
}

namespace detail {
template <class Kernel, std::size_t... I, class... Operands>
void launch_rows_kinds(DeviceContext& dev, Kernel& kernel, const RowsView& v, std::index_sequence<I...>,
                       Tensor& out, const Operands&... operands) {
  dev.launch_rows(kernel(), 1, v.rows, v.cols, arg(operands)..., arg(out), v.kinds[I]...);
}
}  // namespace detail

// An op's kernel on out as rows x columns when one of its operands broadcasts through strides (mode 2) and
// rows_view finds a split: kernel() (arguments n, the operands, out, then each operand's kind: the _rows
// kernels of math.cl and comparison.cl, layout.cl's where_select_rows) on that 2-D range, and true; else
// false, and nothing is launched. `modes` are broadcast_mode's answers for the operands, in their order.
template <class Kernel, class... Operands>
bool launch_broadcast_rows(DeviceContext& dev, Kernel&& kernel, std::initializer_list<cl_int> modes,
                           Tensor& out, const Operands&... operands) {
  if (std::find(modes.begin(), modes.end(), cl_int{2}) == modes.end()) return false;
  const std::optional<RowsView> v = rows_view(out.shape(), {operands.shape()...});
  if (!v) return false;
  detail::launch_rows_kinds(dev, kernel, *v, std::index_sequence_for<Operands...>{}, out, operands...);
  return true;
}

// A tensor seen as (outer, extent, inner) around `axis`.
struct AxisView {
  std::int64_t outer = 1, extent = 1, inner = 1;
};
inline AxisView axis_view(const Shape& shape, int axis) {
  AxisView v;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const auto a = static_cast<std::size_t>(axis);
    if (d < a) {
      v.outer *= shape[d];
    } else if (d == a) {
      v.extent = shape[d];
    } else {
      v.inner *= shape[d];
    }
  }
  return v;
}

// Start (row, col) and length of the offset-th diagonal of a rows x cols matrix (empty when the offset
// lies outside it).
struct DiagonalSpan {
  std::int64_t row = 0, col = 0, length = 0;
};
inline DiagonalSpan diagonal_span(std::int64_t rows, std::int64_t cols, std::int64_t offset) {
  DiagonalSpan d;
  if (offset >= 0) {
    d.col = std::min(offset, cols);
    d.length = std::max<std::int64_t>(0, std::min(rows, cols - d.col));
  } else {
    d.row = offset > -rows ? -offset : rows;
    d.length = std::max<std::int64_t>(0, std::min(rows - d.row, cols));
  }
  return d;
}

}  // namespace ember::opencl
