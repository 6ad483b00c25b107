// Semantic and edge-case tests of the solver ops: failures (singular, not positive definite), batching,
// promotion, and decompositions checked by reconstruction. Run on every registered backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "backend_support.hpp"
#include "ember/ember.hpp"

namespace {

using ember::DType;
using ember::Shape;
using ember::Tensor;
namespace ops = ember::ops;

class Solver : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { EMBER_REQUIRE_BACKEND(GetParam()); }
  ember::BackendScope scope_{GetParam()};
};

Tensor doubles(const std::vector<double>& v, const Shape& shape) {
  return ops::from_data(v, shape);
}

// Naive host matmul of row-major (n, k) x (k, m) for checking reconstructions.
std::vector<double> host_matmul(const std::vector<double>& a, const std::vector<double>& b, std::int64_t n,
                                std::int64_t k, std::int64_t m) {
  std::vector<double> c(static_cast<std::size_t>(n * m), 0.0);
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t j = 0; j < m; ++j) {
      for (std::int64_t p = 0; p < k; ++p) c[i * m + j] += a[i * k + p] * b[p * m + j];
    }
  }
  return c;
}

void expect_near_all(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

const std::vector<double> kSpd = {4, 2, 0.6, 2, 5, 1, 0.6, 1, 3};

TEST_P(Solver, SolveVectorAndMatrixRightHandSides) {
  const Tensor a = doubles({3, 1, 1, 2}, {2, 2});
  const Tensor x = ops::solve(a, doubles({9, 8}, {2}));
  EXPECT_EQ(x.shape(), (Shape{2}));
  expect_near_all(ops::to_host<double>(x), {2, 3}, 1e-12);
  const Tensor xm = ops::solve(a, doubles({9, 1, 8, 0}, {2, 2}));
  EXPECT_EQ(xm.shape(), (Shape{2, 2}));
  expect_near_all(ops::to_host<double>(xm), {2, 0.4, 3, -0.2}, 1e-12);
  EXPECT_THROW(ops::solve(a, doubles({1, 2, 3}, {3})), ember::ShapeError);
  EXPECT_THROW(ops::solve(doubles({1, 2}, {1, 2}), doubles({1}, {1})), ember::ShapeError);
}

TEST_P(Solver, BatchAxesBroadcast) {
  const Tensor a = ops::stack({doubles({2, 0, 0, 4}, {2, 2}), doubles({1, 0, 0, 1}, {2, 2})});
  const Tensor b = doubles({2, 4}, {1, 2, 1});  // batch axis broadcast against a's
  const Tensor x = ops::solve(a, b);
  EXPECT_EQ(x.shape(), (Shape{2, 2, 1}));
  expect_near_all(ops::to_host<double>(x), {1, 1, 2, 4}, 1e-12);
  const Tensor d = ops::det(ops::reshape(a, {2, 1, 2, 2}));
  EXPECT_EQ(d.shape(), (Shape{2, 1}));
  expect_near_all(ops::to_host<double>(d), {8, 1}, 1e-12);
}

TEST_P(Solver, SingularMatricesRaiseLinAlgError) {
  const Tensor s = doubles({1, 2, 2, 4}, {2, 2});
  EXPECT_THROW(ops::inv(s), ember::LinAlgError);
  EXPECT_THROW(ops::solve(s, doubles({1, 2}, {2})), ember::LinAlgError);
  EXPECT_THROW(ops::inv(ops::zeros({3, 3})), ember::LinAlgError);
  EXPECT_EQ(ops::item<double>(ops::det(s)), 0.0);
  // The batch index is named.
  try {
    ops::inv(ops::stack({ops::eye(2, std::nullopt, 0, DType::float64), s}));
    FAIL() << "expected LinAlgError";
  } catch (const ember::LinAlgError& e) {
    EXPECT_NE(std::string(e.what()).find("matrix 1"), std::string::npos) << e.what();
  }
}

TEST_P(Solver, InverseAndDeterminantPromoteIntegers) {
  const Tensor a = ops::from_data(std::vector<std::int32_t>{2, 1, 1, 1}, {2, 2});
  const Tensor ai = ops::inv(a);
  EXPECT_EQ(ai.dtype(), DType::float64);
  expect_near_all(ops::to_host<double>(ai), {1, -1, -1, 2}, 1e-12);
  EXPECT_NEAR(ops::item<double>(ops::det(a)), 1.0, 1e-12);
  EXPECT_EQ(ops::inv(ops::cast(a, DType::float32)).dtype(), DType::float32);
  EXPECT_EQ(ops::inv(ops::cast(a, DType::float16)).dtype(), DType::float16);
  EXPECT_EQ(ops::item<double>(ops::det(ops::zeros({0, 0}))), 1.0);
  EXPECT_THROW(ops::det(ops::zeros({2, 3})), ember::ShapeError);
  EXPECT_THROW(ops::inv(ops::zeros({3})), ember::ShapeError);
}

// Rows of a lower-triangular matrix with a dominant diagonal, permuted: partial pivoting must exchange rows
// at every step, and det = sign(permutation) * the product of the diagonal. The sizes cross the backends'
// blocking (the eigen backend factors panels of 16 columns and recurses on halves above that).
TEST_P(Solver, PermutedTriangularMatricesNeedRowExchangesAtEverySize) {
  for (const std::int64_t n : {5, 17, 40, 100}) {
    std::vector<double> triangular(static_cast<std::size_t>(n * n), 0.0);
    std::uint32_t state = 12345;
    const auto uniform = [&state] {  // [-1, 1), a fixed sequence
      state = state * 1664525u + 1013904223u;
      return static_cast<double>(state >> 8) / static_cast<double>(1u << 23) - 1.0;
    };
    double diagonal_product = 1.0;
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < i; ++j) triangular[i * n + j] = 0.2 * uniform();
      triangular[i * n + i] = 1.5 + 0.5 * static_cast<double>(i % 3);
      diagonal_product *= triangular[i * n + i];
    }
    // Row i of a is row (7 i + 3) mod n of the triangular matrix (7 and n are coprime).
    std::vector<std::int64_t> source(static_cast<std::size_t>(n));
    std::vector<double> a(static_cast<std::size_t>(n * n));
    for (std::int64_t i = 0; i < n; ++i) {
      source[i] = (7 * i + 3) % n;
      std::copy_n(triangular.begin() + source[i] * n, n, a.begin() + i * n);
    }
    double sign = 1.0;  // (-1)^(n - number of cycles)
    std::vector<bool> seen(static_cast<std::size_t>(n), false);
    for (std::int64_t i = 0; i < n; ++i) {
      if (seen[i]) continue;
      for (std::int64_t j = i; !seen[j]; j = source[j]) seen[j] = true;
      sign = -sign;
    }
    if (n % 2 == 1) sign = -sign;
    SCOPED_TRACE("n = " + std::to_string(n));
    const Tensor at = doubles(a, {n, n});
    EXPECT_NEAR(ops::item<double>(ops::det(at)) / (sign * diagonal_product), 1.0, 1e-12);

    std::vector<double> want(static_cast<std::size_t>(n * 3));
    for (double& v : want) v = uniform();
    const std::vector<double> b = host_matmul(a, want, n, n, 3);
    expect_near_all(ops::to_host<double>(ops::solve(at, doubles(b, {n, 3}))), want, 1e-12);
    const std::vector<double> b0 =
        host_matmul(a, std::vector<double>(want.begin(), want.begin() + n), n, n, 1);
    const Tensor x0 = ops::solve(at, doubles(b0, {n}));
    for (std::int64_t i = 0; i < n; ++i) EXPECT_NEAR(ops::to_host<double>(x0)[i], want[i], 1e-12);

    std::vector<double> identity(static_cast<std::size_t>(n * n), 0.0);
    for (std::int64_t i = 0; i < n; ++i) identity[i * n + i] = 1.0;
    expect_near_all(host_matmul(ops::to_host<double>(ops::inv(at)), a, n, n, n), identity, 1e-12);
  }
}

TEST_P(Solver, CholeskyReconstructsAndRejectsIndefiniteInput) {
  const Tensor l = ops::cholesky(doubles(kSpd, {3, 3}));
  const auto lv = ops::to_host<double>(l);
  EXPECT_EQ(lv[1], 0.0);
  EXPECT_EQ(lv[2], 0.0);
  EXPECT_EQ(lv[5], 0.0);
  std::vector<double> lt(9);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) lt[j * 3 + i] = lv[i * 3 + j];
  }
  expect_near_all(host_matmul(lv, lt, 3, 3, 3), kSpd, 1e-12);
  EXPECT_THROW(ops::cholesky(doubles({1, 2, 2, 1}, {2, 2})), ember::LinAlgError);
  EXPECT_THROW(ops::cholesky(doubles({-1, 0, 0, 1}, {2, 2})), ember::LinAlgError);
}

TEST_P(Solver, QrReconstructsWithNonNegativeDiagonal) {
  const std::vector<double> av = {1, -2, 3, 4, 5, -6, -7, 8, 9, 10, 11, 12};
  for (const Shape& shape : {Shape{4, 3}, Shape{3, 4}}) {
    const auto [q, r] = ops::qr(doubles(av, shape));
    const std::int64_t m = shape[0], n = shape[1], k = std::min(m, n);
    EXPECT_EQ(q.shape(), (Shape{m, k}));
    EXPECT_EQ(r.shape(), (Shape{k, n}));
    const auto qv = ops::to_host<double>(q), rv = ops::to_host<double>(r);
    expect_near_all(host_matmul(qv, rv, m, k, n), av, 1e-10);
    for (std::int64_t i = 0; i < k; ++i) {
      EXPECT_GE(rv[i * n + i], 0.0);
      for (std::int64_t j = 0; j < i; ++j) EXPECT_EQ(rv[i * n + j], 0.0);
    }
  }
}

TEST_P(Solver, SvdReconstructsFullAndReduced) {
  const std::vector<double> av = {3, 1, 1, -1, 3, 1};
  const Tensor a = doubles(av, {2, 3});
  const auto full = ops::svd(a);
  EXPECT_EQ(full.u.shape(), (Shape{2, 2}));
  EXPECT_EQ(full.vt.shape(), (Shape{3, 3}));
  const auto reduced = ops::svd(a, false);
  EXPECT_EQ(reduced.vt.shape(), (Shape{2, 3}));
  const auto s = ops::to_host<double>(reduced.s);
  EXPECT_GE(s[0], s[1]);
  EXPECT_NEAR(s[0], std::sqrt(12.0), 1e-12);
  EXPECT_NEAR(s[1], std::sqrt(10.0), 1e-12);
  const std::vector<double> us = host_matmul(ops::to_host<double>(reduced.u), {s[0], 0, 0, s[1]}, 2, 2, 2);
  expect_near_all(host_matmul(us, ops::to_host<double>(reduced.vt), 2, 2, 3), av, 1e-12);
  const auto values_only = ops::svd(a, true, false);
  EXPECT_FALSE(values_only.u.defined());
  expect_near_all(ops::to_host<double>(values_only.s), s, 1e-12);
  EXPECT_THROW(ops::svd(doubles({std::nan(""), 0, 0, 1}, {2, 2})), ember::LinAlgError);
  EXPECT_EQ(ops::svd(ops::zeros({3, 0})).u.shape(), (Shape{3, 3}));
}

TEST_P(Solver, EighReconstructsFromTheLowerTriangle) {
  std::vector<double> upper_garbage = kSpd;
  upper_garbage[1] = 100;  // only the lower triangle is read
  const auto [w, v] = ops::eigh(doubles(upper_garbage, {3, 3}));
  const auto wv = ops::to_host<double>(w), vv = ops::to_host<double>(v);
  EXPECT_LE(wv[0], wv[1]);
  EXPECT_LE(wv[1], wv[2]);
  std::vector<double> vw(9), vt(9);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      vw[i * 3 + j] = vv[i * 3 + j] * wv[j];
      vt[j * 3 + i] = vv[i * 3 + j];
    }
  }
  expect_near_all(host_matmul(vw, vt, 3, 3, 3), kSpd, 1e-10);
}

TEST_P(Solver, LstsqRankAndResiduals) {
  const Tensor a = doubles({1, 0, 1, 1, 1, 2}, {3, 2});
  const Tensor b = doubles({1, 2, 2}, {3});
  const auto r = ops::lstsq(a, b);
  EXPECT_EQ(r.rank, 2);
  EXPECT_EQ(r.x.shape(), (Shape{2}));
  expect_near_all(ops::to_host<double>(r.x), {7.0 / 6.0, 0.5}, 1e-12);
  EXPECT_EQ(r.residuals.shape(), (Shape{1}));
  EXPECT_NEAR(ops::to_host<double>(r.residuals)[0], 1.0 / 6.0, 1e-12);
  const auto deficient = ops::lstsq(doubles({1, 2, 2, 4}, {2, 2}), doubles({1, 2}, {2}));
  EXPECT_EQ(deficient.rank, 1);
  EXPECT_EQ(deficient.residuals.shape(), (Shape{0}));
  expect_near_all(ops::to_host<double>(deficient.x), {0.2, 0.4}, 1e-12);  // minimum norm
  EXPECT_THROW(ops::lstsq(a, doubles({1, 2}, {2})), ember::ShapeError);
}

TEST_P(Solver, NormOrders) {
  const Tensor v = doubles({3, -4, 0}, {3});
  EXPECT_DOUBLE_EQ(ops::item<double>(ops::norm(v)), 5.0);
  EXPECT_DOUBLE_EQ(ops::item<double>(ops::norm(v, "1")), 7.0);
  EXPECT_DOUBLE_EQ(ops::item<double>(ops::norm(v, "inf")), 4.0);
  EXPECT_DOUBLE_EQ(ops::item<double>(ops::norm(v, "-inf")), 0.0);
  EXPECT_DOUBLE_EQ(ops::item<double>(ops::norm(v, "0")), 2.0);
  EXPECT_NEAR(ops::item<double>(ops::norm(v, "3")), std::cbrt(91.0), 1e-12);
  const Tensor m = doubles({1, -2, 3, 4}, {2, 2});
  EXPECT_DOUBLE_EQ(ops::item<double>(ops::norm(m)), std::sqrt(30.0));
  EXPECT_DOUBLE_EQ(ops::item<double>(ops::norm(m, "fro")), std::sqrt(30.0));
  EXPECT_DOUBLE_EQ(ops::item<double>(ops::norm(m, "1")), 6.0);
  EXPECT_DOUBLE_EQ(ops::item<double>(ops::norm(m, "-1")), 4.0);
  EXPECT_DOUBLE_EQ(ops::item<double>(ops::norm(m, "inf")), 7.0);
  EXPECT_DOUBLE_EQ(ops::item<double>(ops::norm(m, "-inf")), 3.0);
  const auto s = ops::to_host<double>(ops::svd(m, true, false).s);
  EXPECT_NEAR(ops::item<double>(ops::norm(m, "2")), s[0], 1e-12);
  EXPECT_NEAR(ops::item<double>(ops::norm(m, "-2")), s[1], 1e-12);
  EXPECT_NEAR(ops::item<double>(ops::norm(m, "nuc")), s[0] + s[1], 1e-12);
  EXPECT_EQ(ops::norm(m, std::nullopt, std::vector<std::int64_t>{1}, true).shape(), (Shape{2, 1}));
  EXPECT_EQ(ops::norm(m, "fro", std::nullopt, true).shape(), (Shape{1, 1}));
  EXPECT_EQ(ops::norm(ops::ones({2, 2}, DType::float32)).dtype(), DType::float32);
  EXPECT_EQ(ops::norm(ops::ones({2}, DType::int32)).dtype(), DType::float64);
  EXPECT_THROW(ops::norm(v, "fro"), ember::ValueError);
  EXPECT_THROW(ops::norm(m, "3"), ember::ValueError);
  EXPECT_THROW(ops::norm(m, "bogus"), ember::ValueError);
  EXPECT_THROW(ops::norm(ops::zeros({2, 2, 2}), "1"), ember::ShapeError);
  EXPECT_DOUBLE_EQ(ops::item<double>(ops::norm(ops::zeros({0}))), 0.0);
}

TEST_P(Solver, DiagonalsTraceAndOuter) {
  const Tensor m = ops::reshape(ops::arange(12), {3, 4});
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::diag(m)), (std::vector<std::int64_t>{0, 5, 10}));
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::diag(m, 2)), (std::vector<std::int64_t>{2, 7}));
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::diag(m, -2)), (std::vector<std::int64_t>{8}));
  EXPECT_EQ(ops::diag(m, 9).shape(), (Shape{0}));
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::diag(ops::arange(1, 3), -1)),
            (std::vector<std::int64_t>{0, 0, 0, 1, 0, 0, 0, 2, 0}));
  const Tensor t3 = ops::reshape(ops::arange(24), {2, 3, 4});
  EXPECT_EQ(ops::diagonal(t3, 0, 1, 2).shape(), (Shape{2, 3}));
  // np.diagonal(t3, 1, -1, 0): t3[k + 1, j, k] for the remaining axis j.
  const Tensor d = ops::diagonal(t3, 1, -1, 0);
  EXPECT_EQ(d.shape(), (Shape{3, 1}));
  EXPECT_EQ(ops::to_host<std::int64_t>(d), (std::vector<std::int64_t>{12, 16, 20}));
  EXPECT_THROW(ops::diagonal(t3, 0, 1, 1), ember::ShapeError);
  EXPECT_EQ(ops::item<std::int64_t>(ops::trace(m)), 15);
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::trace(t3)), (std::vector<std::int64_t>{16, 18, 20, 22}));
  EXPECT_EQ(ops::trace(ops::ones({2, 2}, DType::bool_)).dtype(), DType::int64);
  EXPECT_EQ(ops::trace(ops::ones({2, 2}, DType::float16)).dtype(), DType::float16);
  EXPECT_THROW(ops::trace(ops::arange(3)), ember::ShapeError);
  const Tensor o = ops::outer(ops::arange(1, 3), ops::from_data(std::vector<float>{1, 0.5f, 2}, {3}));
  EXPECT_EQ(o.dtype(), DType::float64);
  EXPECT_EQ(ops::to_host<double>(o), (std::vector<double>{1, 0.5, 2, 2, 1, 4}));
  EXPECT_EQ(ops::outer(ops::zeros({0}), ops::ones({2, 2})).shape(), (Shape{0, 4}));
}

INSTANTIATE_TEST_SUITE_P(Backends, Solver, ::testing::ValuesIn(ember::registered_backends()),
                         ember::test::backend_param_name);

}  // namespace
