// Semantics of the math ops that golden data does not pin down well: the Array API special cases (NaN,
// +-inf, signed zeros), integer wrapping and division by zero, result dtypes, error types and messages.
// Parameterized over every registered backend: they must all agree.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "backend_support.hpp"
#include "ember/ember.hpp"

namespace {

using ember::DType;
using ember::Shape;
using ember::Tensor;
namespace ops = ember::ops;

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

template <class T>
Tensor tensor(const std::vector<T>& values, std::optional<Shape> shape = std::nullopt) {
  return ops::from_data(values, shape ? *shape : Shape{static_cast<std::int64_t>(values.size())});
}
std::vector<double> values(const Tensor& x) {
  return ops::to_host<double>(x);
}
template <class T>
std::vector<T> values_as(const Tensor& x) {
  return ops::to_host<T>(x);
}

// Equal as IEEE values, NaN matching NaN, and zeros of the same sign.
::testing::AssertionResult same_floats(const std::vector<double>& got, const std::vector<double>& want) {
  if (got.size() != want.size()) return ::testing::AssertionFailure() << "sizes differ";
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool both_nan = std::isnan(got[i]) && std::isnan(want[i]);
    if (!both_nan && (got[i] != want[i] || std::signbit(got[i]) != std::signbit(want[i]))) {
      return ::testing::AssertionFailure() << "element " << i << ": got " << got[i] << ", want " << want[i];
    }
  }
  return ::testing::AssertionSuccess();
}

class MathSemantics : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { EMBER_REQUIRE_BACKEND(GetParam()); }
  ember::BackendScope scope_{GetParam()};
};

TEST_P(MathSemantics, LogarithmSpecialCases) {
  for (DType d : {DType::float32, DType::float64, DType::float16}) {
    const Tensor x = ops::cast(tensor<double>({0.0, -0.0, -1.0, inf, 1.0, nan}), d);
    EXPECT_TRUE(same_floats(values(ops::log(x)), {-inf, -inf, nan, inf, 0.0, nan})) << ops::dtype_name(d);
    EXPECT_TRUE(same_floats(values(ops::log2(x)), {-inf, -inf, nan, inf, 0.0, nan}));
    EXPECT_TRUE(same_floats(values(ops::log10(x)), {-inf, -inf, nan, inf, 0.0, nan}));
  }
  const Tensor y = tensor<double>({-1.0, -2.0, -0.0, inf});
  EXPECT_TRUE(same_floats(values(ops::log1p(y)), {-inf, nan, -0.0, inf}));
}

TEST_P(MathSemantics, SqrtAndExpSpecialCases) {
  for (DType d : {DType::float32, DType::float64, DType::float16}) {
    const Tensor x = ops::cast(tensor<double>({-0.0, 0.0, -inf, inf, nan, -1.0}), d);
    EXPECT_TRUE(same_floats(values(ops::sqrt(x)), {-0.0, 0.0, nan, inf, nan, nan})) << ops::dtype_name(d);
    const auto e = values(ops::exp(x));
    EXPECT_TRUE(same_floats({e[0], e[1], e[2], e[3], e[4]}, {1.0, 1.0, 0.0, inf, nan})) << ops::dtype_name(d);
    const auto m = values(ops::expm1(x));
    EXPECT_TRUE(same_floats({m[0], m[1], m[2], m[3], m[4]}, {-0.0, 0.0, -1.0, inf, nan}))
        << ops::dtype_name(d);
  }
}

// float32 exp over its whole range, the edges of the host backends' vectorized range ([-87, 88]) included:
// within 2 ulp of the correctly rounded value, subnormal results and overflow to inf included.
TEST_P(MathSemantics, Float32ExpIsAccurateEverywhere) {
  std::vector<float> x;
  for (float v = -104.0f; v <= 90.0f; v += 0.01171875f) x.push_back(v);
  for (float v : {-87.0f, 88.0f, -87.33f, 88.72f, 88.73f, -103.97f, 0x1p-30f, -0x1p-30f}) x.push_back(v);
  const std::vector<float> got = values_as<float>(ops::exp(tensor<float>(x)));
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float want = static_cast<float>(std::exp(static_cast<double>(x[i])));
    if (std::isinf(want)) {
      EXPECT_EQ(got[i], want) << "exp(" << x[i] << ")";
      continue;
    }
    if (want < std::numeric_limits<float>::min()) {
      EXPECT_NEAR(got[i], want, std::numeric_limits<float>::denorm_min() * 2) << "exp(" << x[i] << ")";
      continue;
    }
    EXPECT_LE(std::fabs(got[i] - want), 2 * (std::nextafter(want, INFINITY) - want)) << "exp(" << x[i] << ")";
  }
}

TEST_P(MathSemantics, TrigAndHyperbolicSpecialCases) {
  const Tensor x = tensor<double>({inf, -inf, -0.0, nan});
  EXPECT_TRUE(same_floats(values(ops::tanh(x)), {1.0, -1.0, -0.0, nan}));
  EXPECT_TRUE(same_floats(values(ops::sinh(x)), {inf, -inf, -0.0, nan}));
  EXPECT_TRUE(same_floats(values(ops::cosh(x)), {inf, inf, 1.0, nan}));
  EXPECT_TRUE(same_floats(values(ops::sin(x)), {nan, nan, -0.0, nan}));
  EXPECT_TRUE(same_floats(values(ops::cos(x)), {nan, nan, 1.0, nan}));
  EXPECT_TRUE(same_floats(values(ops::tan(x)), {nan, nan, -0.0, nan}));
  const Tensor h = ops::cast(x, DType::float16);
  EXPECT_EQ(ops::tanh(h).dtype(), DType::float16);
  EXPECT_TRUE(same_floats(values(ops::tanh(h)), {1.0, -1.0, -0.0, nan}));
}

TEST_P(MathSemantics, DivisionByZero) {
  for (DType d : {DType::float32, DType::float64, DType::float16}) {
    const Tensor a = ops::cast(tensor<double>({1.0, -1.0, 1.0, 0.0, nan}), d);
    const Tensor b = ops::cast(tensor<double>({0.0, 0.0, -0.0, 0.0, 0.0}), d);
    EXPECT_TRUE(same_floats(values(ops::divide(a, b)), {inf, -inf, -inf, nan, nan})) << ops::dtype_name(d);
  }
  // Integer true division is float64, so it follows the float rules.
  const Tensor q = ops::divide(tensor<std::int32_t>({1, -1, 0}), tensor<std::int32_t>({0, 0, 0}));
  EXPECT_EQ(q.dtype(), DType::float64);
  EXPECT_TRUE(same_floats(values(q), {inf, -inf, nan}));
}

TEST_P(MathSemantics, RoundingIsHalfToEven) {
  for (DType d : {DType::float32, DType::float64, DType::float16}) {
    const Tensor x = ops::cast(tensor<double>({0.5, 1.5, 2.5, -0.5, -1.5, -2.5, -0.0, inf, nan}), d);
    EXPECT_TRUE(same_floats(values(ops::round(x)), {0.0, 2.0, 2.0, -0.0, -2.0, -2.0, -0.0, inf, nan}))
        << ops::dtype_name(d);
    EXPECT_TRUE(same_floats(values(ops::floor(x)), {0.0, 1.0, 2.0, -1.0, -2.0, -3.0, -0.0, inf, nan}));
    EXPECT_TRUE(same_floats(values(ops::ceil(x)), {1.0, 2.0, 3.0, -0.0, -1.0, -2.0, -0.0, inf, nan}));
  }
  const Tensor i = tensor<std::int16_t>({-3, 7});
  for (const Tensor& r : {ops::round(i), ops::floor(i), ops::ceil(i)}) {
    EXPECT_EQ(r.dtype(), DType::int16);
    EXPECT_EQ(values_as<std::int16_t>(r), (std::vector<std::int16_t>{-3, 7}));
  }
}

TEST_P(MathSemantics, FloatFloorDivideAndModFollowPython) {
  for (DType d : {DType::float32, DType::float64}) {
    const Tensor a = ops::cast(tensor<double>({7.0, 7.0, -7.0, -7.0, -4.0, 4.0, 5.0, 1.0, -1.0}), d);
    const Tensor b = ops::cast(tensor<double>({2.0, -2.0, 2.0, -2.0, 2.0, -2.0, 0.0, inf, inf}), d);
    EXPECT_TRUE(
        same_floats(values(ops::floor_divide(a, b)), {3.0, -4.0, -4.0, 3.0, -2.0, -2.0, inf, 0.0, -1.0}))
        << ops::dtype_name(d);
    // The remainder has the divisor's sign, zeros included; x % 0 is NaN.
    EXPECT_TRUE(same_floats(values(ops::mod(a, b)), {1.0, -1.0, 1.0, -1.0, 0.0, -0.0, nan, 1.0, inf}))
        << ops::dtype_name(d);
  }
}

TEST_P(MathSemantics, IntegerFloorDivideAndMod) {
  const Tensor a = tensor<std::int32_t>({7, 7, -7, -7, 5, -5, 0, std::numeric_limits<std::int32_t>::min()});
  const Tensor b = tensor<std::int32_t>({2, -2, 2, -2, 0, 0, 0, -1});
  EXPECT_EQ(values_as<std::int32_t>(ops::floor_divide(a, b)),
            (std::vector<std::int32_t>{3, -4, -4, 3, 0, 0, 0, std::numeric_limits<std::int32_t>::min()}));
  EXPECT_EQ(values_as<std::int32_t>(ops::mod(a, b)), (std::vector<std::int32_t>{1, -1, 1, -1, 0, 0, 0, 0}));
  const std::int64_t min64 = std::numeric_limits<std::int64_t>::min();
  const Tensor c = tensor<std::int64_t>({min64, min64, 9});
  const Tensor e = tensor<std::int64_t>({-1, 0, 0});
  EXPECT_EQ(values_as<std::int64_t>(ops::floor_divide(c, e)), (std::vector<std::int64_t>{min64, 0, 0}));
  EXPECT_EQ(values_as<std::int64_t>(ops::mod(c, e)), (std::vector<std::int64_t>{0, 0, 0}));
  const Tensor u = tensor<std::uint8_t>({200, 7});
  EXPECT_EQ(values_as<std::uint8_t>(ops::floor_divide(u, tensor<std::uint8_t>({0, 2}))),
            (std::vector<std::uint8_t>{0, 3}));
}

TEST_P(MathSemantics, IntegerArithmeticWraps) {
  using L32 = std::numeric_limits<std::int32_t>;
  const Tensor big = tensor<std::int32_t>({L32::max(), L32::min(), 65536});
  EXPECT_EQ(values_as<std::int32_t>(ops::add(big, std::int64_t{1})),
            (std::vector<std::int32_t>{L32::min(), L32::min() + 1, 65537}));
  EXPECT_EQ(values_as<std::int32_t>(ops::subtract(big, std::int64_t{1})),
            (std::vector<std::int32_t>{L32::max() - 1, L32::max(), 65535}));
  EXPECT_EQ(values_as<std::int32_t>(ops::multiply(big, big)), (std::vector<std::int32_t>{1, 0, 0}));
  EXPECT_EQ(values_as<std::int32_t>(ops::negative(big)),
            (std::vector<std::int32_t>{-L32::max(), L32::min(), -65536}));
  EXPECT_EQ(values_as<std::int32_t>(ops::abs(big)),
            (std::vector<std::int32_t>{L32::max(), L32::min(), 65536}));
  EXPECT_EQ(values_as<std::int16_t>(ops::square(tensor<std::int16_t>({300, -200}))),
            (std::vector<std::int16_t>{static_cast<std::int16_t>(90000 - 65536),
                                       static_cast<std::int16_t>(40000 - 65536)}));
  EXPECT_EQ(values_as<std::uint8_t>(ops::add(tensor<std::uint8_t>({200}), tensor<std::uint8_t>({100}))),
            (std::vector<std::uint8_t>{44}));
  EXPECT_EQ(values_as<std::uint8_t>(ops::negative(tensor<std::uint8_t>({1, 0}))),
            (std::vector<std::uint8_t>{255, 0}));
  EXPECT_EQ(values_as<std::int8_t>(ops::multiply(tensor<std::int8_t>({100}), tensor<std::int8_t>({3}))),
            (std::vector<std::int8_t>{44}));
}

// Integer scalars outside the tensor's range act by value: the result widens (NumPy 1.24), never wraps the
// scalar into the dtype. Regression: clip(int8 [50, -100, 127], 0, 300) gave [44, 0, 44].
TEST_P(MathSemantics, OutOfRangeIntegerScalarsWidenInsteadOfWrapping) {
  const Tensor s = tensor<std::int8_t>({50, -100, 127});
  const Tensor clipped = ops::clip(s, ember::Scalar(0), ember::Scalar(300));
  EXPECT_EQ(clipped.dtype(), DType::int16);
  EXPECT_EQ(values_as<std::int16_t>(clipped), (std::vector<std::int16_t>{50, 0, 127}));
  const Tensor u = tensor<std::uint8_t>({0, 5, 200, 255});
  const Tensor low = ops::clip(u, ember::Scalar(-1), ember::Scalar(100));
  EXPECT_EQ(low.dtype(), DType::int16);
  EXPECT_EQ(values_as<std::int16_t>(low), (std::vector<std::int16_t>{0, 5, 100, 100}));
  EXPECT_EQ(values_as<std::int16_t>(ops::add(s, 300)), (std::vector<std::int16_t>{350, 200, 427}));
  EXPECT_EQ(values_as<std::int16_t>(ops::subtract(u, -1)), (std::vector<std::int16_t>{1, 6, 201, 256}));
  const Tensor wide = ops::multiply(tensor<std::int32_t>({3, -2}), std::int64_t{1} << 40);
  EXPECT_EQ(wide.dtype(), DType::int64);
  EXPECT_EQ(values_as<std::int64_t>(wide), (std::vector<std::int64_t>{3ll << 40, -(2ll << 40)}));
  // In range, the tensor's dtype stays (and arithmetic wraps in it, as NumPy does).
  EXPECT_EQ(values_as<std::int8_t>(ops::add(s, 100)), (std::vector<std::int8_t>{-106, 0, -29}));
}

TEST_P(MathSemantics, IntegerPowerIsExactAndWraps) {
  std::uint64_t expected = 1;
  for (int i = 0; i < 41; ++i) expected *= 3u;  // 3^41 modulo 2^64
  EXPECT_EQ(values_as<std::int64_t>(ops::power(tensor<std::int64_t>({3}), std::int64_t{41}))[0],
            static_cast<std::int64_t>(expected));
  EXPECT_EQ(
      values_as<std::int32_t>(ops::power(tensor<std::int32_t>({2, 0, 7}), tensor<std::int32_t>({31, 0, 2}))),
      (std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::min(), 1, 49}));
  // Negative exponents: 1 for 1, +-1 for -1, 0 otherwise.
  EXPECT_EQ(values_as<std::int32_t>(ops::power(tensor<std::int32_t>({1, -1, -1, 2, 0}),
                                               tensor<std::int32_t>({-3, -3, -2, -1, -1}))),
            (std::vector<std::int32_t>{1, -1, 1, 0, 0}));
}

TEST_P(MathSemantics, ReductionsAndMatmulWrap) {
  const std::int64_t max64 = std::numeric_limits<std::int64_t>::max();
  const Tensor x = tensor<std::int64_t>({max64, 1, 1});
  EXPECT_EQ(values_as<std::int64_t>(ops::sum(x))[0], std::numeric_limits<std::int64_t>::min() + 1);
  EXPECT_EQ(values_as<std::int64_t>(ops::cumsum(x)),
            (std::vector<std::int64_t>{max64, std::numeric_limits<std::int64_t>::min(),
                                       std::numeric_limits<std::int64_t>::min() + 1}));
  EXPECT_EQ(values_as<std::int64_t>(ops::prod(tensor<std::int64_t>({max64, 2})))[0], -2);
  const Tensor m = tensor<std::int32_t>({65536, 3}, Shape{1, 2});
  EXPECT_EQ(values_as<std::int32_t>(ops::matmul(m, tensor<std::int32_t>({65536, 1}, Shape{2, 1})))[0], 3);
  const Tensor m8 = tensor<std::int8_t>({100, 100}, Shape{1, 2});
  const Tensor p8 = ops::matmul(m8, tensor<std::int8_t>({2, 1}, Shape{2, 1}));
  EXPECT_EQ(p8.dtype(), DType::int8);
  EXPECT_EQ(values_as<std::int8_t>(p8)[0], static_cast<std::int8_t>(300 - 256));
}

TEST_P(MathSemantics, MinimumMaximumPropagateNaN) {
  const Tensor a = tensor<double>({nan, 1.0, 2.0, -inf});
  const Tensor b = tensor<double>({1.0, nan, 3.0, 0.0});
  EXPECT_TRUE(same_floats(values(ops::minimum(a, b)), {nan, nan, 2.0, -inf}));
  EXPECT_TRUE(same_floats(values(ops::maximum(a, b)), {nan, nan, 3.0, 0.0}));
  const Tensor r = tensor<double>({3.0, nan, -1.0, nan, 5.0});
  EXPECT_TRUE(std::isnan(values(ops::min(r))[0]));
  EXPECT_TRUE(std::isnan(values(ops::max(r))[0]));
  // The first NaN wins argmin/argmax; otherwise the first occurrence.
  EXPECT_EQ(values_as<std::int64_t>(ops::argmin(r))[0], 1);
  EXPECT_EQ(values_as<std::int64_t>(ops::argmax(r))[0], 1);
  const Tensor t = tensor<float>({2.0f, 0.0f, 5.0f, 0.0f, 5.0f});
  EXPECT_EQ(values_as<std::int64_t>(ops::argmin(t))[0], 1);
  EXPECT_EQ(values_as<std::int64_t>(ops::argmax(t))[0], 2);
  const Tensor clipped =
      ops::clip(tensor<double>({nan, -5.0, 5.0, 0.5}), ember::Scalar(0.0), ember::Scalar(1.0));
  EXPECT_TRUE(same_floats(values(clipped), {nan, 0.0, 1.0, 0.5}));
}

TEST_P(MathSemantics, SignKeepsTheSignOfZero) {
  EXPECT_TRUE(same_floats(values(ops::sign(tensor<double>({-2.0, -0.0, 0.0, 3.0, nan, -inf}))),
                          {-1.0, -0.0, 0.0, 1.0, nan, -1.0}));
  EXPECT_TRUE(same_floats(values(ops::negative(tensor<double>({0.0, -0.0, inf}))), {-0.0, 0.0, -inf}));
  EXPECT_TRUE(same_floats(values(ops::abs(tensor<double>({-0.0, -inf, nan}))), {0.0, inf, nan}));
  EXPECT_EQ(values_as<std::int8_t>(ops::sign(tensor<std::int8_t>({-128, 0, 5}))),
            (std::vector<std::int8_t>{-1, 0, 1}));
  EXPECT_EQ(values_as<std::uint8_t>(ops::sign(tensor<std::uint8_t>({0, 200}))),
            (std::vector<std::uint8_t>{0, 1}));
}

TEST_P(MathSemantics, ResultDTypes) {
  const Tensor i8 = tensor<std::int8_t>({1}), u8 = tensor<std::uint8_t>({1}), i16 = tensor<std::int16_t>({1});
  const Tensor i32 = tensor<std::int32_t>({1}), f32 = tensor<float>({1.0f}), b = ops::equal(i8, i8);
  const Tensor f16 = ops::cast(f32, DType::float16);
  EXPECT_EQ(ops::add(i8, u8).dtype(), DType::int16);
  EXPECT_EQ(ops::add(i32, f32).dtype(), DType::float64);
  EXPECT_EQ(ops::add(b, i8).dtype(), DType::int8);
  EXPECT_EQ(ops::divide(i32, i32).dtype(), DType::float64);
  EXPECT_EQ(ops::divide(f32, f32).dtype(), DType::float32);
  EXPECT_EQ(ops::sqrt(i8).dtype(), DType::float16);
  EXPECT_EQ(ops::sqrt(u8).dtype(), DType::float16);
  EXPECT_EQ(ops::exp(i16).dtype(), DType::float32);
  EXPECT_EQ(ops::log(i32).dtype(), DType::float64);
  EXPECT_EQ(ops::sum(i8).dtype(), DType::int64);
  EXPECT_EQ(ops::sum(b).dtype(), DType::int64);
  EXPECT_EQ(ops::prod(i32).dtype(), DType::int64);
  EXPECT_EQ(ops::sum(f16).dtype(), DType::float16);
  EXPECT_EQ(ops::mean(i32).dtype(), DType::float64);
  EXPECT_EQ(ops::var(f32).dtype(), DType::float32);
  EXPECT_EQ(ops::cumsum(i16).dtype(), DType::int64);
  EXPECT_EQ(ops::max(i16).dtype(), DType::int16);
  EXPECT_EQ(ops::argmax(f32).dtype(), DType::int64);
  // A scalar of the tensor's kind takes the tensor's dtype; a float scalar promotes an integer tensor.
  EXPECT_EQ(ops::add(i8, std::int64_t{1}).dtype(), DType::int8);
  EXPECT_EQ(ops::add(f32, 2.5).dtype(), DType::float32);
  EXPECT_EQ(ops::add(i32, 1.5).dtype(), DType::float64);
  EXPECT_EQ(ops::clip(i32, ember::Scalar(0.5), std::nullopt).dtype(), DType::float64);
  EXPECT_EQ(ops::matmul(tensor<std::int16_t>({1, 2}), ops::cast(tensor<std::int16_t>({3, 4}), DType::float32))
                .dtype(),
            DType::float32);
}

TEST_P(MathSemantics, BroadcastErrorsNameOpAndShapes) {
  const Tensor a = ops::zeros({2, 3}), b = ops::zeros({4});
  for (auto op : {+[](const Tensor&x, const Tensor&y) { return ops::add(x, y); },
                  +[](const Tensor&x, const Tensor&y) { return ops::maximum(x, y); },
                  +[](const Tensor&x, const Tensor&y) { return ops::mod(x, y); }}) {
    try {
      op(a, b);
      ADD_FAILURE() << "expected ShapeError";
    } catch (const ember::ShapeError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("(2, 3)"), std::string::npos) << what;
      EXPECT_NE(what.find("(4,)"), std::string::npos) << what;
    }
  }
  try {
    ops::subtract(a, b);
    ADD_FAILURE() << "expected ShapeError";
  } catch (const ember::ShapeError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("subtract", 0), 0u) << e.what();
  }
  try {
    ops::matmul(ops::zeros({2, 3}), ops::zeros({4, 5}));
    ADD_FAILURE() << "expected ShapeError";
  } catch (const ember::ShapeError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("matmul"), std::string::npos) << what;
    EXPECT_NE(what.find("(2, 3)"), std::string::npos) << what;
    EXPECT_NE(what.find("(4, 5)"), std::string::npos) << what;
  }
  EXPECT_THROW(ops::matmul(ops::zeros({2, 2, 3}), ops::zeros({3, 3, 1})), ember::ShapeError);
  EXPECT_THROW(ops::dot(ops::zeros({3}), ops::zeros({4})), ember::ShapeError);
}

TEST_P(MathSemantics, BoolArithmeticIsDTypeError) {
  const Tensor b = ops::equal(ops::zeros({3}), ops::zeros({3}));
  EXPECT_THROW(ops::add(b, b), ember::DTypeError);
  EXPECT_THROW(ops::subtract(b, b), ember::DTypeError);
  EXPECT_THROW(ops::multiply(b, true), ember::DTypeError);
  EXPECT_THROW(ops::divide(b, b), ember::DTypeError);
  EXPECT_THROW(ops::negative(b), ember::DTypeError);
  EXPECT_THROW(ops::sqrt(b), ember::DTypeError);
  EXPECT_THROW(ops::matmul(b, b), ember::DTypeError);
  EXPECT_THROW(ops::maximum(b, b), ember::DTypeError);
  EXPECT_EQ(values_as<std::int64_t>(ops::sum(b))[0], 3);
}

TEST_P(MathSemantics, ReductionAxesAndEmptyExtents) {
  const Tensor x = tensor<double>({1, 2, 3, 4, 5, 6}, Shape{2, 3});
  // An empty axes list reduces nothing (NumPy's axis=()).
  const Tensor same = ops::sum(x, std::vector<std::int64_t>{});
  EXPECT_EQ(same.shape(), (Shape{2, 3}));
  EXPECT_EQ(values(same), values(x));
  EXPECT_EQ(ops::sum(x, std::vector<std::int64_t>{-1}, true).shape(), (Shape{2, 1}));
  EXPECT_EQ(values(ops::sum(x, std::vector<std::int64_t>{0})), (std::vector<double>{5, 7, 9}));
  EXPECT_EQ(ops::max(x, std::nullopt, true).shape(), (Shape{1, 1}));
  EXPECT_EQ(ops::argmax(x, std::nullopt, true).shape(), (Shape{1, 1}));
  EXPECT_EQ(values_as<std::int64_t>(ops::argmax(x, std::int64_t{1})), (std::vector<std::int64_t>{2, 2}));
  EXPECT_THROW(ops::sum(x, std::vector<std::int64_t>{2}), ember::ShapeError);
  EXPECT_THROW(ops::sum(x, std::vector<std::int64_t>{1, -1}), ember::ShapeError);
  // Reductions with an identity give it for an empty extent; the others are errors.
  const Tensor empty = ops::zeros({0, 3});
  EXPECT_EQ(values(ops::sum(empty, std::vector<std::int64_t>{0})), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(values(ops::prod(empty, std::vector<std::int64_t>{0})), (std::vector<double>{1, 1, 1}));
  EXPECT_TRUE(std::isnan(values(ops::mean(empty))[0]));
  EXPECT_THROW(ops::min(empty, std::vector<std::int64_t>{0}), ember::ShapeError);
  EXPECT_THROW(ops::argmax(empty), ember::ShapeError);
  EXPECT_EQ(ops::max(empty, std::vector<std::int64_t>{1}).shape(), (Shape{0}));
}

TEST_P(MathSemantics, VarianceDegreesOfFreedom) {
  const std::vector<double> data{2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0};
  double mean = 0.0, squares = 0.0;
  for (double v : data) mean += v / static_cast<double>(data.size());
  for (double v : data) squares += (v - mean) * (v - mean);
  const Tensor x = tensor<double>(data);
  EXPECT_DOUBLE_EQ(values(ops::var(x))[0], squares / 8.0);
  EXPECT_DOUBLE_EQ(values(ops::var(x, std::nullopt, false, 1.0))[0], squares / 7.0);
  EXPECT_DOUBLE_EQ(values(ops::std(x))[0], std::sqrt(squares / 8.0));
  // Like NumPy, N - ddof <= 0 divides by zero: inf with spread, NaN without.
  EXPECT_EQ(values(ops::var(x, std::nullopt, false, 8.0))[0], inf);
  EXPECT_EQ(values(ops::std(x, std::nullopt, false, 9.0))[0], inf);
  EXPECT_TRUE(std::isnan(values(ops::var(tensor<double>({3.0}), std::nullopt, false, 1.0))[0]));
  EXPECT_EQ(ops::std(tensor<std::int32_t>({1, 2})).dtype(), DType::float64);
}

TEST_P(MathSemantics, Float32SumsAreAccurate) {
  // Sequential float32 accumulation of 0.1f a million times drifts by about 1%.
  const std::vector<float> data(1000000, 0.1f);
  const double exact = static_cast<double>(0.1f) * static_cast<double>(data.size());
  const Tensor x = tensor<float>(data);
  EXPECT_NEAR(values(ops::sum(x))[0], exact, exact * 1e-6);
  EXPECT_NEAR(values(ops::mean(x))[0], static_cast<double>(0.1f), 1e-7);
  EXPECT_NEAR(values(ops::sum(x.view({1000, 1000}), std::vector<std::int64_t>{0}))[0], 100.0, 1e-3);
}

TEST_P(MathSemantics, MatmulShapesFollowNumPy) {
  EXPECT_EQ(ops::matmul(ops::ones({3}), ops::ones({3, 4})).shape(), (Shape{4}));
  EXPECT_EQ(ops::matmul(ops::ones({2, 3}), ops::ones({3})).shape(), (Shape{2}));
  EXPECT_EQ(ops::matmul(ops::ones({3}), ops::ones({3})).shape(), (Shape{}));
  EXPECT_EQ(ops::matmul(ops::ones({5, 1, 2, 3}), ops::ones({4, 3, 6})).shape(), (Shape{5, 4, 2, 6}));
  EXPECT_THROW(ops::matmul(ops::ones({}), ops::ones({3})), ember::ShapeError);
  // Batch broadcasting against a hand-written loop.
  std::vector<double> av(2 * 2 * 3), bv(3 * 3 * 2);
  for (std::size_t i = 0; i < av.size(); ++i) av[i] = static_cast<double>(i) - 4.0;
  for (std::size_t i = 0; i < bv.size(); ++i) bv[i] = 0.5 * static_cast<double>(i);
  const auto got =
      values(ops::matmul(tensor<double>(av, Shape{2, 1, 2, 3}), tensor<double>(bv, Shape{3, 3, 2})));
  ASSERT_EQ(got.size(), 2u * 3 * 2 * 2);
  for (int p = 0; p < 2; ++p)
    for (int q = 0; q < 3; ++q)
      for (int m = 0; m < 2; ++m)
        for (int n = 0; n < 2; ++n) {
          double want = 0.0;
          for (int k = 0; k < 3; ++k) want += av[(p * 2 + m) * 3 + k] * bv[(q * 3 + k) * 2 + n];
          EXPECT_DOUBLE_EQ(got[((p * 3 + q) * 2 + m) * 2 + n], want);
        }
  // float16 accumulates in float32: 2048 + 1 + 1 - 2048 is 2, not the 0 of half-precision steps.
  const Tensor h = ops::cast(tensor<double>({2048, 1, 1, -2048}), DType::float16);
  EXPECT_EQ(values(ops::matmul(h, ops::ones({4}, DType::float16)))[0], 2.0);
}

TEST_P(MathSemantics, DotFollowsNumPy) {
  EXPECT_EQ(values(ops::dot(tensor<double>({1, 2, 3}), tensor<double>({4, 5, 6})))[0], 32.0);
  const Tensor scaled = ops::dot(ops::ones({2, 3}, DType::float64), ops::full({}, 2.0));
  EXPECT_EQ(scaled.shape(), (Shape{2, 3}));
  EXPECT_EQ(values(scaled), std::vector<double>(6, 2.0));
  // N-d: sum over a's last axis and b's second-to-last.
  std::vector<double> av(2 * 3 * 4), bv(5 * 4 * 2);
  for (std::size_t i = 0; i < av.size(); ++i) av[i] = static_cast<double>(i % 7) - 3.0;
  for (std::size_t i = 0; i < bv.size(); ++i) bv[i] = static_cast<double>(i % 5) + 0.25;
  const Tensor d = ops::dot(tensor<double>(av, Shape{2, 3, 4}), tensor<double>(bv, Shape{5, 4, 2}));
  ASSERT_EQ(d.shape(), (Shape{2, 3, 5, 2}));
  const auto got = values(d);
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 5; ++j)
      for (int n = 0; n < 2; ++n) {
        double want = 0.0;
        for (int k = 0; k < 4; ++k) want += av[i * 4 + k] * bv[(j * 4 + k) * 2 + n];
        EXPECT_DOUBLE_EQ(got[(i * 5 + j) * 2 + n], want);
      }
}

TEST_P(MathSemantics, CastEdgeCases) {
  const Tensor f = tensor<double>({1e10, -1e10, nan, 2.9, -2.9, inf, -inf});
  EXPECT_EQ(values_as<std::int32_t>(ops::cast(f, DType::int32)),
            (std::vector<std::int32_t>{
                std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min(), 0, 2, -2,
                std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min()}));
  EXPECT_EQ(values_as<std::uint8_t>(ops::cast(f, DType::uint8)),
            (std::vector<std::uint8_t>{255, 0, 0, 2, 0, 255, 0}));
  EXPECT_EQ(values_as<std::int64_t>(ops::cast(tensor<double>({nan, -0.0, 0.5}), DType::bool_)),
            (std::vector<std::int64_t>{1, 0, 1}));
  EXPECT_EQ(values_as<std::uint8_t>(ops::cast(tensor<std::int32_t>({300, -1}), DType::uint8)),
            (std::vector<std::uint8_t>{44, 255}));
  // Just above the midpoint between 1 and the next half: one correct rounding goes up, a detour through
  // float32 would land on the midpoint and round to even (down).
  const double above_midpoint = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(values(ops::cast(tensor<double>({above_midpoint, 65520.0, 1e-8}), DType::float16)),
            (std::vector<double>{1.0 + std::ldexp(1.0, -10), inf, 0.0}));
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(Backends, MathSemantics, ::testing::ValuesIn(ember::registered_backends()),
                         ember::test::backend_param_name);
