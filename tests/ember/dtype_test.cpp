#include <gtest/gtest.h>

#include <cmath>

#include "ember/ember.hpp"

namespace {

using ember::DType;
namespace ops = ember::ops;

TEST(DTypeOps, NamesRoundTrip) {
  for (DType d : ember::all_dtypes) EXPECT_EQ(ops::dtype_from_name(ops::dtype_name(d)), d);
  EXPECT_EQ(ops::dtype_from_name("double"), DType::float64);
  // NumPy's reading of Python's float and int (np.dtype("float"), np.dtype("int")), not C's.
  EXPECT_EQ(ops::dtype_from_name("float"), DType::float64);
  EXPECT_EQ(ops::dtype_from_name("int"), DType::int64);
  EXPECT_EQ(ops::dtype_from_name("long"), DType::int64);
  EXPECT_EQ(ops::dtype_from_name("f4"), DType::float32);
  EXPECT_EQ(ops::dtype_from_name("half"), DType::float16);
  EXPECT_THROW(ops::dtype_from_name("complex64"), ember::DTypeError);
}

TEST(DTypeOps, Properties) {
  EXPECT_EQ(ops::itemsize(DType::float16), 2u);
  EXPECT_EQ(ops::itemsize(DType::int64), 8u);
  EXPECT_TRUE(ops::is_floating(DType::float16));
  EXPECT_FALSE(ops::is_integer(DType::bool_));
  EXPECT_TRUE(ops::is_integer(DType::uint8));
  EXPECT_FALSE(ops::is_signed(DType::uint8));
  EXPECT_TRUE(ops::is_signed(DType::int8));
}

// Expected values are NumPy 1.24's np.result_type for every pair of ember dtypes.
TEST(DTypeOps, ResultTypeMatchesNumPy) {
  struct Case {
    DType a, b, expected;
  };
  const Case cases[] = {
      {DType::bool_, DType::int8, DType::int8},         {DType::uint8, DType::int8, DType::int16},
      {DType::uint8, DType::int16, DType::int16},       {DType::int32, DType::int64, DType::int64},
      {DType::int8, DType::float16, DType::float16},    {DType::uint8, DType::float16, DType::float16},
      {DType::int16, DType::float16, DType::float32},   {DType::int16, DType::float32, DType::float32},
      {DType::int32, DType::float32, DType::float64},   {DType::int64, DType::float16, DType::float64},
      {DType::float16, DType::float32, DType::float32}, {DType::float32, DType::float64, DType::float64},
      {DType::bool_, DType::float16, DType::float16},   {DType::bool_, DType::bool_, DType::bool_},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(ops::result_type(c.a, c.b), c.expected)
        << ops::dtype_name(c.a) << " + " << ops::dtype_name(c.b);
    EXPECT_EQ(ops::result_type(c.b, c.a), c.expected)
        << ops::dtype_name(c.b) << " + " << ops::dtype_name(c.a);
  }
}

TEST(DTypeOps, CanCastIsSafeCasting) {
  EXPECT_TRUE(ops::can_cast(DType::int32, DType::float64));
  EXPECT_FALSE(ops::can_cast(DType::int32, DType::float32));
  EXPECT_FALSE(ops::can_cast(DType::float64, DType::int64));
  EXPECT_TRUE(ops::can_cast(DType::bool_, DType::uint8));
  EXPECT_FALSE(ops::can_cast(DType::uint8, DType::int8));
  EXPECT_TRUE(ops::can_cast(DType::uint8, DType::int16));
}

TEST(DTypeOps, Limits) {
  EXPECT_EQ(ops::finfo(DType::float16).max, 65504.0);
  EXPECT_EQ(ops::finfo(DType::float32).eps, 1.1920928955078125e-07);
  EXPECT_EQ(ops::iinfo(DType::int8).min, -128);
  EXPECT_EQ(ops::iinfo(DType::uint8).max, 255);
  EXPECT_THROW(ops::finfo(DType::int32), ember::DTypeError);
  EXPECT_THROW(ops::iinfo(DType::float32), ember::DTypeError);
}

TEST(Half, ConversionRoundsToNearestEven) {
  using ember::half;
  EXPECT_EQ(static_cast<float>(half(1.0f)), 1.0f);
  EXPECT_EQ(static_cast<float>(half(65504.0f)), 65504.0f);
  EXPECT_TRUE(std::isinf(static_cast<float>(half(65520.0f))));
  EXPECT_EQ(static_cast<float>(half(65519.0f)), 65504.0f);
  EXPECT_EQ(half(1.0f + 1.0f / 2048).bits, half(1.0f).bits);                            // tie -> even
  EXPECT_EQ(half(1.0f + 3.0f / 2048).bits, static_cast<std::uint16_t>(0x3c02));         // tie -> even (up)
  EXPECT_EQ(static_cast<float>(half(5.960464477539063e-08f)), 5.960464477539063e-08f);  // min subnormal
  EXPECT_EQ(half(2.9e-08f).bits, 0u);
  EXPECT_TRUE(std::isnan(static_cast<float>(half(std::nanf("")))));
  EXPECT_EQ(half(-0.0f).bits, 0x8000u);
  for (std::uint32_t b = 0; b < 0x10000; ++b) {  // every finite half survives a round trip through float
    const half h = half::from_bits(static_cast<std::uint16_t>(b));
    const float f = static_cast<float>(h);
    if (!std::isnan(f)) {
      EXPECT_EQ(half(f).bits, h.bits) << b;
    }
  }
}

}  // namespace
