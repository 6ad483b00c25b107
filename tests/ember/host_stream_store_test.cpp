// The host + - * / of outputs larger than the caches (host::kStreamStoreBytes and more) are written with
// non-temporal stores (frontend/src/host/vector_kernels.cpp binary_stream): the same values as a scalar loop,
// for every op, with either operand a scalar, into an output that starts off a 16-byte boundary, float32 and
// float64, on the host threads.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "host/vector_kernels.hpp"

namespace ember {
namespace {

using host::BinaryOp;

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

}  // namespace
}  // namespace ember
