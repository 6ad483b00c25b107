// The host + - * / of outputs larger than the caches (host::kStreamStoreBytes and more) are written with
// non-temporal stores (frontend/src/host/vector_kernels.cpp binary_stream): the same values as a scalar loop,
// for every op, with either operand a scalar, into an output that starts off a 16-byte boundary, float32 and
// float64, on the host threads, and broadcast ops row by row. So are abs, exp and log (unary_stream_body),
// `where` (host/loops.hpp write_streamed), concatenate and slices (stream_copy), transposes
// (tensor_kernels.hpp transpose_tile_words), and each thread's range of a large output that the fused
// evaluation splits (WholeOutputScope): the values of the ordinary stores.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ember/ember.hpp"
#include "host/tensor_kernels.hpp"
#include "host/vector_kernels.hpp"

namespace ember {
namespace {

using host::BinaryOp;
namespace ops = ember::ops;

template <class T>
T apply(BinaryOp op, T x, T y) {
  switch (op) {
    case BinaryOp::add:
      return x + y;
    case BinaryOp::subtract:
      return x - y;
    case BinaryOp::multiply:
      return x * y;
    case BinaryOp::divide:
      break;
  }
  return x / y;
}

template <class T>
void binary(BinaryOp op, const T* a, bool a_scalar, const T* b, bool b_scalar, T* out, std::int64_t n) {
  if constexpr (sizeof(T) == 4) {
    host::binary_f32(op, a, a_scalar, b, b_scalar, out, n);
  } else {
    host::binary_f64(op, a, a_scalar, b, b_scalar, out, n);
  }
}

template <class T>
void check_large_outputs() {
  // Past the threshold by an odd count, so that the last chunk ends off a vector's width.
  const std::int64_t n = host::kStreamStoreBytes / static_cast<std::int64_t>(sizeof(T)) + 13;
  std::mt19937 gen(5);
  std::uniform_real_distribution<T> value(T(-4), T(4));
  std::vector<T> a(static_cast<std::size_t>(n)), b(static_cast<std::size_t>(n));
  for (T& v : a) v = value(gen);
  for (T& v : b) v = value(gen) + T(5);  // no division by zero
  std::vector<T> out(static_cast<std::size_t>(n) + 1);
  T* const o = out.data() + 1;  // off a 16-byte boundary: the stores start after a few ordinary ones
  for (BinaryOp op : {BinaryOp::add, BinaryOp::subtract, BinaryOp::multiply, BinaryOp::divide}) {
    for (int scalar = 0; scalar < 3; ++scalar) {  // none, a, b
      const bool a_scalar = scalar == 1, b_scalar = scalar == 2;
      binary<T>(op, a.data(), a_scalar, b.data(), b_scalar, o, n);
      std::int64_t wrong = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        const T want = apply(op, a_scalar ? a[0] : a[static_cast<std::size_t>(i)],
                             b_scalar ? b[0] : b[static_cast<std::size_t>(i)]);
        wrong += std::memcmp(&want, o + i, sizeof(T)) != 0;
      }
      EXPECT_EQ(wrong, 0) << sizeof(T) * 8 << "-bit op " << static_cast<int>(op) << ", scalar operand "
                          << scalar;
    }
  }
}

TEST(HostStreamStores, LargeFloat32OutputsHoldTheScalarLoopsValues) {
  check_large_outputs<float>();
}

TEST(HostStreamStores, LargeFloat64OutputsHoldTheScalarLoopsValues) {
  check_large_outputs<double>();
}

// A broadcast op writes its rows with the same stores when its whole output is that large: (rows, len) +
// (len,) and (rows, 1) * (rows, len) on each host backend.
TEST(HostStreamStores, LargeBroadcastOutputsHoldTheScalarLoopsValues) {
  const std::int64_t len = 1001;
  const std::int64_t rows = host::kStreamStoreBytes / 4 / len + 1;
  std::mt19937 gen(6);
  std::uniform_real_distribution<float> value(-4.0f, 4.0f);
  std::vector<float> m(static_cast<std::size_t>(rows * len)), row(static_cast<std::size_t>(len)),
      column(static_cast<std::size_t>(rows));
  for (float& v : m) v = value(gen);
  for (float& v : row) v = value(gen);
  for (float& v : column) v = value(gen);
  for (const std::string& name : registered_backends()) {
    if (name != "eigen" && name != "blas") continue;
    BackendScope scope(name);
    const Tensor x = ops::from_data(m, {rows, len});
    const std::vector<float> sums = ops::to_host<float>(ops::add(x, ops::from_data(row, {len})));
    const std::vector<float> products =
        ops::to_host<float>(ops::multiply(ops::from_data(column, {rows, 1}), x));
    std::int64_t wrong = 0;
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t j = 0; j < len; ++j) {
        const auto i = static_cast<std::size_t>(r * len + j);
        const float sum = m[i] + row[static_cast<std::size_t>(j)];
        const float product = column[static_cast<std::size_t>(r)] * m[i];
        wrong += std::memcmp(&sum, &sums[i], 4) != 0;
        wrong += std::memcmp(&product, &products[i], 4) != 0;
      }
    }
    EXPECT_EQ(wrong, 0) << name << ": elements of the broadcast sum and product that differ";
  }
}

// The stores a kernel picks: by its output's size, or inside a WholeOutputScope by the whole output's, the
// innermost scope holding and each restoring the one before.
TEST(HostStreamStores, AWholeOutputScopeDecidesForThePartsOfALargeOutput) {
  const std::int64_t small = std::int64_t{1} << 20;
  EXPECT_FALSE(host::stream_stores(small));
  EXPECT_TRUE(host::stream_stores(host::kStreamStoreBytes));
  {
    const host::WholeOutputScope whole(host::kStreamStoreBytes * 2);
    EXPECT_TRUE(host::stream_stores(small));
    {
      const host::WholeOutputScope inner(small);
      EXPECT_FALSE(host::stream_stores(small));
    }
    EXPECT_TRUE(host::stream_stores(small));
  }
  EXPECT_FALSE(host::stream_stores(small));
  // A copy that reads twice the caches' size with what it writes: from a quarter of kStreamStoreBytes.
  EXPECT_TRUE(host::stream_stores(host::kStreamStoreBytes / 2, host::kStreamStoreBytes * 2));
  EXPECT_FALSE(host::stream_stores(host::kStreamStoreBytes / 8, host::kStreamStoreBytes * 2));
}

// Values that take each kernel's second, scalar pass too (outside exp's range, zero, negative, NaN, inf).
template <class T>
std::vector<T> unary_inputs(std::int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<T> value(T(-20), T(20));
  std::vector<T> x(static_cast<std::size_t>(n));
  for (T& v : x) v = value(gen);
  const T specials[] = {T(0),
                        -T(0),
                        T(-1),
                        T(1000),
                        T(-1000),
                        std::numeric_limits<T>::infinity(),
                        -std::numeric_limits<T>::infinity(),
                        std::numeric_limits<T>::quiet_NaN(),
                        std::numeric_limits<T>::denorm_min()};
  for (std::size_t i = 0; i < x.size(); i += 997) x[i] = specials[i % std::size(specials)];
  return x;
}

template <class T>
void check_large_unary(void (*f)(const T*, T*, std::int64_t), const char* name) {
  const std::int64_t n = host::kStreamStoreBytes / static_cast<std::int64_t>(sizeof(T)) + 29;
  const std::vector<T> x = unary_inputs<T>(n, 8);
  std::vector<T> out(static_cast<std::size_t>(n) + 1), want(static_cast<std::size_t>(n));
  T* const o = out.data() + 1;  // off a 64-byte boundary: ordinary stores up to it
  f(x.data(), o, n);
  const std::int64_t piece = std::int64_t{1} << 16;  // far below the threshold: ordinary stores
  for (std::int64_t at = 0; at < n; at += piece) f(x.data() + at, want.data() + at, std::min(piece, n - at));
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < n; ++i)
    wrong += std::memcmp(&want[static_cast<std::size_t>(i)], o + i, sizeof(T)) != 0;
  EXPECT_EQ(wrong, 0) << name << " of " << sizeof(T) * 8 << "-bit floats: elements that differ";
}

TEST(HostStreamStores, LargeUnaryOutputsHoldTheValuesOfSmallOnes) {
  check_large_unary<float>(host::abs_f32, "abs");
  check_large_unary<float>(host::exp_f32, "exp");
  check_large_unary<float>(host::log_f32, "log");
  check_large_unary<double>(host::abs_f64, "abs");
  check_large_unary<double>(host::exp_f64, "exp");
  check_large_unary<double>(host::log_f64, "log");
}

// A large lazy op is evaluated by the fused path, a range of the output a thread: each range streams (its
// WholeOutputScope) and holds the values of eager evaluation in small pieces; on each host backend.
TEST(HostStreamStores, LargeFusedOpsHoldTheValuesOfSmallEagerOnes) {
  const std::int64_t n = host::kStreamStoreBytes / 4 + 37;
  const std::vector<float> a = unary_inputs<float>(n, 9), b = unary_inputs<float>(n, 10);
  for (const std::string& name : registered_backends()) {
    if (name != "eigen" && name != "blas") continue;
    BackendScope scope(name);
    const Tensor ta = ops::from_data(a, {n}), tb = ops::from_data(b, {n});
    const std::vector<float> sums = ops::to_host<float>(ember::eval(ops::add(ta, tb)));
    const std::vector<float> exps = ops::to_host<float>(ember::eval(ops::exp(ta)));
    const Tensor into = ops::zeros({n});
    ember::eval_into(ops::abs(tb), into);
    const std::vector<float> absolutes = ops::to_host<float>(into);
    std::vector<float> want_exp(static_cast<std::size_t>(n));
    host::exp_f32(a.data(), want_exp.data(), n);  // streams or not: the same values (tested above)
    std::int64_t wrong = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      const float sum = a[i] + b[i], absolute = std::fabs(b[i]);
      wrong += std::memcmp(&sum, &sums[i], 4) != 0;
      wrong += std::memcmp(&want_exp[i], &exps[i], 4) != 0;
      wrong += std::memcmp(&absolute, &absolutes[i], 4) != 0;
    }
    EXPECT_EQ(wrong, 0) << name << ": elements of add, exp and abs that differ";
  }
}

// where with a (rows, len) condition, a (len,) row and a (rows, 1) column, and with three full operands;
// concatenate of three parts whose joins lie off 64-byte boundaries; slices x[1:-1, ::2] and x[1:, 3:] of a
// large matrix: byte for byte what the operands hold.
TEST(HostStreamStores, LargeWhereConcatenateAndSlicesHoldTheirOperandsValues) {
  const std::int64_t len = 1003, rows = host::kStreamStoreBytes / 4 / len + 3, n = rows * len;
  const std::vector<float> m = unary_inputs<float>(n, 11), row = unary_inputs<float>(len, 12),
                           column = unary_inputs<float>(rows, 13), other = unary_inputs<float>(n, 14);
  std::vector<unsigned char> cond(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < cond.size(); ++i) cond[i] = m[i] > 0.0f;
  const auto same = [](const float& x, const float& y) { return std::memcmp(&x, &y, 4) == 0; };
  for (const std::string& name : registered_backends()) {
    if (name != "eigen" && name != "blas") continue;
    BackendScope scope(name);
    const Tensor x = ops::from_data(m, {rows, len});
    const Tensor c = ops::greater(x, 0.0);
    const std::vector<float> picked =
        ops::to_host<float>(ops::where(c, ops::from_data(row, {len}), ops::from_data(column, {rows, 1})));
    const std::vector<float> full = ops::to_host<float>(ops::where(c, x, ops::from_data(other, {rows, len})));
    std::int64_t wrong = 0;
    for (std::int64_t r = 0; r < rows; ++r) {
      for (std::int64_t j = 0; j < len; ++j) {
        const auto i = static_cast<std::size_t>(r * len + j);
        wrong += !same(picked[i],
                       cond[i] ? row[static_cast<std::size_t>(j)] : column[static_cast<std::size_t>(r)]);
        wrong += !same(full[i], cond[i] ? m[i] : other[i]);
      }
    }
    EXPECT_EQ(wrong, 0) << name << ": elements of where that differ";

    const std::int64_t first = 5, second = n - 17;  // parts of 5, n - 22 and 17 elements
    const Tensor flat = ops::reshape(x, {n});
    const std::vector<float> joined = ops::to_host<float>(
        ops::concatenate({ops::slice(flat, {{0, first, 1}}), ops::slice(flat, {{first, second, 1}}),
                          ops::slice(flat, {{second, n, 1}})}));
    wrong = 0;
    for (std::size_t i = 0; i < m.size(); ++i) wrong += !same(joined[i], m[i]);
    EXPECT_EQ(wrong, 0) << name << ": elements of concatenate that differ";

    const std::vector<float> every_other =
        ops::to_host<float>(ops::slice(x, {{1, -1, 1}, {std::nullopt, std::nullopt, 2}}));
    const std::vector<float> corner =
        ops::to_host<float>(ops::slice(x, {{1, std::nullopt, 1}, {3, std::nullopt, 1}}));
    const std::int64_t half = (len + 1) / 2;
    wrong = 0;
    for (std::int64_t r = 1; r + 1 < rows; ++r) {
      for (std::int64_t j = 0; j < half; ++j)
        wrong += !same(every_other[static_cast<std::size_t>((r - 1) * half + j)],
                       m[static_cast<std::size_t>(r * len + 2 * j)]);
    }
    for (std::int64_t r = 1; r < rows; ++r) {
      for (std::int64_t j = 3; j < len; ++j)
        wrong += !same(corner[static_cast<std::size_t>((r - 1) * (len - 3) + j - 3)],
                       m[static_cast<std::size_t>(r * len + j)]);
    }
    EXPECT_EQ(wrong, 0) << name << ": elements of the slices that differ";
  }
}

// A transpose's tiles (kTransposeBand out rows by kTransposeTile out columns) with non-temporal stores and
// with ordinary ones, called directly on out shapes whose sides end in part tiles (the last band's rows and
// the last tile's columns no multiple of 4 either), from a source whose columns step forward or backward:
// every 4-byte word (NaNs with payloads) where it belongs, bit for bit.
TEST(HostStreamStores, TransposeTilesMoveEveryWordWithEitherStores) {
  const std::int64_t rows = 3 * host::kTransposeBand + 7, cols = 5 * host::kTransposeTile + 19,
                     stride = rows + 5;  // the source: cols rows of `stride` words, the first `rows` used
  std::vector<std::uint32_t> src(static_cast<std::size_t>(cols * stride));
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = 0x7fc00000u + static_cast<std::uint32_t>(i);
  for (const bool stream : {false, true}) {
    for (const bool backward : {false, true}) {
      const std::int64_t col_stride = backward ? -stride : stride, off = backward ? (cols - 1) * stride : 0;
      std::vector<std::uint32_t> out(static_cast<std::size_t>(rows * cols) + 1, 0);
      std::uint32_t* const o = out.data() + 1;  // rows off 16-byte boundaries and on them
      host::blocked_copy_2d(src.data(), off, rows, cols, 1, col_stride, o, stream);
      std::int64_t wrong = 0;
      for (std::int64_t i = 0; i < rows; ++i) {
        for (std::int64_t j = 0; j < cols; ++j)
          wrong += o[i * cols + j] != src[static_cast<std::size_t>(off + i + j * col_stride)];
      }
      EXPECT_EQ(wrong, 0) << "stream " << stream << ", backward " << backward << ": words out of place";
    }
  }
}

// A float32 transpose whose output streams (host::kStreamStoreBytes and more), its sides no multiple of a
// tile's, on each host backend: the words of the source, bit for bit.
TEST(HostStreamStores, LargeTransposesHoldTheirOperandsWords) {
  const std::int64_t rows = 2899, cols = 2901, n = rows * cols;  // out: cols x rows
  ASSERT_GE(n * 4, host::kStreamStoreBytes);
  std::vector<std::uint32_t> words(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    words[static_cast<std::size_t>(i)] = 0x7fc00000u + static_cast<std::uint32_t>(i);
  std::vector<float> nans(words.size());
  std::memcpy(nans.data(), words.data(), words.size() * 4);
  for (const std::string& name : registered_backends()) {
    if (name != "eigen" && name != "blas") continue;
    BackendScope scope(name);
    const std::vector<float> t = ops::to_host<float>(ops::transpose(ops::from_data(nans, {rows, cols})));
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < cols; ++i) {
      for (std::int64_t j = 0; j < rows; ++j)
        wrong += std::memcmp(&t[static_cast<std::size_t>(i * rows + j)],
                             &words[static_cast<std::size_t>(j * cols + i)], 4) != 0;
    }
    EXPECT_EQ(wrong, 0) << name << ": words of the transpose out of place or changed";
  }
}

}  // namespace
}  // namespace ember
