// OpenCL backend, category "tensor": creation, copies, layout changes, indexing and sorting. Element moves
// run the width-generic kernels of kernels/layout.cl (bytes identical to the source, like the eigen
// backend's strided copies); value-producing ops run kernels/tensor.cl and kernels/sort.cl per dtype with
// the eigen backend's element semantics.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "layout.hpp"
#include "opencl_backend.hpp"
#include "runtime.hpp"

namespace ember::opencl {

namespace {

cl_kernel tensor_kernel(DeviceContext& dev, DType dtype, const char* name) {
  return dev.kernel("tensor", dtype_options(dtype), name);
}

bool is_integer(DType d) {
  return d == DType::int8 || d == DType::int16 || d == DType::int32 || d == DType::int64 || d == DType::uint8;
}

// Rows of at least this many bytes are moved by copy commands (clEnqueueCopyBufferRect) rather than by a
// kernel with a division per element.
constexpr std::size_t kMinCopyRowBytes = 256;

// out = x byte for byte (same shape and dtype).
void copy_bytes(Runtime& rt, const char* op, const Tensor& x, Tensor& out) {
  if (x.nbytes() == 0) return;
  DeviceContext& dev = rt.device(out.device(), op);
  check(clEnqueueCopyBuffer(dev.queue(), mem_of(x), mem_of(out), x.byte_offset(), out.byte_offset(),
                            x.nbytes(), 0, nullptr, nullptr),
        "clEnqueueCopyBuffer");
}

// out's shape with the strides it is read under, as at most three axes (layers, rows, columns) for the
// strided_copy_grid kernel: axes of extent 1 dropped, neighbours merged where one stride continues the
// other. Empty when more axes remain or the columns are fewer than kWorkGroupSize / 2.
struct CopyGrid {
  std::int64_t extent[3] = {1, 1, 1}, stride[3] = {0, 0, 0};  // layers, rows, columns
};
std::optional<CopyGrid> copy_grid(const Shape& shape, const Shape& strides) {
  std::vector<std::int64_t> e, s;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (!e.empty() && s.back() == strides[d] * shape[d]) {
      e.back() *= shape[d];
      s.back() = strides[d];
    } else {
      e.push_back(shape[d]);
      s.push_back(strides[d]);
    }
  }
  if (e.size() > 3 || e.empty() || e.back() < static_cast<std::int64_t>(kWorkGroupSize / 2))
    return std::nullopt;
  CopyGrid g;
  const std::size_t pad = 3 - e.size();
  for (std::size_t d = 0; d < e.size(); ++d) {
    g.extent[pad + d] = e[d];
    g.stride[pad + d] = s[d];
  }
  return g;
}

// out[i] = x[base + offset of i under strides] for every element of out.
void strided_copy(Runtime& rt, const char* op, const Tensor& x, std::int64_t base, const Shape& strides,
                  Tensor& out) {
  if (out.size() == 0) return;
  DeviceContext& dev = rt.device(out.device(), op);
  if (const std::optional<CopyGrid> g = copy_grid(out.shape(), strides)) {
    dev.launch_rows(layout_kernel(dev, x.itemsize(), "strided_copy_grid"), g->extent[0], g->extent[1],
                    g->extent[2], arg(x), arg(out), static_cast<cl_long>(g->extent[1]),
                    static_cast<cl_long>(g->stride[0]), static_cast<cl_long>(g->stride[1]),
                    static_cast<cl_long>(g->stride[2]), static_cast<cl_long>(base));
    return;
  }
  dev.launch(layout_kernel(dev, x.itemsize(), "strided_copy"), out.size(), arg(x), arg(out),
             static_cast<cl_int>(out.ndim()), dims_of(op, out.shape()), dims_of(op, strides),
             static_cast<cl_long>(base));
}

// Values computed on the host with Scalar::to semantics and uploaded: on devices without float64, where the
// float64 formula cannot run, arange of float and bool dtypes and linspace of every dtype take this path.
template <class ValueAt>
void upload_host_values(OpenCLBackend& self, Tensor& out, ValueAt value_at) {
  if (out.size() == 0) return;
  std::vector<unsigned char> bytes(out.nbytes());
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    for (std::int64_t i = 0; i < out.size(); ++i) {
      const T v = Scalar(value_at(i)).template to<T>();
      std::memcpy(bytes.data() + static_cast<std::size_t>(i) * sizeof(T), &v, sizeof(T));
    }
  });
  self.from_data(out, bytes.data());
}

// Launches `kernel` of kernels/tensor.cl over out with `args`, followed for integer dtypes by T's limits
// (as doubles and as T) for the saturating float64 -> integer conversion.
template <class... Args>
void launch_values(DeviceContext& dev, const char* kernel, Tensor& out, const Args&... args) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    cl_kernel k = tensor_kernel(dev, out.dtype(), kernel);
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      constexpr T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
      dev.launch(k, out.size(), arg(out), args..., static_cast<cl_double>(lo), static_cast<cl_double>(hi), lo,
                 hi);
    } else {
      dev.launch(k, out.size(), arg(out), args...);
    }
  });
}

// ---- index checks ----------------------------------------------------------------------------------------

// Enqueues the range check of every index against [-extent, extent); read the flag with throw_if_bad.
std::shared_ptr<ClBuffer> check_indices(DeviceContext& dev, const Tensor& indices, std::int64_t extent) {
  auto flag = dev.allocate(sizeof(cl_int));
  const cl_int zero = 0;
  check(
      clEnqueueFillBuffer(dev.queue(), flag->mem(), &zero, sizeof zero, 0, sizeof zero, 0, nullptr, nullptr),
      "clEnqueueFillBuffer");
  dev.launch(layout_kernel(dev, 8, "check_indices"), indices.size(), arg(indices),
             static_cast<cl_long>(extent), flag->mem());
  return flag;
}

// Waits for the flag; when set, throws the eigen backend's IndexError naming the first bad index.
void throw_if_bad(DeviceContext& dev, const ClBuffer& flag, const char* op, const Tensor& indices,
                  std::int64_t extent, int axis) {
  cl_int bad = 0;
  dev.read(flag.mem(), 0, sizeof bad, &bad);
  if (bad == 0) return;
  std::vector<std::int64_t> values(static_cast<std::size_t>(indices.size()));
  dev.read(mem_of(indices), indices.byte_offset(), indices.nbytes(), values.data());
  for (const std::int64_t v : values) {
    if (v < -extent || v >= extent) {
      throw IndexError(std::string(op) + ": index " + std::to_string(v) + " is out of bounds for axis " +
                       std::to_string(axis) + " with size " + std::to_string(extent));
    }
  }
}

// ---- sorting ---------------------------------------------------------------------------------------------

constexpr std::int64_t kSortRun = 32;  // RUN in kernels/sort.cl

// Lines at least this long are radix sorted (sort.cl's radix kernels): the merge sort's last passes merge
// whole lines on one work-item each, while a radix pass splits every line into tiles of at least
// kRadixMinTile elements, at most kRadixMaxTiles of them, and works on all tiles at once. Fewer, longer tiles
// write longer runs per digit (pocl, 2 cores, 1M float32: 64 tiles 48 ms, 16 tiles 18 ms).
constexpr std::int64_t kRadixMinExtent = 8192;
constexpr std::int64_t kRadixMaxExtent = std::numeric_limits<cl_uint>::max();  // counts are uint
constexpr std::int64_t kRadixMinTile = 16384;
constexpr std::int64_t kRadixMaxTiles = 16;
constexpr int kRadixBits = 11;  // RADIX_BITS in kernels/sort.cl
// A sort of at least this many elements moves its keys alone when they stand for the values: half the
// memory traffic, for one wait on the device to learn whether they do. Below it the wait costs more than the
// moves it saves (pocl, 2 cores, float32: 64K 0.375 ms keys alone, 0.336 ms with values; 1M 3.8 ms keys
// alone, 4.5 to 5.4 ms with values).
constexpr std::int64_t kRadixKeysAloneMin = std::int64_t{1} << 20;
constexpr std::int64_t kRadix = 1 << kRadixBits;  // RADIX

// The scratch of a sort: keys and payloads (positions, or values), two of each to move between.
struct SortScratch {
  std::shared_ptr<ClBuffer> keys[2], payload[2];
  SortScratch(DeviceContext& dev, std::size_t n, std::size_t key_size, std::size_t payload_size)
      : keys{dev.allocate(n * key_size), dev.allocate(n * key_size)},
        payload{dev.allocate(n * payload_size), dev.allocate(n * payload_size)} {}
};

// Sorts every line by a stable merge sort (sort_runs, then sort_merge passes) and writes out: sorted values
// (with_values) or the positions.
void merge_sort_lines(DeviceContext& dev, const Tensor& x, const AxisView& v, bool descending,
                      bool with_values, Tensor& out) {
  const std::int64_t rows = v.outer * v.inner, total = rows * v.extent;
  const std::string options = dtype_options(x.dtype());
  const std::size_t key_size = x.dtype() == DType::float16 ? sizeof(cl_float) : x.itemsize();  // keys in C
  SortScratch s(dev, static_cast<std::size_t>(total), key_size, sizeof(cl_long));
  const cl_int desc = descending ? 1 : 0;
  const std::int64_t runs = (v.extent + kSortRun - 1) / kSortRun;
  dev.launch(dev.kernel("sort", options, "sort_runs"), rows * runs, arg(x), s.keys[0]->mem(),
             s.payload[0]->mem(), static_cast<cl_long>(v.extent), static_cast<cl_long>(v.inner),
             static_cast<cl_long>(runs), desc);
  int cur = 0;
  cl_kernel merge = dev.kernel("sort", options, "sort_merge");
  for (std::int64_t width = kSortRun; width < v.extent; width *= 2) {
    const std::int64_t pairs = (v.extent + 2 * width - 1) / (2 * width);
    dev.launch(merge, rows * pairs, s.keys[cur]->mem(), s.payload[cur]->mem(), s.keys[1 - cur]->mem(),
               s.payload[1 - cur]->mem(), static_cast<cl_long>(v.extent), static_cast<cl_long>(width),
               static_cast<cl_long>(pairs), desc);
    cur = 1 - cur;
  }
  if (with_values) {
    dev.launch(layout_kernel(dev, x.itemsize(), "apply_permutation"), total, arg(x), s.payload[cur]->mem(),
               arg(out), static_cast<cl_long>(v.extent), static_cast<cl_long>(v.inner));
  } else {
    dev.launch(layout_kernel(dev, sizeof(cl_long), "store_permutation"), total, s.payload[cur]->mem(),
               arg(out), static_cast<cl_long>(v.extent), static_cast<cl_long>(v.inner));
  }
  // The scratch buffers are released on return; OpenCL keeps them alive until the queued kernels finish.
}

// The OpenCL C unsigned type of `bytes` bytes.
const char* word_type(std::size_t bytes) {
  return bytes == 1 ? "uchar" : bytes == 2 ? "ushort" : bytes == 4 ? "uint" : "ulong";
}

// As merge_sort_lines, by a stable LSD radix sort (sort.cl's radix kernels), kRadixBits a pass. A sort of at
// least kRadixKeysAloneMin elements whose keys each stand for one value (integers always; floats without -0
// and NaN, which costs a wait for the device to say so) moves its keys alone; otherwise keys carry the values
// themselves (sort) or the positions (argsort), and with lines along the last axis, the last pass writes out
// itself.
void radix_sort_lines(DeviceContext& dev, const Tensor& x, const AxisView& v, bool descending,
                      bool with_values, Tensor& out) {
  const std::int64_t rows = v.outer * v.inner, total = rows * v.extent;
  // Keys as wide as the element (float16: the float32 key of its value), counted from 0.
  const int key_bits = x.dtype() == DType::float16 ? 32 : static_cast<int>(8 * x.itemsize());
  const std::size_t key_size = key_bits > 32 ? sizeof(cl_ulong) : sizeof(cl_uint);
  const std::size_t payload_size = with_values ? x.itemsize() : sizeof(cl_long);
  const std::string options = dtype_options(x.dtype()) + " -DKEY=" + word_type(key_size) +
                              " -DKEY_BITS=" + std::to_string(key_bits) + " -DP=" + word_type(payload_size) +
                              " -DPAYLOAD_VALUES=" + (with_values ? "1" : "0");
  const std::int64_t tiles = std::clamp<std::int64_t>(v.extent / kRadixMinTile, 1, kRadixMaxTiles);
  const auto tile = static_cast<cl_long>((v.extent + tiles - 1) / tiles);
  const std::shared_ptr<ClBuffer> counts =
      dev.allocate(static_cast<std::size_t>(rows * tiles * kRadix) * sizeof(cl_uint));
  const auto extent = static_cast<cl_long>(v.extent), inner = static_cast<cl_long>(v.inner);
  const cl_int desc = descending ? 1 : 0;
  cl_kernel count = dev.kernel("sort", options, "radix_count");
  // One tile per work-group: a driver that picks the group size itself may put all tiles in one group,
  // which runs on one core of a CPU device.
  const std::size_t global[2] = {static_cast<std::size_t>(rows * tiles), 1}, local[2] = {1, 1};
  const auto n = static_cast<cl_long>(rows * tiles);
  // Every pass over keys[0] and keys[1] (starting from keys[0]); scatter(from, shift, last) enqueues the
  // pass's moves from keys[from]. Returns the index of the sorted keys.
  const auto passes = [&](const std::shared_ptr<ClBuffer>* keys, const auto& scatter) {
    int cur = 0;
    for (int shift = 0; shift < key_bits; shift += kRadixBits) {
      dev.launch_2d(count, global, local, n, keys[cur]->mem(), counts->mem(), extent, tile,
                    static_cast<cl_long>(tiles), cl_int{shift});
      scatter(cur, cl_int{shift}, shift + kRadixBits >= key_bits);
      cur = 1 - cur;
    }
    return cur;
  };
  if (with_values && total >= kRadixKeysAloneMin) {
    const std::shared_ptr<ClBuffer> keys[2] = {dev.allocate(static_cast<std::size_t>(total) * key_size),
                                               dev.allocate(static_cast<std::size_t>(total) * key_size)};
    const std::shared_ptr<ClBuffer> inexact = dev.allocate(sizeof(cl_int));
    cl_int flag = 0;
    check(clEnqueueFillBuffer(dev.queue(), inexact->mem(), &flag, sizeof flag, 0, sizeof flag, 0, nullptr,
                              nullptr),
          "clEnqueueFillBuffer");
    dev.launch_rows(dev.kernel("sort", options, "radix_keys_alone"), 1, rows, v.extent, arg(x),
                    keys[0]->mem(), inexact->mem(), inner, desc);
    const DType d = x.dtype();
    if (d == DType::float16 || d == DType::float32 || d == DType::float64) {
      dev.read(inexact->mem(), 0, sizeof flag, &flag);  // integer keys always stand for their values
    }
    if (flag == 0) {
      cl_kernel scatter = dev.kernel("sort", options, "radix_scatter_keys");
      const int cur = passes(keys, [&](int from, cl_int shift, bool) {
        dev.launch_2d(scatter, global, local, n, keys[from]->mem(), keys[1 - from]->mem(), counts->mem(),
                      extent, tile, static_cast<cl_long>(tiles), shift);
      });
      dev.launch_rows(dev.kernel("sort", options, "radix_values"), 1, rows, v.extent, keys[cur]->mem(),
                      arg(out), inner, desc);
      return;
    }
  }
  SortScratch s(dev, static_cast<std::size_t>(total), key_size, payload_size);
  dev.launch_rows(dev.kernel("sort", options, "radix_keys"), 1, rows, v.extent, arg(x), s.keys[0]->mem(),
                  s.payload[0]->mem(), inner, desc);
  cl_kernel scatter = dev.kernel("sort", options, "radix_scatter");
  const int cur = passes(s.keys, [&](int from, cl_int shift, bool last) {
    dev.launch_2d(scatter, global, local, n, s.keys[from]->mem(), s.payload[from]->mem(),
                  s.keys[1 - from]->mem(),
                  last && v.inner == 1 ? arg(out) : TensorArg{s.payload[1 - from]->mem(), 0}, counts->mem(),
                  extent, tile, static_cast<cl_long>(tiles), shift);
  });
  if (v.inner != 1) {
    dev.launch(layout_kernel(dev, payload_size, "store_permutation"), total, s.payload[cur]->mem(), arg(out),
               extent, inner);
  }
}

// The stable sort of every line of x along `axis` (scratch rows of `extent` elements, line (o, i) in row
// o * inner + i), written to out: sorted values (with_values) or the positions. Both algorithms give the one
// stable order, so which one runs changes the time only.
void sort_lines(Runtime& rt, const char* op, const Tensor& x, int axis, bool descending, bool with_values,
                Tensor& out) {
  const AxisView v = axis_view(x.shape(), axis);
  if (v.outer * v.inner * v.extent == 0) return;
  DeviceContext& dev = rt.device(out.device(), op);
  if (v.extent >= kRadixMinExtent && v.extent <= kRadixMaxExtent) {
    radix_sort_lines(dev, x, v, descending, with_values, out);
  } else {
    merge_sort_lines(dev, x, v, descending, with_values, out);
  }
}

}  // namespace

// ---- creation --------------------------------------------------------------------------------------------

void OpenCLBackend::full(Tensor& out, Scalar value) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "full");
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T v = value.to<T>();  // bool is one byte 0/1, half its binary16 bits: the storage pattern itself
    check(clEnqueueFillBuffer(dev.queue(), mem_of(out), &v, sizeof v, out.byte_offset(), out.nbytes(), 0,
                              nullptr, nullptr),
          "clEnqueueFillBuffer");
  });
}

void OpenCLBackend::eye(Tensor& out, std::int64_t k) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "eye");
  dev.launch(tensor_kernel(dev, out.dtype(), "eye"), out.size(), arg(out),
             static_cast<cl_long>(out.shape()[1]), static_cast<cl_long>(k));
}

void OpenCLBackend::arange(Tensor& out, double start, double step) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "arange");
  if (is_integer(out.dtype())) {  // exact: start + i * step wrapping in 64 bits, then truncated
    const auto s = static_cast<cl_ulong>(Scalar::saturate<std::int64_t>(start));
    const auto d = static_cast<cl_ulong>(Scalar::saturate<std::int64_t>(step));
    dev.launch(layout_kernel(dev, out.itemsize(), "arange_words"), out.size(), arg(out), s, d);
  } else if (dev.has_fp64()) {
    launch_values(dev, "arange_values", out, static_cast<cl_double>(start), static_cast<cl_double>(step));
  } else {
    upload_host_values(*this, out, [&](std::int64_t i) { return start + static_cast<double>(i) * step; });
  }
}

void OpenCLBackend::linspace(Tensor& out, double start, double stop, bool endpoint) {
  const std::int64_t n = out.size();
  if (n == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "linspace");
  const std::int64_t div = endpoint ? n - 1 : n;
  const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
  if (dev.has_fp64()) {
    launch_values(dev, "linspace_values", out, static_cast<cl_double>(start), static_cast<cl_double>(step),
                  static_cast<cl_double>(stop), static_cast<cl_int>(endpoint ? 1 : 0));
  } else {
    const bool floored = is_integer(out.dtype());
    upload_host_values(*this, out, [&](std::int64_t i) {
      const double v = (endpoint && i == n - 1 && n > 1) ? stop : static_cast<double>(i) * step + start;
      return floored ? std::floor(v) : v;
    });
  }
}

void OpenCLBackend::from_data(Tensor& out, const void* host) {
  if (out.nbytes() == 0) return;
  runtime_->device(out.device(), "from_data").write(mem_of(out), out.byte_offset(), out.nbytes(), host);
}

void OpenCLBackend::to_host(const Tensor& x, void* host) {
  if (x.nbytes() == 0) return;
  runtime_->device(x.device(), "to_host").read(mem_of(x), x.byte_offset(), x.nbytes(), host);
}

void OpenCLBackend::copy(const Tensor& x, Tensor& out) {
  copy_bytes(*runtime_, "copy", x, out);
}

// ---- layout ----------------------------------------------------------------------------------------------

void OpenCLBackend::transpose(const Tensor& x, const std::vector<int>& perm, Tensor& out) {
  const Shape xs = contiguous_strides(x.shape());
  Shape strides(perm.size());
  for (std::size_t i = 0; i < perm.size(); ++i) strides[i] = xs[static_cast<std::size_t>(perm[i])];
  strided_copy(*runtime_, "transpose", x, 0, strides, out);
}

void OpenCLBackend::broadcast_to(const Tensor& x, Tensor& out) {
  strided_copy(*runtime_, "broadcast_to", x, 0, broadcast_strides(x.shape(), out.shape()), out);
}

void OpenCLBackend::concatenate(const std::vector<Tensor>& xs, int axis, Tensor& out) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "concatenate");
  const AxisView ov = axis_view(out.shape(), axis);
  const std::size_t item = out.itemsize();
  std::int64_t at = 0;  // position along axis where the current input starts
  for (const Tensor& x : xs) {
    const AxisView xv = axis_view(x.shape(), axis);
    const std::int64_t block = xv.extent * xv.inner, out_block = ov.extent * ov.inner;
    at += xv.extent;
    if (x.size() == 0) continue;
    const auto bytes = [item](std::int64_t elements) { return static_cast<std::size_t>(elements) * item; };
    // x is `outer` blocks of `block` elements, landing `out_block` apart in out: one copy command (the
    // driver's memcpy) when the blocks are long, the block_copy kernel when they are short.
    if (xv.outer == 1 || bytes(block) >= kMinCopyRowBytes) {
      const std::size_t src[3] = {x.byte_offset(), 0, 0};
      const std::size_t dst[3] = {out.byte_offset() + bytes((at - xv.extent) * ov.inner), 0, 0};
      const std::size_t region[3] = {bytes(block), static_cast<std::size_t>(xv.outer), 1};
      check(clEnqueueCopyBufferRect(dev.queue(), mem_of(x), mem_of(out), src, dst, region, bytes(block), 0,
                                    bytes(out_block), 0, 0, nullptr, nullptr),
            "clEnqueueCopyBufferRect");
      continue;
    }
    dev.launch(layout_kernel(dev, item, "block_copy"), x.size(), arg(x), arg(out),
               static_cast<cl_long>(block), static_cast<cl_long>(out_block),
               static_cast<cl_long>((at - xv.extent) * ov.inner));
  }
}

void OpenCLBackend::tile(const Tensor& x, Tensor& out) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "tile");
  dev.launch(layout_kernel(dev, x.itemsize(), "tile"), out.size(), arg(x), arg(out),
             static_cast<cl_int>(out.ndim()), dims_of("tile", out.shape()), dims_of("tile", x.shape()),
             dims_of("tile", contiguous_strides(x.shape())));
}

void OpenCLBackend::pad(const Tensor& x, const std::vector<std::pair<std::int64_t, std::int64_t>>& pads,
                        PadMode mode, Scalar value, Tensor& out) {
  if (out.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "pad");
  Shape before;
  for (const auto& p : pads) before.push_back(p.first);
  const cl_int m = mode == PadMode::constant ? 0 : mode == PadMode::edge ? 1 : 2;
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T v = value.to<T>();
    visit_word(sizeof(T), [&](auto word) {
      using W = decltype(word);
      // visit_word calls with the word of T's size; the other words are instantiated, never called.
      if constexpr (sizeof(W) == sizeof(T)) {
        W fill{};
        std::memcpy(&fill, &v, sizeof(T));  // the value's storage bits, moved like any element
        dev.launch(layout_kernel(dev, sizeof(T), "pad"), out.size(), arg(x), arg(out),
                   static_cast<cl_int>(out.ndim()), dims_of("pad", out.shape()), dims_of("pad", x.shape()),
                   dims_of("pad", contiguous_strides(x.shape())), dims_of("pad", before), m, fill);
      }
    });
  });
}

void OpenCLBackend::slice(const Tensor& x, const std::vector<std::int64_t>& starts,
                          const std::vector<std::int64_t>& steps, Tensor& out) {
  const Shape xs = contiguous_strides(x.shape());
  Shape strides(xs.size());
  std::int64_t base = 0;
  for (std::size_t d = 0; d < xs.size(); ++d) {
    strides[d] = xs[d] * steps[d];
    base += starts[d] * xs[d];
  }
  strided_copy(*runtime_, "slice", x, base, strides, out);
}

void OpenCLBackend::flip(const Tensor& x, const std::vector<int>& axes, Tensor& out) {
  Shape strides = contiguous_strides(x.shape());
  std::int64_t base = 0;
  for (int a : axes) {
    const auto d = static_cast<std::size_t>(a);
    if (x.shape()[d] > 0) base += (x.shape()[d] - 1) * strides[d];
    strides[d] = -strides[d];
  }
  strided_copy(*runtime_, "flip", x, base, strides, out);
}

// ---- indexing --------------------------------------------------------------------------------------------

void OpenCLBackend::gather(const Tensor& x, const Tensor& indices, int axis, Tensor& out) {
  if (indices.size() == 0) return;  // out is empty too
  DeviceContext& dev = runtime_->device(out.device(), "gather");
  const AxisView v = axis_view(x.shape(), axis);
  const auto flag = check_indices(dev, indices, v.extent);
  dev.launch(layout_kernel(dev, x.itemsize(), "gather"), out.size(), arg(x), arg(indices), arg(out),
             static_cast<cl_long>(indices.size()), static_cast<cl_long>(v.extent),
             static_cast<cl_long>(v.inner));
  throw_if_bad(dev, *flag, "gather", indices, v.extent, axis);
}

void OpenCLBackend::scatter_add(const Tensor& x, const Tensor& indices, const Tensor& updates, int axis,
                                Tensor& out) {
  copy_bytes(*runtime_, "scatter_add", x, out);
  if (indices.size() == 0) return;
  DeviceContext& dev = runtime_->device(out.device(), "scatter_add");
  const AxisView v = axis_view(x.shape(), axis);
  const auto flag = check_indices(dev, indices, v.extent);
  dev.launch(tensor_kernel(dev, x.dtype(), "scatter_add"), v.outer * v.inner, arg(indices), arg(updates),
             arg(out), static_cast<cl_long>(indices.size()), static_cast<cl_long>(v.extent),
             static_cast<cl_long>(v.inner));
  throw_if_bad(dev, *flag, "scatter_add", indices, v.extent, axis);
}

// ---- sorting ---------------------------------------------------------------------------------------------

void OpenCLBackend::sort(const Tensor& x, int axis, bool descending, Tensor& out) {
  sort_lines(*runtime_, "sort", x, axis, descending, true, out);
}

void OpenCLBackend::argsort(const Tensor& x, int axis, bool descending, Tensor& out) {
  sort_lines(*runtime_, "argsort", x, axis, descending, false, out);
}

}  // namespace ember::opencl
