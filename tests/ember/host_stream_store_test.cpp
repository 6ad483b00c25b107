// The host + - * / of outputs larger than the caches (host::kStreamStoreBytes and more) are written with
// non-temporal stores (frontend/src/host/vector_kernels.cpp binary_stream): the same values as a scalar loop,
// for every op, with either operand a scalar, into an output that starts off a 16-byte boundary, float32 and
// float64, on the host threads, and broadcast ops row by row.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ember/ember.hpp"
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

}  // namespace
}  // namespace ember
