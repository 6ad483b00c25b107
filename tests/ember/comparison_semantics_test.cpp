// Semantics of the comparison ops beyond the golden data: IEEE comparisons with NaN, truthiness in the
// logical ops, predicates on integer inputs, isclose's special cases, all/any identities and where's
// promotion. Parameterized over every registered backend: they must all agree.
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
// Bool results as 0/1 (std::vector<bool> compares awkwardly in failure messages).
std::vector<int> truth(const Tensor& x) {
  EXPECT_EQ(x.dtype(), DType::bool_);
  const auto v = ops::to_host<std::int32_t>(x);
  return std::vector<int>(v.begin(), v.end());
}

class ComparisonSemantics : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { EMBER_REQUIRE_BACKEND(GetParam()); }
  ember::BackendScope scope_{GetParam()};
};

TEST_P(ComparisonSemantics, NaNComparesUnequalToEverything) {
  for (DType d : {DType::float16, DType::float32, DType::float64}) {
    const Tensor a = ops::cast(tensor<double>({nan, nan, 1.0, -0.0}), d);
    const Tensor b = ops::cast(tensor<double>({nan, 1.0, nan, 0.0}), d);
    EXPECT_EQ(truth(ops::equal(a, b)), (std::vector<int>{0, 0, 0, 1})) << ops::dtype_name(d);
    EXPECT_EQ(truth(ops::not_equal(a, b)), (std::vector<int>{1, 1, 1, 0}));
    EXPECT_EQ(truth(ops::less(a, b)), (std::vector<int>{0, 0, 0, 0}));
    EXPECT_EQ(truth(ops::less_equal(a, b)), (std::vector<int>{0, 0, 0, 1}));
    EXPECT_EQ(truth(ops::greater(a, b)), (std::vector<int>{0, 0, 0, 0}));
    EXPECT_EQ(truth(ops::greater_equal(a, b)), (std::vector<int>{0, 0, 0, 1}));
  }
}

TEST_P(ComparisonSemantics, MixedDTypesCompareByValue) {
  // int8 -1 and uint8 255 promote to int16, where they differ.
  EXPECT_EQ(truth(ops::equal(tensor<std::int8_t>({-1, 5}), tensor<std::uint8_t>({255, 5}))),
            (std::vector<int>{0, 1}));
  EXPECT_EQ(truth(ops::greater(tensor<std::uint8_t>({200}), tensor<std::int8_t>({-1}))),
            (std::vector<int>{1}));
  // A float scalar next to a float32 tensor becomes float32, as NumPy's value-based rule does.
  EXPECT_EQ(truth(ops::equal(tensor<float>({0.1f}), 0.1)), (std::vector<int>{1}));
  EXPECT_EQ(truth(ops::less(tensor<std::int32_t>({1, 2, 3}), 2.5)), (std::vector<int>{1, 1, 0}));
  EXPECT_EQ(truth(ops::greater_equal(tensor<std::int32_t>({1, 2, 3}), std::int64_t{2})),
            (std::vector<int>{0, 1, 1}));
}

// An integer scalar outside the tensor's dtype range compares by value (NumPy 1.24), never wrapped into the
// dtype: uint8 > -1 is always true, int8 > 300 never. Regression: -1 became uint8 255 and 300 int8 44.
TEST_P(ComparisonSemantics, OutOfRangeIntegerScalarsCompareByValue) {
  const Tensor u = tensor<std::uint8_t>({0, 5, 200, 255});
  EXPECT_EQ(truth(ops::greater(u, -1)), (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(truth(ops::greater_equal(u, -1)), (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(truth(ops::less(u, -1)), (std::vector<int>{0, 0, 0, 0}));
  EXPECT_EQ(truth(ops::less_equal(u, -1)), (std::vector<int>{0, 0, 0, 0}));
  EXPECT_EQ(truth(ops::equal(u, -1)), (std::vector<int>{0, 0, 0, 0}));
  EXPECT_EQ(truth(ops::not_equal(u, -1)), (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(truth(ops::equal(u, 256)), (std::vector<int>{0, 0, 0, 0}));  // 256 wrapped is 0
  EXPECT_EQ(truth(ops::less(u, 256)), (std::vector<int>{1, 1, 1, 1}));

  const Tensor s = tensor<std::int8_t>({50, -100, 127});
  EXPECT_EQ(truth(ops::greater(s, 300)), (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(truth(ops::greater_equal(s, 300)), (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(truth(ops::less(s, 300)), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(truth(ops::less_equal(s, 300)), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(truth(ops::equal(s, 306)), (std::vector<int>{0, 0, 0}));  // 306 wrapped is 50
  EXPECT_EQ(truth(ops::not_equal(s, 306)), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(truth(ops::greater(s, -129)), (std::vector<int>{1, 1, 1}));

  // Wider dtypes and int64-range scalars.
  const Tensor w = tensor<std::int32_t>({0, -5, 2147483647});
  EXPECT_EQ(truth(ops::less(w, std::int64_t{1} << 40)), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(truth(ops::equal(w, (std::int64_t{1} << 32) - 5)), (std::vector<int>{0, 0, 0}));  // wraps to -5
  EXPECT_EQ(truth(ops::greater(tensor<std::int16_t>({-32768, 32767}), -40000)), (std::vector<int>{1, 1}));
  // In-range scalars keep the tensor's dtype.
  EXPECT_EQ(truth(ops::greater(u, 199)), (std::vector<int>{0, 0, 1, 1}));
  EXPECT_EQ(truth(ops::equal(s, -100)), (std::vector<int>{0, 1, 0}));
}

TEST_P(ComparisonSemantics, BroadcastErrorsNameOpAndShapes) {
  try {
    ops::less(ops::zeros({2, 3}), ops::zeros({2}));
    ADD_FAILURE() << "expected ShapeError";
  } catch (const ember::ShapeError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("less", 0), 0u) << what;
    EXPECT_NE(what.find("(2, 3)"), std::string::npos) << what;
    EXPECT_NE(what.find("(2,)"), std::string::npos) << what;
  }
  EXPECT_EQ(ops::equal(ops::zeros({2, 1}), ops::zeros({3})).shape(), (Shape{2, 3}));
  EXPECT_THROW(ops::logical_and(ops::zeros({2}), ops::zeros({3})), ember::ShapeError);
  EXPECT_THROW(ops::isclose(ops::zeros({2}), ops::zeros({3})), ember::ShapeError);
}

TEST_P(ComparisonSemantics, LogicalOpsUseTruthiness) {
  const Tensor a = tensor<double>({0.0, nan, 2.0, -0.0, 0.5});
  const Tensor b = tensor<std::int32_t>({1, 1, 0, 0, 7});
  EXPECT_EQ(truth(ops::logical_and(a, b)), (std::vector<int>{0, 1, 0, 0, 1}));
  EXPECT_EQ(truth(ops::logical_or(a, b)), (std::vector<int>{1, 1, 1, 0, 1}));
  EXPECT_EQ(truth(ops::logical_xor(a, b)), (std::vector<int>{1, 0, 1, 0, 0}));
  EXPECT_EQ(truth(ops::logical_not(a)), (std::vector<int>{1, 0, 0, 1, 0}));
  EXPECT_EQ(truth(ops::logical_not(tensor<std::uint8_t>({0, 255}))), (std::vector<int>{1, 0}));
}

TEST_P(ComparisonSemantics, FloatPredicates) {
  for (DType d : {DType::float16, DType::float32, DType::float64}) {
    const Tensor x = ops::cast(tensor<double>({1.0, inf, -inf, nan, -0.0}), d);
    EXPECT_EQ(truth(ops::isnan(x)), (std::vector<int>{0, 0, 0, 1, 0})) << ops::dtype_name(d);
    EXPECT_EQ(truth(ops::isinf(x)), (std::vector<int>{0, 1, 1, 0, 0}));
    EXPECT_EQ(truth(ops::isfinite(x)), (std::vector<int>{1, 0, 0, 0, 1}));
  }
  // float16 overflows to infinity where float32 does not.
  EXPECT_EQ(truth(ops::isinf(ops::cast(tensor<double>({70000.0}), DType::float16))), (std::vector<int>{1}));
}

TEST_P(ComparisonSemantics, PredicatesOnIntegersAndBool) {
  const Tensor i = tensor<std::int32_t>({std::numeric_limits<std::int32_t>::min(), 0, 7}, Shape{3, 1});
  const Tensor b = ops::equal(i, i);
  for (const Tensor& x : {i, b}) {
    EXPECT_EQ(ops::isnan(x).shape(), (Shape{3, 1}));
    EXPECT_EQ(truth(ops::isnan(x)), (std::vector<int>{0, 0, 0}));
    EXPECT_EQ(truth(ops::isinf(x)), (std::vector<int>{0, 0, 0}));
    EXPECT_EQ(truth(ops::isfinite(x)), (std::vector<int>{1, 1, 1}));
  }
}

TEST_P(ComparisonSemantics, IsCloseSpecialCases) {
  const Tensor a = tensor<double>({inf, inf, -inf, nan, 1.0, 1e10, 0.0});
  const Tensor b = tensor<double>({inf, -inf, -inf, nan, nan, 1.00001e10, 1e-9});
  EXPECT_EQ(truth(ops::isclose(a, b)), (std::vector<int>{1, 0, 1, 0, 0, 1, 1}));
  EXPECT_EQ(truth(ops::isclose(a, b, 1e-5, 1e-8, true)), (std::vector<int>{1, 0, 1, 1, 0, 1, 1}));
  EXPECT_EQ(truth(ops::isclose(a, b, 0.0, 0.0)), (std::vector<int>{1, 0, 1, 0, 0, 0, 0}));
  // The tolerance scales with |b| only, as in NumPy: isclose is not symmetric.
  const Tensor x = tensor<double>({1.0}), y = tensor<double>({1.1});
  EXPECT_EQ(truth(ops::isclose(x, y, 0.0909091, 0.0)), (std::vector<int>{1}));
  EXPECT_EQ(truth(ops::isclose(y, x, 0.0909091, 0.0)), (std::vector<int>{0}));
  // Integers compare as float64.
  EXPECT_EQ(truth(ops::isclose(tensor<std::int64_t>({100000000, 3}), tensor<std::int32_t>({100000001, 4}))),
            (std::vector<int>{1, 0}));
  EXPECT_TRUE(ops::allclose(tensor<float>({1.0f, 2.0f}), tensor<double>({1.0, 2.0000001})));
  EXPECT_FALSE(ops::allclose(tensor<double>({1.0, nan}), tensor<double>({1.0, nan})));
  EXPECT_TRUE(ops::allclose(tensor<double>({1.0, nan}), tensor<double>({1.0, nan}), 1e-5, 1e-8, true));
  EXPECT_TRUE(ops::allclose(ops::zeros({0}), ops::zeros({0})));
}

TEST_P(ComparisonSemantics, AllAnyIdentitiesAndAxes) {
  const Tensor empty = ops::zeros({0, 2});
  EXPECT_EQ(truth(ops::all(empty)), (std::vector<int>{1}));
  EXPECT_EQ(truth(ops::any(empty)), (std::vector<int>{0}));
  EXPECT_EQ(truth(ops::all(empty, std::vector<std::int64_t>{0})), (std::vector<int>{1, 1}));
  const Tensor x = tensor<double>({1.0, 0.0, nan, 2.0, 0.0, 0.0}, Shape{2, 3});
  EXPECT_EQ(truth(ops::all(x, std::vector<std::int64_t>{1})), (std::vector<int>{0, 0}));
  EXPECT_EQ(truth(ops::any(x, std::vector<std::int64_t>{1})), (std::vector<int>{1, 1}));
  EXPECT_EQ(truth(ops::any(x, std::vector<std::int64_t>{0})), (std::vector<int>{1, 0, 1}));
  EXPECT_EQ(ops::all(x, std::vector<std::int64_t>{-1}, true).shape(), (Shape{2, 1}));
  EXPECT_EQ(ops::any(x, std::vector<std::int64_t>{}).shape(), (Shape{2, 3}));
  EXPECT_EQ(truth(ops::all(x, std::vector<std::int64_t>{})), (std::vector<int>{1, 0, 1, 1, 0, 0}));
  EXPECT_THROW(ops::all(x, std::vector<std::int64_t>{2}), ember::ShapeError);
}

TEST_P(ComparisonSemantics, WherePromotesAndBroadcasts) {
  const Tensor cond = tensor<std::int32_t>({1, 0, 3}, Shape{3, 1});
  const Tensor x = tensor<std::int8_t>({-1, -2});
  const Tensor y = ops::cast(tensor<double>({0.5}), DType::float32);
  const Tensor w = ops::where(cond, x, y);
  EXPECT_EQ(w.dtype(), DType::float32);
  EXPECT_EQ(w.shape(), (Shape{3, 2}));
  EXPECT_EQ(ops::to_host<double>(w), (std::vector<double>{-1, -2, 0.5, 0.5, -1, -2}));
  // NaN conditions are true.
  EXPECT_EQ(ops::to_host<double>(
                ops::where(tensor<double>({nan, 0.0}), tensor<double>({1, 1}), tensor<double>({2, 2}))),
            (std::vector<double>{1, 2}));
  try {
    ops::where(ops::zeros({2}), ops::zeros({3}), ops::zeros({1}));
    ADD_FAILURE() << "expected ShapeError";
  } catch (const ember::ShapeError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("where", 0), 0u) << what;
    EXPECT_NE(what.find("(2,)"), std::string::npos) << what;
    EXPECT_NE(what.find("(3,)"), std::string::npos) << what;
  }
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(Backends, ComparisonSemantics, ::testing::ValuesIn(ember::registered_backends()),
                         ember::test::backend_param_name);
