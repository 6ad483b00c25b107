// Loops every host backend shares: broadcasting iteration, reduction and single-axis layouts, typed maps
// over one, two or three contiguous tensors (with same-shape and scalar fast paths), the reduction loop
// nest with NumPy's pairwise summation, and the reducers. Backend-agnostic: plain C++ over ember::Tensor,
// written so that the compiler vectorizes the inner loops; no backend library header may be included here.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "ember/dtype.hpp"
#include "ember/error.hpp"
#include "ember/half.hpp"
#include "ember/shape.hpp"
#include "ember/tensor.hpp"
#include "host/parallel.hpp"
#include "host/scalar_semantics.hpp"
#include "host/vector_kernels.hpp"

namespace ember::host {

// visit_dtype restricted to the floating-point dtypes; other dtypes throw BackendError naming the backend.
template <class F>
void visit_float(const char* backend, const char* op, DType dtype, F&& f) {
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
      throw BackendError(std::string(backend) + ": " + op + ": expected a floating-point tensor");
  }
}

// ---- broadcasting iteration ------------------------------------------------------------------------------

// Calls row(out_offset, offsets, steps, length) for the innermost rows [first_row, last_row) of out, with
// the operands of these shapes broadcast to out's shape: offsets[k] is operand k's element at the row's start
// and steps[k] its stride along the row (0 or 1 for contiguous inputs). A 0-d out is one row of one element.
template <std::size_t N, class Row>
void for_each_broadcast_row_in(const std::array<const Shape*, N>& shapes, const Shape& out_shape,
                               std::int64_t first_row, std::int64_t last_row, Row&& row) {
  const std::size_t nd = out_shape.size();
  const std::int64_t n = shape_numel(out_shape);
  if (n == 0 || first_row >= last_row) return;
  std::array<Shape, N> strides;
  for (std::size_t k = 0; k < N; ++k) strides[k] = broadcast_strides(*shapes[k], out_shape);
  std::array<std::int64_t, N> offsets{}, steps{};
  if (nd == 0) {
    row(std::int64_t{0}, offsets, steps, std::int64_t{1});
    return;
  }
  // Innermost dimension as a row; the rest through an odometer, started at first_row.
  const std::int64_t inner = out_shape[nd - 1];
  for (std::size_t k = 0; k < N; ++k) steps[k] = strides[k][nd - 1];
  std::vector<std::int64_t> idx(nd, 0);
  for (std::int64_t rest = first_row, d = static_cast<std::int64_t>(nd) - 2; d >= 0; --d) {
    const auto u = static_cast<std::size_t>(d);
    idx[u] = rest % out_shape[u];
    rest /= out_shape[u];
    for (std::size_t k = 0; k < N; ++k) offsets[k] += idx[u] * strides[k][u];
  }
  for (std::int64_t o = first_row * inner; o < last_row * inner; o += inner) {
    row(o, offsets, steps, inner);
    for (std::size_t d = nd - 1; d-- > 0;) {
      ++idx[d];
      for (std::size_t k = 0; k < N; ++k) offsets[k] += strides[k][d];
      if (idx[d] < out_shape[d]) break;
      for (std::size_t k = 0; k < N; ++k) offsets[k] -= strides[k][d] * out_shape[d];
      idx[d] = 0;
    }
  }
}

// The number of innermost rows of out (for_each_broadcast_row_in): 1 for a 0-d out, 0 for an empty one.
inline std::int64_t broadcast_rows(const Shape& out_shape) {
  const std::int64_t n = shape_numel(out_shape);
  return out_shape.empty() || n == 0 ? (n == 0 ? 0 : 1) : n / out_shape.back();
}

// for_each_broadcast_row_in over every row of out.
template <std::size_t N, class Row>
void for_each_broadcast_row(const std::array<const Shape*, N>& shapes, const Shape& out_shape, Row&& row) {
  for_each_broadcast_row_in<N>(shapes, out_shape, 0, broadcast_rows(out_shape), row);
}

// Calls run(out_offset, offsets, steps, length, rows, row_steps) for the innermost rows [first_row, last_row)
// of out in runs along out's second-innermost dimension (for_each_broadcast_row_in's rows, several to a
// call): row i of a run starts at out_offset + i * length in out and at offsets[k] + i * row_steps[k] in
// operand k, whose elements along it step steps[k]. Out of fewer than 2 dimensions: runs of one row.
template <std::size_t N, class Run>
void for_each_broadcast_run_in(const std::array<const Shape*, N>& shapes, const Shape& out_shape,
                               std::int64_t first_row, std::int64_t last_row, Run&& run) {
  const std::size_t nd = out_shape.size();
  if (nd < 2) {
    for_each_broadcast_row_in<N>(shapes, out_shape, first_row, last_row,
                                 [&](std::int64_t o, const std::array<std::int64_t, N>& offsets,
                                     const std::array<std::int64_t, N>& steps, std::int64_t len) {
                                   run(o, offsets, steps, len, std::int64_t{1},
                                       std::array<std::int64_t, N>{});
                                 });
    return;
  }
  if (shape_numel(out_shape) == 0 || first_row >= last_row) return;
  std::array<Shape, N> strides;
  std::array<std::int64_t, N> steps{}, row_steps{};
  for (std::size_t k = 0; k < N; ++k) {
    strides[k] = broadcast_strides(*shapes[k], out_shape);
    steps[k] = strides[k][nd - 1];
    row_steps[k] = strides[k][nd - 2];
  }
  const std::int64_t inner = out_shape[nd - 1], dim = out_shape[nd - 2];
  for (std::int64_t r = first_row; r < last_row;) {
    const std::int64_t count = std::min(last_row - r, dim - r % dim);
    std::array<std::int64_t, N> offsets{};
    for (std::int64_t rest = r, d = static_cast<std::int64_t>(nd) - 2; d >= 0; --d) {
      const auto u = static_cast<std::size_t>(d);
      const std::int64_t i = rest % out_shape[u];
      rest /= out_shape[u];
      for (std::size_t k = 0; k < N; ++k) offsets[k] += i * strides[k][u];
    }
    run(r * inner, offsets, steps, inner, count, row_steps);
    r += count;
  }
}

// Calls rows(first_row, last_row) over the rows of out (broadcast_rows), split over the host threads when out
// has kBroadcastParallelMin elements or more (each row is computed by one thread, so the split never changes
// a result).
inline constexpr std::int64_t kBroadcastParallelMin = kParallelMin / 4;
template <class Rows>
void parallel_broadcast_rows(const Shape& out_shape, Rows&& rows) {
  const std::int64_t count = broadcast_rows(out_shape);
  const std::int64_t inner = out_shape.empty() ? 1 : std::max<std::int64_t>(out_shape.back(), 1);
  parallel_for(count, rows, (kBroadcastParallelMin + inner - 1) / inner, 1);
}

// Calls row(out_offset, a_offset, a_stride, b_offset, b_stride, length) for every innermost row of out, with
// a and b broadcast to out's shape (strides 0 or 1 along the row for contiguous inputs).
template <class Row>
void for_each_broadcast_row2(const Shape& a_shape, const Shape& b_shape, const Shape& out_shape, Row&& row) {
  for_each_broadcast_row<2>({&a_shape, &b_shape}, out_shape,
                            [&](std::int64_t o, const std::array<std::int64_t, 2>& offsets,
                                const std::array<std::int64_t, 2>& steps, std::int64_t len) {
                              row(o, offsets[0], steps[0], offsets[1], steps[1], len);
                            });
}

// Calls f(out_index, a_index, b_index) for every element of out, with a and b broadcast to out's shape.
template <class F>
void for_each_broadcast2(const Shape& a_shape, const Shape& b_shape, const Shape& out_shape, F&& f) {
  for_each_broadcast_row2(a_shape, b_shape, out_shape,
                          [&](std::int64_t o, std::int64_t oa, std::int64_t ia, std::int64_t ob,
                              std::int64_t ib, std::int64_t len) {
                            for (std::int64_t j = 0; j < len; ++j) f(o + j, oa + j * ia, ob + j * ib);
                          });
}

// ---- layouts ---------------------------------------------------------------------------------------------

// A reduction over `axes` seen as a loop nest: for each output element (in order), the input offsets of
// the elements reduced into it. Input offsets = out_base(o) + reduced_offsets[r].
struct ReductionLayout {
  std::vector<std::int64_t> out_base;         // input offset of the first reduced element, per output
  std::vector<std::int64_t> reduced_offsets;  // offsets of the reduced elements relative to out_base
};

inline ReductionLayout reduction_layout(const Shape& in_shape, const std::vector<int>& axes) {
  const std::size_t nd = in_shape.size();
  const Shape strides = contiguous_strides(in_shape);
  std::vector<bool> reduced(nd, false);
  for (int a : axes) reduced[static_cast<std::size_t>(a)] = true;

  // Enumerates every combination of the dimensions that are (or are not) reduced, in row-major order.
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

// Splits a single-axis op into (outer, extent, inner): element (o, k, i) is at (o * extent + k) * inner + i.
struct AxisLayout {
  std::int64_t outer = 1;
  std::int64_t extent = 1;
  std::int64_t inner = 1;
};

inline AxisLayout axis_layout(const Shape& shape, int axis) {
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
    // Broadcast rows: the common stride patterns as separate loops the compiler vectorizes.
    const std::array<const Shape*, 2> shapes{&a.shape(), &b.shape()};
    parallel_broadcast_rows(out.shape(), [&](std::int64_t first, std::int64_t last) {
      for_each_broadcast_row_in<2>(shapes, out.shape(), first, last,
                                   [&](std::int64_t o, const std::array<std::int64_t, 2>& offsets,
                                       const std::array<std::int64_t, 2>& steps, std::int64_t len) {
                                     const std::int64_t oa = offsets[0], ia = steps[0], ob = offsets[1],
                                                        ib = steps[1];
                                     TOut* d = po + o;
                                     const T* x = pa + oa;
                                     const T* y = pb + ob;
                                     if (ia == 1 && ib == 1) {
                                       for (std::int64_t j = 0; j < len; ++j)
                                         d[j] = store<TOut>(op(load(x[j]), load(y[j])));
                                     } else if (ia == 1 && ib == 0) {
                                       const auto yv = load(y[0]);
                                       for (std::int64_t j = 0; j < len; ++j)
                                         d[j] = store<TOut>(op(load(x[j]), yv));
                                     } else if (ia == 0 && ib == 1) {
                                       const auto xv = load(x[0]);
                                       for (std::int64_t j = 0; j < len; ++j)
                                         d[j] = store<TOut>(op(xv, load(y[j])));
                                     } else {
                                       for (std::int64_t j = 0; j < len; ++j)
                                         d[j] = store<TOut>(op(load(x[j * ia]), load(y[j * ib])));
                                     }
                                   });
    });
  }
}

// Writes out[0, n) by fill(to, first, len), which computes elements [first, first + len) of out into `to`:
// into out in one call, or with `stream` in pieces of kStreamPieceBytes computed into a buffer in L1 and
// copied on with non-temporal stores (stream_copy), the first piece ending at a 64-byte boundary of out. The
// same values; the caller calls stream_fence() after its last streamed piece. Small pieces keep the loads and
// the stores interleaved: on an AMD EPYC, |x| over 64 MiB on two threads ran at 45 GB/s with 1 KiB pieces
// and at 18 GB/s with 16 KiB ones (39 GB/s with ordinary stores).
inline constexpr std::int64_t kStreamPieceBytes = 1024;
template <class T, class Fill>
void write_streamed(T* out, std::int64_t n, bool stream, Fill&& fill) {
  if (!stream) {
    if (n > 0) fill(out, std::int64_t{0}, n);
    return;
  }
  constexpr auto kPiece = static_cast<std::int64_t>(kStreamPieceBytes / sizeof(T));
  alignas(64) T piece[kPiece];
  const auto misaligned = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(out) % 64);
  std::int64_t i = std::min(n, (64 - misaligned) % 64 / static_cast<std::int64_t>(sizeof(T)));
  if (i > 0) fill(out, std::int64_t{0}, i);
  for (; i < n; i += kPiece) {
    const std::int64_t len = std::min(kPiece, n - i);
    fill(piece, i, len);
    stream_copy(out + i, piece, len * static_cast<std::int64_t>(sizeof(T)), false);
  }
}

// One row of map3 whose operands step SC, SX and SY (0 or 1) along it: the operands do not overlap out, so
// the compiler vectorizes it without a run-time overlap check (a step-0 operand is one value, loaded once; a
// bool condition is read as its byte, which GCC's vectorizer takes and bool it does not).
template <std::int64_t SC, std::int64_t SX, std::int64_t SY, class TC, class T, class Op>
void map3_row(T* __restrict d, const TC* __restrict c, const T* __restrict x, const T* __restrict y,
              std::int64_t len, Op op) {
  const auto cond = [&](std::int64_t j) {
    if constexpr (std::is_same_v<TC, bool>) {
      return reinterpret_cast<const unsigned char*>(c)[j * SC] != 0;
    } else {
      return c[j * SC];
    }
  };
  if constexpr (SY == 0 && SX == 1) {
    const T v = y[0];
    for (std::int64_t j = 0; j < len; ++j) d[j] = op(cond(j), x[j], v);
  } else if constexpr (SX == 0 && SY == 1) {
    const T u = x[0];
    for (std::int64_t j = 0; j < len; ++j) d[j] = op(cond(j), u, y[j]);
  } else {
    for (std::int64_t j = 0; j < len; ++j) d[j] = op(cond(j), x[j * SX], y[j * SY]);
  }
}

// out[i] = op(c[i], x[i], y[i]) with all three broadcast to out's shape; a large out (stream_stores) with
// non-temporal stores (write_streamed).
template <class TC, class T, class Op>
void map3(const Tensor& c, const Tensor& x, const Tensor& y, Tensor& out, Op op) {
  const TC* pc = c.data<const TC>();
  const T* px = x.data<const T>();
  const T* py = y.data<const T>();
  T* po = out.data<T>();
  const std::int64_t n = out.size();
  const bool stream = stream_stores(static_cast<std::int64_t>(out.nbytes()));
  if (c.size() == n && x.size() == n && y.size() == n) {
    parallel_for(
        n,
        [&](std::int64_t begin, std::int64_t end) {
          write_streamed(po + begin, end - begin, stream, [&](T* to, std::int64_t first, std::int64_t len) {
            map3_row<1, 1, 1>(to, pc + begin + first, px + begin + first, py + begin + first, len, op);
          });
          if (stream) stream_fence();
        },
        kBroadcastParallelMin);
    return;
  }
  // Broadcast rows: every operand's elements along a row at a constant step, no index arithmetic per element.
  const std::array<const Shape*, 3> shapes{&c.shape(), &x.shape(), &y.shape()};
  parallel_broadcast_rows(out.shape(), [&](std::int64_t first, std::int64_t last) {
    for_each_broadcast_row_in<3>(
        shapes, out.shape(), first, last,
        [&](std::int64_t o, const std::array<std::int64_t, 3>& offsets,
            const std::array<std::int64_t, 3>& steps, std::int64_t len) {
          T* d = po + o;
          const TC* cr = pc + offsets[0];
          const T* xr = px + offsets[1];
          const T* yr = py + offsets[2];
          const std::int64_t ic = steps[0], ix = steps[1], iy = steps[2];
          // Steps of 0 or 1 as constants: a loop the compiler vectorizes per pattern.
          const auto loop = [&](auto sc, auto sx, auto sy) {
            write_streamed(d, len, stream, [&](T* to, std::int64_t at, std::int64_t part) {
              map3_row<sc(), sx(), sy()>(to, cr + at * sc(), xr + at * sx(), yr + at * sy(), part, op);
            });
          };
          using Zero = std::integral_constant<std::int64_t, 0>;
          using One = std::integral_constant<std::int64_t, 1>;
          const auto with_y = [&](auto sc, auto sx) {
            if (iy == 0) {
              loop(sc, sx, Zero{});
            } else {
              loop(sc, sx, One{});
            }
          };
          const auto with_x = [&](auto sc) {
            if (ix == 0) {
              with_y(sc, Zero{});
            } else {
              with_y(sc, One{});
            }
          };
          if (ic >= 0 && ic <= 1 && ix >= 0 && ix <= 1 && iy >= 0 && iy <= 1) {
            if (ic == 0) {
              with_x(Zero{});
            } else {
              with_x(One{});
            }
          } else {
            for (std::int64_t j = 0; j < len; ++j) d[j] = op(cr[j * ic], xr[j * ix], yr[j * iy]);
          }
        });
    if (stream) stream_fence();
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
template <class T>
struct SumReducer;

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
    // Large inputs split the outputs over threads (each still adds its run in the same order); a run of its
    // own (a full sum) splits inside (pairwise_sum_tree), where it is long enough.
    const std::int64_t work = p.outer * p.extent;
    parallel_for(
        p.outer,
        [&](std::int64_t first, std::int64_t last) {
          if constexpr (std::is_same_v<R, SumReducer<float>>) {
            if (p.outer > 1) {  // several rows: the kernel sums the leaves of short rows together
              constexpr std::int64_t kRows = 1024;
              double sums[kRows];
              for (std::int64_t o = first; o < last; o += kRows) {
                const std::int64_t rows = std::min(kRows, last - o);
                pairwise_sums_f32(px + o * p.extent, rows, p.extent, sums);
                for (std::int64_t i = 0; i < rows; ++i) po[o + i] = r.finish(sums[i], count);
              }
              return;
            }
          }
          for (std::int64_t o = first; o < last; ++o) {
            auto acc = r.init(o);
            const T* run = px + o * p.extent;
            if constexpr (requires { r.contiguous(acc, run, p.extent); }) {
              r.contiguous(acc, run, p.extent);
            } else {
              for (std::int64_t k = 0; k < p.extent; ++k) r.step(acc, load(run[k]));
            }
            po[o] = r.finish(acc, count);
          }
        },
        work >= kParallelMin ? std::int64_t{0} : std::numeric_limits<std::int64_t>::max(), 1,
        work >= kParallelMin * 16 ? std::int64_t{0} : std::numeric_limits<std::int64_t>::max());
    return;
  }
  // Reduced run followed by kept axes: accumulate whole rows, which keeps the inner loop contiguous. Large
  // inputs split the kept columns over threads; each output still adds its elements in the same order.
  using Acc = decltype(r.init(0));
  const std::int64_t work = p.outer * p.extent * p.inner;
  // Chunks of 64 columns, or for the float32 sum's kernel a band of up to kAddRowsBand columns a thread: its
  // rows' pattern runs at half the speed in the 512-column chunks of four a thread (vector_kernels.hpp).
  const std::int64_t column_grain = [&] {
    if constexpr (std::is_same_v<R, SumReducer<float>>) {
      const std::int64_t share = (p.inner + host_threads() - 1) / host_threads();
      return std::clamp<std::int64_t>((share + 15) / 16 * 16, 64, kAddRowsBand);
    } else {
      return std::int64_t{64};
    }
  }();
  parallel_for(
      p.inner,
      [&](std::int64_t first, std::int64_t last) {
        const std::int64_t width = last - first;
        const auto accs = std::make_unique<Acc[]>(static_cast<std::size_t>(width));  // not vector<bool>
        for (std::int64_t o = 0; o < p.outer; ++o) {
          for (std::int64_t i = 0; i < width; ++i)
            accs[static_cast<std::size_t>(i)] = r.init(o * p.inner + first + i);
          if constexpr (std::is_same_v<R, SumReducer<float>>) {  // the same additions, vectorized per cpu
            add_rows_f32_to_f64(accs.get(), px + o * p.extent * p.inner + first, p.inner, p.extent, width);
          } else {
            for (std::int64_t k = 0; k < p.extent; ++k) {
              const T* row = px + (o * p.extent + k) * p.inner + first;
              for (std::int64_t i = 0; i < width; ++i)
                r.step(accs[static_cast<std::size_t>(i)], load(row[i]));
            }
          }
          for (std::int64_t i = 0; i < width; ++i) {
            po[o * p.inner + first + i] = r.finish(accs[static_cast<std::size_t>(i)], count);
          }
        }
      },
      work >= kParallelMin ? std::int64_t{0} : std::numeric_limits<std::int64_t>::max(), column_grain,
      work >= kParallelMin * 16 ? std::int64_t{0} : std::numeric_limits<std::int64_t>::max());
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
    const std::int64_t blocks_end = n - n % 8;  // the eight partial sums take p[8 .. blocks_end)
    std::int64_t i = 8;
    for (; i < blocks_end; i += 8) {
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

// serial(p, n) (pairwise_sum over p[0, n), or a kernel with its bits), bit for bit, with the 16 subtrees four
// levels down summed on the host threads and then added in the tree's order. From kPairwiseParallelMin
// elements (below, or inside another parallel loop, it is serial(p, n)): every node above that level then has
// more than 128 elements, so pairwise_sum splits each in halves exactly as here. Sleeping workers are woken
// from 16 times that.
inline constexpr std::int64_t kPairwiseParallelMin = kParallelMin;
template <class Acc, class T, class Serial>
Acc pairwise_sum_tree(const T* p, std::int64_t n, Serial serial) {
  constexpr int kLeaves = 16;
  if (n < kPairwiseParallelMin || host_threads() <= 1 || in_parallel_chunk()) return serial(p, n);
  std::array<std::int64_t, kLeaves + 1> bounds{};  // leaf i is [bounds[i], bounds[i + 1])
  bounds[kLeaves] = n;
  for (int step = kLeaves; step > 1; step /= 2) {  // split every node of the level into pairwise_sum's halves
    for (int i = 0; i < kLeaves; i += step) {
      std::int64_t half_n =
          (bounds[static_cast<std::size_t>(i + step)] - bounds[static_cast<std::size_t>(i)]) / 2;
      half_n -= half_n % 8;
      bounds[static_cast<std::size_t>(i + step / 2)] = bounds[static_cast<std::size_t>(i)] + half_n;
    }
  }
  std::array<Acc, kLeaves> sums{};
  parallel_for(
      kLeaves,
      [&](std::int64_t first, std::int64_t last) {
        for (std::int64_t i = first; i < last; ++i) {
          const auto b = static_cast<std::size_t>(i);
          sums[b] = serial(p + bounds[b], bounds[b + 1] - bounds[b]);
        }
      },
      0, 1, n >= kPairwiseParallelMin * 16 ? 0 : std::numeric_limits<std::int64_t>::max());
  for (int width = kLeaves; width > 1; width /= 2) {  // (0 + 1), (2 + 3), ...: each node's two halves
    for (int i = 0; i < width / 2; ++i) {
      sums[static_cast<std::size_t>(i)] =
          sums[static_cast<std::size_t>(2 * i)] + sums[static_cast<std::size_t>(2 * i + 1)];
    }
  }
  return sums[0];
}

// pairwise_sum(p, n, get), bit for bit, on the host threads (pairwise_sum_tree).
template <class Acc, class T, class Get>
Acc pairwise_sum_parallel(const T* p, std::int64_t n, Get get) {
  return pairwise_sum_tree<Acc>(p, n,
                                [&](const T* q, std::int64_t m) { return pairwise_sum<Acc>(q, m, get); });
}

// pairwise_sum<double>(p, n, widen) of float32, bit for bit, by the vector kernel (pairwise_sums_f32) on the
// host threads.
inline double pairwise_sum_f32(const float* p, std::int64_t n) {
  return pairwise_sum_tree<double>(p, n, [](const float* q, std::int64_t m) {
    double s = 0;
    pairwise_sums_f32(q, 1, m, &s);
    return s;
  });
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
    if constexpr (std::is_same_v<T, float>) {
      acc = pairwise_sum_f32(p, n);
    } else {
      acc = pairwise_sum_parallel<A>(p, n, [](T v) { return static_cast<A>(load(v)); });
    }
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
    if constexpr (std::is_same_v<T, float>) {
      acc = pairwise_sum_f32(p, n);
    } else {
      acc = pairwise_sum_parallel<double>(p, n, [](T v) { return static_cast<double>(load(v)); });
    }
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

template <bool All>
struct TruthReducer {
  bool init(std::int64_t) const { return All; }
  void step(bool& acc, bool v) const { acc = All ? (acc && v) : (acc || v); }
  bool finish(bool acc, std::int64_t) const { return acc; }
};

}  // namespace ember::host
