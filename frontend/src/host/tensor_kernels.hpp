// Op-level kernels of the tensor category (creation, layout changes, indexing, sorting) and of the
// solver category's diagonal ops, shared by every host backend. Layout ops move elements as opaque words of
// the dtype's width, so one strided loop serves every dtype and the bytes are identical on every backend.
// Backend-agnostic: no backend library header may be included here.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ember/backend/tensor_ops.hpp"
#include "ember/dtype.hpp"
#include "ember/error.hpp"
#include "ember/scalar.hpp"
#include "ember/shape.hpp"
#include "ember/tensor.hpp"
#include "host/loops.hpp"
#include "host/scalar_semantics.hpp"
#include "host/sort_kernels.hpp"
#include "host/strided_index.hpp"
#include "host/vector_kernels.hpp"

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

namespace ember::host {

// Calls f(W{}) with W an unsigned integer as wide as one element.
template <class F>
void visit_width(std::size_t itemsize, F&& f) {
  switch (itemsize) {
    case 1:
      f(std::uint8_t{});
      return;
    case 2:
      f(std::uint16_t{});
      return;
    case 4:
      f(std::uint32_t{});
      return;
    default:
      f(std::uint64_t{});
      return;
  }
}

// The transpose case of strided_copy: the two innermost output axes read the source with strides
// (row_stride 1, col_stride far), so the copy runs in kTransposeTile-square tiles whose source lines stay in
// cache, instead of one cache miss per element; a large output (non-temporal stores) in tiles of
// kTransposeBand rows by kTransposeTile columns. A thread takes whole bands of a tile's rows.
inline constexpr std::int64_t kTransposeTile = 32;
inline constexpr std::int64_t kTransposeBand = 64;

#if defined(__x86_64__)
// The 4 x 4 block of a transpose of 4-byte words at out rows i.., columns j..: source row j + k holds out
// column j + k, four words of it from s + k * col_stride; SSE2's integer unpacks move the words (bits, no
// arithmetic) into the four out rows from d, cols apart. A word a load and a store, where the scalar loop's
// strided loads went one at a time: on an AMD EPYC a 4096 x 4096 float32 transpose took 2.4 times less.
inline void transpose_4x4_words(const std::uint32_t* s, std::int64_t col_stride, std::uint32_t* d,
                                std::int64_t cols) {
  const auto row = [&](std::int64_t k) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + k * col_stride));
  };
  const __m128i r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3);
  const __m128i t0 = _mm_unpacklo_epi32(r0, r1), t1 = _mm_unpacklo_epi32(r2, r3);
  const __m128i t2 = _mm_unpackhi_epi32(r0, r1), t3 = _mm_unpackhi_epi32(r2, r3);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(d), _mm_unpacklo_epi64(t0, t1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(d + cols), _mm_unpackhi_epi64(t0, t1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 2 * cols), _mm_unpacklo_epi64(t2, t3));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(d + 3 * cols), _mm_unpackhi_epi64(t2, t3));
}

// One whole tile of a large transpose of 4-byte words (kTransposeBand out rows from d, kTransposeTile out
// columns, a unit row stride), written with non-temporal stores. The source is read four source rows at a
// time, each over the tile's whole band (a source row's kTransposeBand words: four lines, all used before
// the next four rows), which keeps the few lines in use in L1 however the source's stride maps them to cache
// sets (4096 floats: every row in the same set; blocks taken row of blocks by row of blocks read each line
// from L2 four times); with `prefetch`, the same rows of the next tile are asked for while this one moves.
// The tile is transposed into a buffer in L1 and each out row's kTransposeTile words (two lines) leave it
// with non-temporal stores. The caller calls stream_fence() after its last tile.
inline void transpose_tile_words_streamed(const std::uint32_t* s, std::int64_t col_stride, std::uint32_t* d,
                                          std::int64_t cols, bool prefetch) {
  constexpr std::int64_t kB = kTransposeBand, kT = kTransposeTile;
  alignas(64) std::uint32_t buf[kB * kT];
  for (std::int64_t j = 0; j < kT; j += 4) {
    if (prefetch) {
      for (std::int64_t k = 0; k < 4; ++k) {
        const char* next = reinterpret_cast<const char*>(s + (kT + j + k) * col_stride);
        for (std::int64_t at = 0; at < kB * 4; at += 64) _mm_prefetch(next + at, _MM_HINT_T0);
        _mm_prefetch(next + kB * 4 - 1, _MM_HINT_T0);  // the row's last line when it starts mid-line
      }
    }
    for (std::int64_t i = 0; i < kB; i += 4)
      transpose_4x4_words(s + i + j * col_stride, col_stride, buf + i * kT + j, kT);
  }
  for (std::int64_t i = 0; i < kB; ++i) {
    std::uint32_t* row = d + i * cols;
    if (reinterpret_cast<std::uintptr_t>(row) % 16 == 0) {
      for (std::int64_t j = 0; j < kT; j += 4) {
        _mm_stream_si128(reinterpret_cast<__m128i*>(row + j),
                         _mm_load_si128(reinterpret_cast<const __m128i*>(buf + i * kT + j)));
      }
    } else {
      stream_copy(row, buf + i * kT, kT * 4, false);
    }
  }
}
#endif

// The bands of `band` out rows (kTransposeTile, or kTransposeBand when `stream`) from row_first to row_last,
// a band's columns in tiles of kTransposeTile. With a unit row stride (a transpose) of 4-byte words on
// x86-64: when `stream`, whole tiles by transpose_tile_words_streamed; other tiles by 4 x 4 blocks, and the
// rest of a tile, and other widths, element by element with ordinary stores. The caller calls stream_fence()
// after the last band it streamed.
template <class W>
void blocked_copy_2d_bands(const W* src, std::int64_t off, std::int64_t cols, std::int64_t row_stride,
                           std::int64_t col_stride, W* dst, std::int64_t row_first, std::int64_t row_last,
                           std::int64_t band, [[maybe_unused]] bool stream) {
  for (std::int64_t i0 = row_first; i0 < row_last; i0 += band) {
    const std::int64_t i1 = std::min(row_last, i0 + band);
    for (std::int64_t j0 = 0; j0 < cols; j0 += kTransposeTile) {
      const std::int64_t j1 = std::min(cols, j0 + kTransposeTile);
      std::int64_t i = i0;
#if defined(__x86_64__)
      if constexpr (sizeof(W) == 4) {
        if (stream && row_stride == 1 && i1 - i0 == kTransposeBand && j1 - j0 == kTransposeTile) {
          transpose_tile_words_streamed(
              reinterpret_cast<const std::uint32_t*>(src + off + i0 + j0 * col_stride), col_stride,
              reinterpret_cast<std::uint32_t*>(dst + i0 * cols + j0), cols, j0 + 2 * kTransposeTile <= cols);
          continue;
        }
        if (row_stride == 1 && (j1 - j0) % 4 == 0) {
          for (; i + 4 <= i1; i += 4) {
            for (std::int64_t j = j0; j < j1; j += 4) {
              transpose_4x4_words(reinterpret_cast<const std::uint32_t*>(src + off + i + j * col_stride),
                                  col_stride, reinterpret_cast<std::uint32_t*>(dst + i * cols + j), cols);
            }
          }
        }
      }
#endif
      for (; i < i1; ++i) {
        const W* s = src + off + i * row_stride;
        W* d = dst + i * cols;
        for (std::int64_t j = j0; j < j1; ++j) d[j] = s[j * col_stride];
      }
    }
  }
}

// Bands of out rows (blocked_copy_2d_bands) split over the host threads from kParallelMin elements (each
// element is copied by one thread: the split never changes a result); with `stream`, whole tiles of 4-byte
// words are written with non-temporal stores.
template <class W>
void blocked_copy_2d(const W* src, std::int64_t off, std::int64_t rows, std::int64_t cols,
                     std::int64_t row_stride, std::int64_t col_stride, W* dst, bool stream) {
  const std::int64_t band = stream ? kTransposeBand : kTransposeTile;
  const std::int64_t bands = (rows + band - 1) / band;
  parallel_for(
      bands,
      [&](std::int64_t first, std::int64_t last) {
        blocked_copy_2d_bands(src, off, cols, row_stride, col_stride, dst, first * band,
                              std::min(rows, last * band), band, stream);
        if (stream) stream_fence();
      },
      (kParallelMin + band * cols - 1) / (band * cols), 1);
}

// out[i0, i1, ...] = src[base + sum(i_d * strides[d])] for every index of out_shape (strides may be 0 or
// negative). The innermost axis runs as a tight loop, or the two innermost as tiles when they are
// transposed. Rows of a large output (stream_stores of its bytes and of the lines its rows read) are
// written with non-temporal stores.
template <class W>
void strided_copy(const W* src, std::int64_t base, const Shape& strides, const Shape& out_shape, W* dst) {
  const std::int64_t n = shape_numel(out_shape);
  if (n == 0) return;
  const std::size_t nd = out_shape.size();
  if (nd == 0) {
    dst[0] = src[base];
    return;
  }
  const std::int64_t inner = out_shape[nd - 1], inner_stride = strides[nd - 1];
  if (nd >= 2 && strides[nd - 2] == 1 && (inner_stride > kTransposeTile || inner_stride < -kTransposeTile) &&
      inner >= kTransposeTile && out_shape[nd - 2] >= kTransposeTile) {
    const std::int64_t rows = out_shape[nd - 2], plane = rows * inner;
    // A large output, which also reads as many bytes, is written with non-temporal stores.
    const auto bytes = n * static_cast<std::int64_t>(sizeof(W));
    const bool stream = stream_stores(bytes, bytes);
    std::vector<std::int64_t> idx(nd - 2, 0);
    std::int64_t off = base;
    for (std::int64_t o = 0; o < n; o += plane) {
      blocked_copy_2d(src, off, rows, inner, strides[nd - 2], inner_stride, dst + o, stream);
      next_index(idx, off, nd - 2, out_shape, strides);
    }
    return;
  }
  // Rows of `inner` elements, large inputs split over threads by rows; steps of 1 and 2 (slices, [::2]) as
  // loops with a constant step, which the compiler vectorizes.
  const std::int64_t rows = n / inner;
  const auto item = static_cast<std::int64_t>(sizeof(W));
  // The bytes the rows read: their whole span, up to a line an element.
  const std::int64_t span = std::min(std::abs(inner_stride) * item, std::int64_t{64}) * inner;
  const bool stream = stream_stores(n * item, rows * span);
  const auto copy_row = [&](const W* from, W* to) {
    if (inner_stride == 1) {
      if (stream) {
        stream_copy(to, from, inner * item, false);
      } else {
        std::memcpy(to, from, static_cast<std::size_t>(inner) * sizeof(W));
      }
      return;
    }
    const auto fill = [&](W* part, std::int64_t first, std::int64_t len) {
      const W* f = from + first * inner_stride;
      if (inner_stride == 2) {
        for (std::int64_t j = 0; j < len; ++j) part[j] = f[2 * j];
      } else {
        for (std::int64_t j = 0; j < len; ++j) part[j] = f[j * inner_stride];
      }
    };
    // A row that does not stream is filled in place: write_streamed's piece buffer and its calls cost a
    // small transpose (32 x 32, one row of 32 a call) a third of its time.
    if (stream)
      write_streamed(to, inner, true, fill);
    else
      fill(to, 0, inner);
  };
  parallel_for(
      rows,
      [&](std::int64_t first, std::int64_t last) {
        std::vector<std::int64_t> idx(nd, 0);  // the index of row `first`, and its offset
        std::int64_t off = base;
        for (std::int64_t r = first, d = static_cast<std::int64_t>(nd) - 2; d >= 0; --d) {
          const auto a = static_cast<std::size_t>(d);
          idx[a] = r % out_shape[a];
          r /= out_shape[a];
          off += idx[a] * strides[a];
        }
        for (std::int64_t row = first; row < last; ++row) {
          copy_row(src + off, dst + row * inner);
          next_index(idx, off, nd - 1, out_shape, strides);
        }
        if (stream) stream_fence();
      },
      (kParallelMin * 4 + inner - 1) / inner, 16);
}

inline void strided_copy_bytes(const Tensor& x, std::int64_t base, const Shape& strides,
                               const Shape& out_shape, Tensor& out) {
  visit_width(x.itemsize(), [&](auto w) {
    using W = decltype(w);
    strided_copy(x.data<const W>(), base, strides, out_shape, out.data<W>());
  });
}

// Reads every index once before anything is written; IndexError names the first bad one.
inline std::vector<std::int64_t> checked_indices(const char* op, const Tensor& indices, std::int64_t extent,
                                                 int axis) {
  const std::int64_t* p = indices.data<const std::int64_t>();
  std::vector<std::int64_t> result(static_cast<std::size_t>(indices.size()));
  for (std::int64_t i = 0; i < indices.size(); ++i) {
    const std::int64_t v = p[i];
    if (v < -extent || v >= extent) {
      throw IndexError(std::string(op) + ": index " + std::to_string(v) + " is out of bounds for axis " +
                       std::to_string(axis) + " with size " + std::to_string(extent));
    }
    result[static_cast<std::size_t>(i)] = v < 0 ? v + extent : v;
  }
  return result;
}

// For each axis, the source index of every output position of a padded axis (-1 = the constant).
inline std::vector<std::int64_t> pad_index_map(std::int64_t n, std::int64_t before, std::int64_t after,
                                               PadMode mode) {
  std::vector<std::int64_t> map(static_cast<std::size_t>(before + n + after));
  for (std::int64_t o = 0; o < before + n + after; ++o) {
    std::int64_t i = o - before;
    if (i < 0 || i >= n) {
      if (mode == PadMode::constant) {
        i = -1;
      } else if (mode == PadMode::edge) {
        i = i < 0 ? 0 : n - 1;
      } else {  // reflect about the edge elements, period 2(n-1)
        const std::int64_t period = 2 * (n - 1);
        i %= period;
        if (i < 0) i += period;
        if (i >= n) i = period - i;
      }
    }
    map[static_cast<std::size_t>(o)] = i;
  }
  return map;
}

// ---- creation --------------------------------------------------------------------------------------------

inline void full(Tensor& out, Scalar value) {
  visit_dtype(out.dtype(), [&](auto t) {
    using T = decltype(t);
    std::fill_n(out.data<T>(), out.size(), value.to<T>());
  });
}

inline void eye(Tensor& out, std::int64_t k) {
  visit_dtype(out.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t n = out.shape()[0], m = out.shape()[1];
    T* p = out.data<T>();
    std::fill_n(p, out.size(), store<T>(0));
    for (std::int64_t i = std::max<std::int64_t>(0, -k); i < n && i + k < m; ++i)
      p[i * m + i + k] = store<T>(1);
  });
}

inline void arange(Tensor& out, double start, double step) {
  visit_dtype(out.dtype(), [&](auto t) {
    using T = decltype(t);
    T* p = out.data<T>();
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      const auto s = static_cast<std::uint64_t>(Scalar::saturate<std::int64_t>(start));
      const auto d = static_cast<std::uint64_t>(Scalar::saturate<std::int64_t>(step));
      for (std::int64_t i = 0; i < out.size(); ++i) {
        p[i] = static_cast<T>(static_cast<std::int64_t>(s + static_cast<std::uint64_t>(i) * d));
      }
    } else {
      for (std::int64_t i = 0; i < out.size(); ++i)
        p[i] = Scalar(start + static_cast<double>(i) * step).to<T>();
    }
  });
}

inline void linspace(Tensor& out, double start, double stop, bool endpoint) {
  const std::int64_t n = out.size();
  const std::int64_t div = endpoint ? n - 1 : n;
  const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
  visit_dtype(out.dtype(), [&](auto t) {
    using T = decltype(t);
    T* p = out.data<T>();
    for (std::int64_t i = 0; i < n; ++i) {
      double v = (endpoint && i == n - 1 && n > 1) ? stop : static_cast<double>(i) * step + start;
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) v = std::floor(v);  // NumPy floors
      p[i] = Scalar(v).to<T>();
    }
  });
}

// out = x byte for byte (same shape and dtype); also from_data, to_host and to_device on the host.
inline void copy_bytes(const void* src, void* dst, std::size_t nbytes) {
  if (nbytes != 0) std::memcpy(dst, src, nbytes);
}

// ---- layout ----------------------------------------------------------------------------------------------

inline void transpose(const Tensor& x, const std::vector<int>& perm, Tensor& out) {
  const Shape xs = contiguous_strides(x.shape());
  Shape strides(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) strides[i] = xs[static_cast<std::size_t>(perm[i])];
  strided_copy_bytes(x, 0, strides, out.shape(), out);
}

inline void broadcast_to(const Tensor& x, Tensor& out) {
  strided_copy_bytes(x, 0, broadcast_strides(x.shape(), out.shape()), out.shape(), out);
}

// memcpy of nbytes, split over the host threads from kParallelCopyMin bytes (a copy of 256 KiB takes about
// 10 us on one core; sleeping workers are woken from 16 times that); with `stream`, by stream_copy.
inline constexpr std::int64_t kParallelCopyMin = kParallelMin * 4;
inline void parallel_copy_bytes(void* dst, const void* src, std::size_t nbytes, bool stream) {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  parallel_for(
      static_cast<std::int64_t>(nbytes),
      [&](std::int64_t begin, std::int64_t end) {
        if (stream) {
          stream_copy(d + begin, s + begin, end - begin);
        } else {
          std::memcpy(d + begin, s + begin, static_cast<std::size_t>(end - begin));
        }
      },
      kParallelCopyMin, 4096);
}

// Each input's block of every outer index is one memcpy; along the first axis (one outer index) each input is
// one copy split over the threads, otherwise the outer indices are. A large output (stream_stores) is
// written with non-temporal stores (stream_copy): glibc's memcpy of a few MiB uses ordinary ones.
inline void concatenate(const std::vector<Tensor>& xs, int axis, Tensor& out) {
  const AxisLayout ol = axis_layout(out.shape(), axis);
  const std::size_t item = out.itemsize();
  auto* dst = static_cast<unsigned char*>(out.raw_data());
  const bool stream = stream_stores(static_cast<std::int64_t>(out.nbytes()));
  std::int64_t at = 0;  // position along axis where the current input starts
  for (const Tensor& x : xs) {
    const AxisLayout xl = axis_layout(x.shape(), axis);
    const auto block = static_cast<std::size_t>(xl.extent * xl.inner) * item;
    const auto* src = static_cast<const unsigned char*>(x.raw_data());
    if (block != 0 && ol.outer == 1) {
      parallel_copy_bytes(dst + static_cast<std::size_t>(at * ol.inner) * item, src, block, stream);
    } else if (block != 0) {
      parallel_for(
          ol.outer,
          [&](std::int64_t first, std::int64_t last) {
            for (std::int64_t o = first; o < last; ++o) {
              unsigned char* to = dst + static_cast<std::size_t>((o * ol.extent + at) * ol.inner) * item;
              const unsigned char* from = src + static_cast<std::size_t>(o) * block;
              if (stream) {
                stream_copy(to, from, static_cast<std::int64_t>(block), false);
              } else {
                std::memcpy(to, from, block);
              }
            }
            if (stream) stream_fence();
          },
          static_cast<std::int64_t>((static_cast<std::size_t>(kParallelCopyMin) + block - 1) / block), 1);
    }
    at += xl.extent;
  }
}

inline void tile(const Tensor& x, Tensor& out) {
  // out seen as (r0, s0, r1, s1, ...): the repeat axes have stride 0 in x.
  const Shape xs = contiguous_strides(x.shape());
  Shape split_shape, strides;
  for (std::size_t d = 0; d < x.shape().size(); ++d) {
    const std::int64_t s = x.shape()[d];
    split_shape.push_back(s == 0 ? 0 : out.shape()[d] / s);
    split_shape.push_back(s);
    strides.push_back(0);
    strides.push_back(xs[d]);
  }
  strided_copy_bytes(x, 0, strides, split_shape, out);
}

inline void pad(const Tensor& x, const std::vector<std::pair<std::int64_t, std::int64_t>>& pads, PadMode mode,
                Scalar value, Tensor& out) {
  const std::size_t nd = x.shape().size();
  const std::int64_t n = out.size();
  if (n == 0) return;
  std::vector<std::vector<std::int64_t>> maps(nd);
  for (std::size_t d = 0; d < nd; ++d)
    maps[d] = pad_index_map(x.shape()[d], pads[d].first, pads[d].second, mode);
  const Shape xs = contiguous_strides(x.shape());
  visit_dtype(x.dtype(), [&](auto t) {
    using T = decltype(t);
    const T* src = x.data<const T>();
    T* dst = out.data<T>();
    const T fill = value.to<T>();
    std::vector<std::int64_t> idx(nd, 0);
    for (std::int64_t o = 0; o < n; ++o) {
      std::int64_t off = 0;
      bool inside = true;
      for (std::size_t d = 0; d < nd && inside; ++d) {
        const std::int64_t i = maps[d][static_cast<std::size_t>(idx[d])];
        inside = i >= 0;
        off += i * xs[d];
      }
      dst[o] = inside ? src[off] : fill;
      for (std::size_t d = nd; d-- > 0;) {
        if (++idx[d] < out.shape()[d]) break;
        idx[d] = 0;
      }
    }
  });
}

inline void slice(const Tensor& x, const std::vector<std::int64_t>& starts,
                  const std::vector<std::int64_t>& steps, Tensor& out) {
  const Shape xs = contiguous_strides(x.shape());
  Shape strides(xs.size());
  std::int64_t base = 0;
  for (std::size_t d = 0; d < xs.size(); ++d) {
    strides[d] = xs[d] * steps[d];
    if (out.shape()[d] > 0) base += starts[d] * xs[d];
  }
  strided_copy_bytes(x, base, strides, out.shape(), out);
}

inline void flip(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  Shape strides = contiguous_strides(x.shape());
  std::int64_t base = 0;
  for (int a : axes) {
    const auto d = static_cast<std::size_t>(a);
    if (x.shape()[d] > 0) base += (x.shape()[d] - 1) * strides[d];
    strides[d] = -strides[d];
  }
  strided_copy_bytes(x, base, strides, out.shape(), out);
}

// ---- indexing --------------------------------------------------------------------------------------------

inline void gather(const Tensor& x, const Tensor& indices, int axis, Tensor& out) {
  const AxisLayout l = axis_layout(x.shape(), axis);
  const auto idx = checked_indices("gather", indices, l.extent, axis);
  const std::size_t item = x.itemsize();
  const auto block = static_cast<std::size_t>(l.inner) * item;
  if (block == 0) return;
  const auto* src = static_cast<const unsigned char*>(x.raw_data());
  auto* dst = static_cast<unsigned char*>(out.raw_data());
  const std::size_t m = idx.size();
  for (std::int64_t o = 0; o < l.outer; ++o) {
    for (std::size_t j = 0; j < m; ++j) {
      std::memcpy(dst + (static_cast<std::size_t>(o) * m + j) * block,
                  src + static_cast<std::size_t>(o * l.extent + idx[j]) * block, block);
    }
  }
}

inline void scatter_add(const Tensor& x, const Tensor& indices, const Tensor& updates, int axis,
                        Tensor& out) {
  const AxisLayout l = axis_layout(x.shape(), axis);
  const auto idx = checked_indices("scatter_add", indices, l.extent, axis);
  copy_bytes(x.raw_data(), out.raw_data(), x.nbytes());
  const std::size_t m = idx.size();
  visit_dtype(x.dtype(), [&](auto t) {
    using T = decltype(t);
    const T* u = updates.data<const T>();
    T* p = out.data<T>();
    for (std::int64_t o = 0; o < l.outer; ++o) {
      for (std::size_t j = 0; j < m; ++j) {
        T* row = p + (o * l.extent + idx[j]) * l.inner;
        const T* urow = u + (o * static_cast<std::int64_t>(m) + static_cast<std::int64_t>(j)) * l.inner;
        for (std::int64_t i = 0; i < l.inner; ++i) row[i] = wrapping_add(row[i], urow[i]);
      }
    }
  });
}

// ---- sorting ---------------------------------------------------------------------------------------------

// Calls emit(line_offset, inner_stride, order) for every 1-d line along axis, with `order` the stable
// sorting permutation of that line (NaN after everything ascending, before everything descending).
template <class T, class Emit>
void sorted_lines(const Tensor& x, int axis, bool descending, Emit&& emit) {
  const AxisLayout l = axis_layout(x.shape(), axis);
  const T* p = x.data<const T>();
  std::vector<compute_t<T>> line(static_cast<std::size_t>(l.extent));
  std::vector<std::int64_t> order(line.size());
  auto before = [&](std::int64_t a, std::int64_t b) {
    const auto va = line[static_cast<std::size_t>(a)], vb = line[static_cast<std::size_t>(b)];
    const bool na = is_nan(va), nb = is_nan(vb);
    if (na || nb) return descending ? (na && !nb) : (!na && nb);
    return descending ? vb < va : va < vb;
  };
  for (std::int64_t o = 0; o < l.outer; ++o) {
    for (std::int64_t i = 0; i < l.inner; ++i) {
      const std::int64_t base = o * l.extent * l.inner + i;
      for (std::int64_t k = 0; k < l.extent; ++k)
        line[static_cast<std::size_t>(k)] = load(p[base + k * l.inner]);
      std::iota(order.begin(), order.end(), std::int64_t{0});
      std::stable_sort(order.begin(), order.end(), before);
      emit(base, l.inner, order);
    }
  }
}

// Lines at least this long are radix sorted; shorter ones go through the comparison sort above.
inline constexpr std::int64_t kRadixSortMin = 64;

// An unsigned key whose order is the sort order: ascending with NaN last, or descending with NaN first.
// -0 and +0 get one key, and so do all NaNs, so that a stable sort keeps them in input order exactly as the
// stable comparison sort does.
template <class T>
using sort_key_t =
    std::conditional_t<sizeof(T) == 1, std::uint8_t,
                       std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                          std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;

template <class T>
sort_key_t<T> sort_key(T v, bool descending) {
  using K = sort_key_t<T>;
  constexpr K sign = K(K{1} << (sizeof(K) * 8 - 1));
  K key;
  if constexpr (std::is_same_v<T, bool>) {
    key = v ? 1 : 0;
  } else if constexpr (std::is_integral_v<T>) {
    key = std::is_signed_v<T> ? K(K(v) ^ sign) : K(v);
  } else {
    K bits;
    if constexpr (std::is_same_v<T, half>) {
      bits = v.bits;
    } else {
      std::memcpy(&bits, &v, sizeof bits);
    }
    const K magnitude = K(bits & K(~sign));
    constexpr K inf_bits = std::is_same_v<T, half>    ? K(0x7c00u)
                           : std::is_same_v<T, float> ? K(0x7f800000u)
                                                      : K(0x7ff0000000000000ull);
    if (magnitude > inf_bits) return descending ? K(0) : K(~K(0));  // NaN
    if (magnitude == 0) bits = 0;                                   // -0 sorts as +0
    key = (bits & sign) ? K(~bits) : K(bits | sign);
  }
  return descending ? K(~key) : key;
}

// Whether v's sort key stands for v alone: true but for -0 (keyed as +0) and NaN (one key for all NaNs).
template <class T>
bool sort_key_is_exact(T v) {
  if constexpr (std::is_same_v<T, bool> || std::is_integral_v<T>) {
    return true;
  } else {
    using K = sort_key_t<T>;
    constexpr K sign = K(K{1} << (sizeof(K) * 8 - 1));
    K bits;
    if constexpr (std::is_same_v<T, half>) {
      bits = v.bits;
    } else {
      std::memcpy(&bits, &v, sizeof bits);
    }
    constexpr K inf_bits = std::is_same_v<T, half>    ? K(0x7c00u)
                           : std::is_same_v<T, float> ? K(0x7f800000u)
                                                      : K(0x7ff0000000000000ull);
    return bits != sign && K(bits & K(~sign)) <= inf_bits;
  }
}

// The value whose sort key is `key`, for keys of values where sort_key_is_exact holds.
template <class T>
T from_sort_key(sort_key_t<T> key, bool descending) {
  using K = sort_key_t<T>;
  constexpr K sign = K(K{1} << (sizeof(K) * 8 - 1));
  if (descending) key = K(~key);
  if constexpr (std::is_same_v<T, bool>) {
    return key != 0;
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(std::is_signed_v<T> ? K(key ^ sign) : key);
  } else {
    const K bits = (key & sign) ? K(key & K(~sign)) : K(~key);
    T v;
    if constexpr (std::is_same_v<T, half>) {
      v.bits = bits;
    } else {
      std::memcpy(&v, &bits, sizeof v);
    }
    return v;
  }
}

template <class K, class P>
struct Keyed {
  K key;
  P payload;
};

// Stable LSD radix sort of items on key_of(item), kDigit bits per pass; passes where every key has the same
// digit are skipped. A stable sort has one result, so the digit width changes the time, never the order.
template <int kDigit, class I, class KeyOf>
void radix_sort_digits(std::vector<I>& items, std::vector<I>& scratch, KeyOf key_of) {
  using K = std::decay_t<decltype(key_of(items[0]))>;
  constexpr int kPasses = (static_cast<int>(sizeof(K)) * 8 + kDigit - 1) / kDigit;
  constexpr std::size_t kBuckets = std::size_t{1} << kDigit;
  const std::size_t n = items.size();
  if (n == 0) return;
  const auto digit = [&](const I& it, int pass) {
    return static_cast<std::size_t>(key_of(it) >> (kDigit * pass)) & (kBuckets - 1);
  };
  std::vector<std::size_t> counts(static_cast<std::size_t>(kPasses) * kBuckets, 0);
  for (const auto& it : items) {
    for (int pass = 0; pass < kPasses; ++pass)
      ++counts[static_cast<std::size_t>(pass) * kBuckets + digit(it, pass)];
  }
  scratch.resize(n);
  for (int pass = 0; pass < kPasses; ++pass) {
    std::size_t* c = counts.data() + static_cast<std::size_t>(pass) * kBuckets;
    if (c[digit(items[0], pass)] == n) continue;
    std::size_t sum = 0;
    for (std::size_t d = 0; d < kBuckets; ++d) {
      const std::size_t t = c[d];
      c[d] = sum;
      sum += t;
    }
    for (const auto& it : items) scratch[c[digit(it, pass)]++] = it;
    items.swap(scratch);
  }
}

// Lines at least this long sort keys of 32 or 64 bits 11 bits per pass (3 passes for float32 instead of 4);
// shorter ones 8 bits per pass, whose 256 buckets cost less to clear and sum.
inline constexpr std::size_t kRadixWideDigitMin = 8192;

template <class I, class KeyOf>
void radix_sort(std::vector<I>& items, std::vector<I>& scratch, KeyOf key_of) {
  using K = std::decay_t<decltype(key_of(items[0]))>;
  if constexpr (sizeof(K) >= 4) {
    if (items.size() >= kRadixWideDigitMin) {
      radix_sort_digits<11>(items, scratch, key_of);
      return;
    }
  }
  radix_sort_digits<8>(items, scratch, key_of);
}

// Calls emit(line_offset, inner_stride, items) for every 1-d line along axis, items holding (key, payload of
// element k) in stable sorted order; payload(offset) gives an element's payload.
template <class T, class P, class Payload, class Emit>
void radix_sorted_lines(const Tensor& x, int axis, bool descending, Payload&& payload, Emit&& emit) {
  const AxisLayout l = axis_layout(x.shape(), axis);
  const T* p = x.data<const T>();
  std::vector<Keyed<sort_key_t<T>, P>> items(static_cast<std::size_t>(l.extent)), scratch;
  for (std::int64_t o = 0; o < l.outer; ++o) {
    for (std::int64_t i = 0; i < l.inner; ++i) {
      const std::int64_t base = o * l.extent * l.inner + i;
      for (std::int64_t k = 0; k < l.extent; ++k) {
        items[static_cast<std::size_t>(k)] = {sort_key(p[base + k * l.inner], descending), payload(base, k)};
      }
      radix_sort(items, scratch, [](const auto& it) { return it.key; });
      emit(base, l.inner, items);
    }
  }
}

inline void sort(const Tensor& x, int axis, bool descending, Tensor& out) {
  visit_dtype(x.dtype(), [&](auto t) {
    using T = decltype(t);
    const T* src = x.data<const T>();
    T* dst = out.data<T>();
    const AxisLayout l = axis_layout(x.shape(), axis);
    // Contiguous lines of float32 and int32 go to the vectorized sort of host/sort_kernels.hpp first, which
    // takes every line whose keys each stand for one value (the same bytes as the sorts below).
    constexpr bool kKey32 = std::is_same_v<T, float> || std::is_same_v<T, std::int32_t>;
    const bool vector_sort = kKey32 && l.inner == 1 && simd_level() == SimdLevel::avx512;
    if (l.extent >= kRadixSortMin || vector_sort) {
      // A line whose keys each stand for one value (no -0, no NaN) sorts its keys alone and turns them back
      // into values: half the bytes of (key, value) pairs move per pass. Equal keys are then equal values, so
      // the order among them is invisible. Other lines sort (key, value) pairs, stably.
      using K = sort_key_t<T>;
      std::vector<K> keys, key_scratch;
      std::vector<Keyed<K, T>> items, scratch;
      for (std::int64_t o = 0; o < l.outer; ++o) {
        for (std::int64_t i = 0; i < l.inner; ++i) {
          const std::int64_t base = o * l.extent * l.inner + i;
          if (vector_sort && sort_exact_32(std::is_same_v<T, float> ? Key32::float32 : Key32::int32,
                                           src + base, dst + base, l.extent, descending)) {
            continue;
          }
          keys.resize(static_cast<std::size_t>(l.extent));
          bool exact = true;
          for (std::int64_t k = 0; k < l.extent; ++k) {
            const T v = src[base + k * l.inner];
            keys[static_cast<std::size_t>(k)] = sort_key(v, descending);
            exact = exact && sort_key_is_exact(v);
          }
          if (exact) {
            radix_sort(keys, key_scratch, [](K key) { return key; });
            for (std::int64_t k = 0; k < l.extent; ++k) {
              dst[base + k * l.inner] = from_sort_key<T>(keys[static_cast<std::size_t>(k)], descending);
            }
            continue;
          }
          items.resize(keys.size());
          for (std::int64_t k = 0; k < l.extent; ++k) {
            items[static_cast<std::size_t>(k)] = {keys[static_cast<std::size_t>(k)], src[base + k * l.inner]};
          }
          radix_sort(items, scratch, [](const auto& it) { return it.key; });
          for (std::int64_t k = 0; k < l.extent; ++k)
            dst[base + k * l.inner] = items[static_cast<std::size_t>(k)].payload;
        }
      }
      return;
    }
    sorted_lines<T>(x, axis, descending, [&](std::int64_t base, std::int64_t stride, const auto& order) {
      for (std::size_t k = 0; k < order.size(); ++k) {
        dst[base + static_cast<std::int64_t>(k) * stride] = src[base + order[k] * stride];
      }
    });
  });
}

inline void argsort(const Tensor& x, int axis, bool descending, Tensor& out) {
  visit_dtype(x.dtype(), [&](auto t) {
    using T = decltype(t);
    auto* dst = out.data<std::int64_t>();
    if (x.shape()[static_cast<std::size_t>(axis)] >= kRadixSortMin) {
      radix_sorted_lines<T, std::int64_t>(
          x, axis, descending, [](std::int64_t, std::int64_t k) { return k; },
          [&](std::int64_t base, std::int64_t step, const auto& items) {
            for (std::size_t k = 0; k < items.size(); ++k) {
              dst[base + static_cast<std::int64_t>(k) * step] = items[k].payload;
            }
          });
      return;
    }
    sorted_lines<T>(x, axis, descending, [&](std::int64_t base, std::int64_t stride, const auto& order) {
      for (std::size_t k = 0; k < order.size(); ++k)
        dst[base + static_cast<std::int64_t>(k) * stride] = order[k];
    });
  });
}

// ---- diagonals (solver category) -------------------------------------------------------------------------

// Start (row, col) and length of the offset-th diagonal of an n x m matrix.
struct DiagonalSpan {
  std::int64_t row = 0, col = 0, length = 0;
};
inline DiagonalSpan diagonal_span(std::int64_t n, std::int64_t m, std::int64_t offset) {
  DiagonalSpan d;
  if (offset >= 0) {
    d.col = offset < m ? offset : m;
    d.length = std::max<std::int64_t>(0, std::min(n, m - d.col));
  } else {
    d.row = offset > -n ? -offset : n;
    d.length = std::max<std::int64_t>(0, std::min(n - d.row, m));
  }
  return d;
}

inline void diag(const Tensor& x, std::int64_t k, Tensor& out) {
  visit_dtype(x.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t n = x.shape()[0], size = out.shape()[0];
    const T* p = x.data<const T>();
    T* o = out.data<T>();
    std::fill_n(o, out.size(), store<T>(0));
    const std::int64_t row = k < 0 ? -k : 0, col = k > 0 ? k : 0;
    for (std::int64_t i = 0; i < n; ++i) o[(row + i) * size + col + i] = p[i];
  });
}

inline void diagonal(const Tensor& x, std::int64_t offset, Tensor& out) {
  visit_dtype(x.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t n = x.shape()[1], m = x.shape()[2];
    const DiagonalSpan d = diagonal_span(n, m, offset);
    const T* p = x.data<const T>();
    T* o = out.data<T>();
    for (std::int64_t b = 0; b < x.shape()[0]; ++b) {
      for (std::int64_t i = 0; i < d.length; ++i)
        o[b * d.length + i] = p[b * n * m + (d.row + i) * m + d.col + i];
    }
  });
}

inline void trace(const Tensor& x, std::int64_t offset, Tensor& out) {
  visit_dtype(x.dtype(), [&](auto t) {
    using T = decltype(t);
    const std::int64_t n = x.shape()[1], m = x.shape()[2];
    const DiagonalSpan d = diagonal_span(n, m, offset);
    const T* p = x.data<const T>();
    T* o = out.data<T>();
    for (std::int64_t b = 0; b < x.shape()[0]; ++b) {
      if constexpr (std::is_integral_v<T>) {
        T acc = store<T>(0);
        for (std::int64_t i = 0; i < d.length; ++i)
          acc = wrapping_add(acc, p[b * n * m + (d.row + i) * m + d.col + i]);
        o[b] = acc;
      } else {
        compute_t<T> acc = 0;
        for (std::int64_t i = 0; i < d.length; ++i) acc += load(p[b * n * m + (d.row + i) * m + d.col + i]);
        o[b] = store<T>(acc);
      }
    }
  });
}

// out[i, j] = a[i] * b[j] in the storage type (wrapping for integers, rounded once for float16).
template <class T>
void outer_loop(const Tensor& a, const Tensor& b, Tensor& out) {
  const std::int64_t n = a.size(), m = b.size();
  const T* pa = a.data<const T>();
  const T* pb = b.data<const T>();
  T* o = out.data<T>();
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < m; ++j) o[i * m + j] = wrapping_multiply(pa[i], pb[j]);
  }
}

}  // namespace ember::host
