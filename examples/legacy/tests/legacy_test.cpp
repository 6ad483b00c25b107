// The legacy library through its frontend only, on every backend: the same answers everywhere, and a clear
// error where a backend lacks an op.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "legacy/backend.hpp"
#include "legacy/ops/linalg.hpp"
#include "legacy/ops/math.hpp"
#include "legacy/ops/random.hpp"

namespace {

using legacy::Tensor;
namespace ops = legacy::ops;

class EveryBackend : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { legacy::set_backend(GetParam()); }
  void TearDown() override { legacy::set_backend("eigen"); }
};

TEST_P(EveryBackend, ElementWise) {
  Tensor a(2, 2, {1, 2, 3, 4}), b(2, 2, {10, 20, 30, 40});
  EXPECT_EQ(ops::add(a, b).data, (std::vector<double>{11, 22, 33, 44}));
  EXPECT_EQ(ops::add(a, 0.5).data, (std::vector<double>{1.5, 2.5, 3.5, 4.5}));
  EXPECT_EQ(ops::subtract(b, a).data, (std::vector<double>{9, 18, 27, 36}));
  EXPECT_EQ(ops::multiply(a, b).data, (std::vector<double>{10, 40, 90, 160}));
  EXPECT_THROW(ops::add(a, Tensor(1, 4)), std::invalid_argument);
}

TEST_P(EveryBackend, UniformIsTheSameOnEveryBackend) {
  Tensor u = ops::uniform(3, 4, 42);
  legacy::set_backend("eigen");
  EXPECT_EQ(u.data, ops::uniform(3, 4, 42).data);
  for (double v : u.data) EXPECT_TRUE(v >= 0.0 && v < 1.0);
}

TEST_P(EveryBackend, ReductionsAndLinearAlgebraOrAClearError) {
  Tensor a(2, 3, {1, 2, 3, 4, 5, 6}), b(3, 2, {1, 0, 0, 1, 1, 1});
  if (GetParam() == "opencl") {
    EXPECT_THROW(ops::sum(a), std::runtime_error);
    EXPECT_THROW(ops::matmul(a, b), std::runtime_error);
    EXPECT_THROW(ops::normal(2, 2, 1), std::runtime_error);
    return;
  }
  EXPECT_DOUBLE_EQ(ops::sum(a), 21);
  EXPECT_NEAR(ops::exp(Tensor(1, 1, {1.0})).data[0], std::exp(1.0), 1e-15);
  EXPECT_EQ(ops::matmul(a, b).data, (std::vector<double>{4, 5, 10, 11}));
  EXPECT_DOUBLE_EQ(ops::dot(a, a), 91);
  EXPECT_EQ(ops::transpose(a).data, (std::vector<double>{1, 4, 2, 5, 3, 6}));
  EXPECT_DOUBLE_EQ(ops::norm(Tensor(1, 2, {3, 4})), 5);
  Tensor n = ops::normal(4, 4, 7);
  legacy::set_backend("eigen");
  EXPECT_EQ(n.data, ops::normal(4, 4, 7).data);
}

INSTANTIATE_TEST_SUITE_P(Legacy, EveryBackend, ::testing::Values("eigen", "blas", "opencl"),
                         [](const auto& info) { return info.param; });

TEST(Selection, UnknownBackendIsAnError) {
  EXPECT_THROW(legacy::set_backend("cuda"), std::invalid_argument);
}

}  // namespace
