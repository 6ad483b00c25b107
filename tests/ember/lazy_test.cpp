// Lazy evaluation (ember/lazy.hpp): deferred element-wise ops give bit-identical results to eager ones on
// every backend, for every fusable op and dtype, with broadcasting, scalars, casts and shared
// subexpressions; a fused chain allocates only its output; the caps, eval(), the eager switches, views of
// pending tensors, concurrent evaluation and the release of the graph behave as documented.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "backend_support.hpp"
#include "ember/backend.hpp"
#include "ember/ember.hpp"

namespace {

using ember::DType;
using ember::Shape;
using ember::Tensor;
namespace ops = ember::ops;

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();

std::vector<unsigned char> bytes_of(const Tensor& t) {
  std::vector<unsigned char> bytes(t.nbytes());
  if (!bytes.empty()) t.backend().to_host(t, bytes.data());
  return bytes;
}

// Values that exercise special cases of every dtype once cast to it, then a deterministic spread.
std::vector<double> test_values(std::size_t n, unsigned seed) {
  std::vector<double> v = {0.0,     -0.0,   1.0,   -1.0,    2.0,      -3.0,         0.5,
                           -2.5,    3.7,    1e30,  -1e30,   inf,      -inf,         nan,
                           127.0,   -128.0, 255.0, 32767.0, -32768.0, 2147483647.0, -2147483648.0,
                           65504.0, 1e-40,  7.0,   -7.0,    1e-3};
  std::uint64_t state = 0x9e3779b97f4a7c15ull * (seed + 1);
  while (v.size() < n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const double u = static_cast<double>(state >> 11) / 9007199254740992.0;  // [0, 1)
    v.push_back((u - 0.5) * (seed % 2 == 0 ? 20.0 : 300.0));
  }
  v.resize(n);
  return v;
}

// A concrete tensor of `dtype` holding test values (cast eagerly from float64).
Tensor concrete(DType dtype, const Shape& shape, unsigned seed) {
  ember::EagerScope eager;
  const std::int64_t n = ember::shape_numel(shape);
  return ops::cast(ops::from_data(test_values(static_cast<std::size_t>(n), seed), shape), dtype);
}

// Runs f lazily and eagerly; both throw or both give the same dtype, shape and bytes.
::testing::AssertionResult same_as_eager(const std::function<Tensor()>& f) {
  std::string lazy_error, eager_error;
  Tensor lazy, eager;
  try {
    lazy = ember::eval(f());
  } catch (const std::exception& e) {
    lazy_error = e.what();
  }
  try {
    ember::EagerScope scope;
    eager = f();
  } catch (const std::exception& e) {
    eager_error = e.what();
  }
  if (lazy_error != eager_error) {
    return ::testing::AssertionFailure()
           << "lazy error '" << lazy_error << "', eager error '" << eager_error << "'";
  }
  if (!lazy_error.empty()) return ::testing::AssertionSuccess();
  if (lazy.pending()) return ::testing::AssertionFailure() << "eval() left the tensor pending";
  if (lazy.dtype() != eager.dtype() || lazy.shape() != eager.shape()) {
    return ::testing::AssertionFailure() << "lazy " << lazy.str() << ", eager " << eager.str();
  }
  const auto a = bytes_of(lazy), b = bytes_of(eager);
  if (a != b) {
    std::size_t i = 0;
    while (a[i] == b[i]) ++i;
    return ::testing::AssertionFailure()
           << "bytes differ at element " << i / lazy.itemsize() << " of " << lazy.str();
  }
  return ::testing::AssertionSuccess();
}

using Binary = Tensor (*)(const Tensor&, const Tensor&);
using Unary = Tensor (*)(const Tensor&);

const std::vector<std::pair<const char*, Binary>>& binary_ops() {
  static const std::vector<std::pair<const char*, Binary>> all = {
      {"add", ops::add},       {"subtract", ops::subtract},         {"multiply", ops::multiply},
      {"divide", ops::divide}, {"floor_divide", ops::floor_divide}, {"mod", ops::mod},
      {"power", ops::power},   {"minimum", ops::minimum},           {"maximum", ops::maximum}};
  return all;
}

const std::vector<std::pair<const char*, Unary>>& unary_ops() {
  static const std::vector<std::pair<const char*, Unary>> all = {
      {"negative", ops::negative}, {"abs", ops::abs},     {"sign", ops::sign},   {"square", ops::square},
      {"sqrt", ops::sqrt},         {"exp", ops::exp},     {"expm1", ops::expm1}, {"log", ops::log},
      {"log1p", ops::log1p},       {"log2", ops::log2},   {"log10", ops::log10}, {"sin", ops::sin},
      {"cos", ops::cos},           {"tan", ops::tan},     {"sinh", ops::sinh},   {"cosh", ops::cosh},
      {"tanh", ops::tanh},         {"floor", ops::floor}, {"ceil", ops::ceil},   {"round", ops::round}};
  return all;
}

// Lazy evaluation on and the checking mode off whatever the environment says (the suite also runs with
// EMBER_EAGER=1 and with EMBER_LAZY_VERIFY=1, whose extra eager evaluations would change allocation counts).
class Lazy : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    EMBER_REQUIRE_BACKEND(GetParam());
    ember::set_eager(false);
    ember::set_verify_fusion(false);
    ember::set_fusion_min_elements(1);
  }
  void TearDown() override {
    ember::set_eager(eager_);
    ember::set_verify_fusion(verify_);
    ember::set_fusion_min_elements(min_elements_);
  }
  ember::BackendScope scope_{GetParam()};
  const bool eager_ = ember::is_eager();
  const bool verify_ = ember::verifies_fusion();
  const std::int64_t min_elements_ = ember::fusion_min_elements();

  // Whether this backend fuses `op` on dtype (else the frontend runs it eagerly and nothing is pending).
  static bool fuses(ember::ElementOp op, DType dtype) {
    return ember::current_backend().fuses(op, dtype, dtype, ops::default_device());
  }
  static std::size_t allocations() { return ops::memory_info().allocations; }
};

TEST_P(Lazy, EveryBinaryOpAndDtypeMatchesEagerWithBroadcasting) {
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {{37}, {37}}, {{3, 1}, {1, 4}}, {{5}, {}}, {{}, {2, 3}}};
  for (DType dtype : ember::all_dtypes) {
    if (!ember::current_backend().supports_dtype(dtype, ops::default_device())) continue;
    for (const auto& [name, op] : binary_ops()) {
      for (const auto& [sa, sb] : shapes) {
        const Tensor a = concrete(dtype, sa, 1), b = concrete(dtype, sb, 2);
        EXPECT_TRUE(same_as_eager([&, op = op] { return op(a, b); }))
            << name << " on " << ops::dtype_name(dtype) << " " << ember::shape_str(sa) << " x "
            << ember::shape_str(sb);
        // The same op on pending operands: a fused program of three steps.
        EXPECT_TRUE(same_as_eager([&, op = op] { return op(ops::negative(a), ops::abs(b)); }))
            << name << " of pending operands on " << ops::dtype_name(dtype);
      }
    }
  }
}

TEST_P(Lazy, EveryUnaryOpAndDtypeMatchesEager) {
  for (DType dtype : ember::all_dtypes) {
    if (!ember::current_backend().supports_dtype(dtype, ops::default_device())) continue;
    const Tensor x = concrete(dtype, {64}, 3);
    for (const auto& [name, op] : unary_ops()) {
      EXPECT_TRUE(same_as_eager([&, op = op] { return op(x); })) << name << " on " << ops::dtype_name(dtype);
      EXPECT_TRUE(same_as_eager([&, op = op] { return op(ops::multiply(x, x)); }))
          << name << " of a pending product on " << ops::dtype_name(dtype);
    }
  }
}

TEST_P(Lazy, ChainsWithScalarsCastsAndSharedSubexpressionsMatchEager) {
  const Tensor x = concrete(DType::float32, {1000}, 4), y = concrete(DType::float32, {1000}, 5);
  const Tensor i = concrete(DType::int32, {1000}, 6), row = concrete(DType::float64, {1, 1000}, 7);
  // The benchmark's expression.
  EXPECT_TRUE(same_as_eager([&] {
    return ops::add(
        ops::exp(ops::negative(x)),
        ops::multiply(ops::sqrt(ops::add(ops::multiply(x, x), ops::multiply(ops::multiply(y, x), y))), 0.5));
  }));
  // Integer arithmetic promoted to float, scalar operands of several kinds, a cast in the middle.
  EXPECT_TRUE(same_as_eager([&] {
    const Tensor k = ops::add(ops::multiply(i, 3), 7);  // int32, wraps
    return ops::divide(ops::cast(k, DType::float32), ops::add(ops::abs(x), 1.5));
  }));
  // A shared subexpression used three times, float32 promoted to float64 through a broadcast row.
  EXPECT_TRUE(same_as_eager([&] {
    const Tensor s = ops::sin(ops::subtract(x, y));
    return ops::add(ops::multiply(s, s), ops::multiply(row, ops::cast(s, DType::float64)));
  }));
  // float16 steps round after every op.
  EXPECT_TRUE(same_as_eager([&] {
    const Tensor h = ops::cast(x, DType::float16);
    return ops::multiply(ops::add(h, ops::cast(y, DType::float16)), ops::exp(ops::divide(h, 16.0)));
  }));
}

TEST_P(Lazy, ElementWiseOpsArePendingUntilAValueIsNeeded) {
  if (!fuses(ember::ElementOp::add, DType::float32))
    GTEST_SKIP() << GetParam() << " does not fuse float32 add";
  const Tensor x = concrete(DType::float32, {10}, 8);
  const Tensor z = ops::add(ops::multiply(x, 2.0), 1.0);
  EXPECT_TRUE(z.pending());
  EXPECT_EQ(z.shape(), Shape{10});
  EXPECT_EQ(z.dtype(), DType::float32);
  // A non-fused op reads its operand and evaluates it; the result is kept for every copy.
  const Tensor copy = z;
  const Tensor total = ops::sum(z);
  EXPECT_FALSE(z.pending());
  EXPECT_FALSE(copy.pending());
  EXPECT_EQ(copy.buffer(), z.buffer());
  EXPECT_FALSE(total.pending());
  // eval() makes the choice explicit and returns the same storage.
  const Tensor w = ops::exp(x);
  EXPECT_TRUE(w.pending());
  const Tensor e = ember::eval(w);
  EXPECT_FALSE(w.pending());
  EXPECT_EQ(e.buffer(), w.buffer());
  // Errors of shapes and dtypes are not deferred.
  EXPECT_THROW(ops::add(x, concrete(DType::float32, {3}, 9)), ember::ShapeError);
  EXPECT_THROW(ops::add(ops::cast(x, DType::bool_), ops::cast(x, DType::bool_)), ember::DTypeError);
}

TEST_P(Lazy, EagerScopeAndSettingTurnDeferralOff) {
  if (!fuses(ember::ElementOp::add, DType::float32))
    GTEST_SKIP() << GetParam() << " does not fuse float32 add";
  const Tensor x = concrete(DType::float32, {10}, 10);
  {
    ember::EagerScope eager;
    EXPECT_TRUE(ember::is_eager());
    EXPECT_FALSE(ops::add(x, x).pending());
    {
      ember::EagerScope nested;
      EXPECT_FALSE(ops::exp(x).pending());
    }
    EXPECT_FALSE(ops::exp(x).pending());
  }
  EXPECT_TRUE(ops::add(x, x).pending());
  ember::set_eager(true);
  EXPECT_FALSE(ops::add(x, x).pending());
  // The setting is process-wide: other threads see it.
  bool other_thread_pending = true;
  std::thread([&] { other_thread_pending = ops::add(x, x).pending(); }).join();
  ember::set_eager(false);
  EXPECT_FALSE(other_thread_pending);
  EXPECT_FALSE(ember::is_eager());
  EXPECT_TRUE(ops::add(x, x).pending());
}

TEST_P(Lazy, AFusedChainAllocatesOnlyItsOutput) {
  if (!fuses(ember::ElementOp::add, DType::float32))
    GTEST_SKIP() << GetParam() << " does not fuse float32 add";
  const Tensor x = concrete(DType::float32, {1 << 16}, 11), y = concrete(DType::float32, {1 << 16}, 12);
  auto chain = [&] {  // eleven ops and two scalar operands
    Tensor t = ops::add(ops::multiply(x, y), 0.25);
    t = ops::sqrt(ops::abs(ops::subtract(t, y)));
    t = ops::exp(ops::negative(ops::multiply(t, 0.5)));
    return ops::maximum(ops::divide(t, ops::add(x, y)), x);
  };
  const std::size_t before = allocations();
  const Tensor lazy = ember::eval(chain());
  const std::size_t lazy_allocations = allocations() - before;
  std::size_t eager_allocations = 0;
  {
    ember::EagerScope eager;
    const std::size_t start = allocations();
    const Tensor e = chain();
    eager_allocations = allocations() - start;
    EXPECT_EQ(bytes_of(lazy), bytes_of(e));
  }
  EXPECT_EQ(lazy_allocations, 1u);
  EXPECT_EQ(eager_allocations, 13u);  // eleven results and two 0-d scalars
}

TEST_P(Lazy, LongChainsAndManyInputsAreSplitAtTheCaps) {
  if (!fuses(ember::ElementOp::add, DType::float32))
    GTEST_SKIP() << GetParam() << " does not fuse float32 add";
  // A chain deeper than kMaxFusedHeight evaluates its prefix on the way: the pending graph stays bounded.
  const Tensor x = concrete(DType::float32, {100}, 13);
  EXPECT_TRUE(same_as_eager([&] {
    Tensor t = x;
    for (int k = 0; k < 3 * ember::kMaxFusedHeight + 5; ++k) t = ops::add(ops::multiply(t, 0.5), x);
    return t;
  }));
  // A sum of more distinct tensors than kMaxFusedInputs.
  std::vector<Tensor> terms;
  for (unsigned k = 0; k < 3 * ember::kMaxFusedInputs; ++k)
    terms.push_back(concrete(DType::float32, {50}, 20 + k));
  EXPECT_TRUE(same_as_eager([&] {
    Tensor t = terms[0];
    for (std::size_t k = 1; k < terms.size(); ++k) t = ops::add(t, terms[k]);
    return t;
  }));
  // More distinct scalar operands than kMaxFusedConstants.
  EXPECT_TRUE(same_as_eager([&] {
    Tensor t = x;
    for (int k = 0; k < 3 * ember::kMaxFusedConstants; ++k) t = ops::add(t, 0.125 * k);
    return t;
  }));
}

TEST_P(Lazy, ViewsOfPendingTensorsAndReuseAcrossGraphs) {
  const Tensor x = concrete(DType::float32, {6}, 14);
  EXPECT_TRUE(same_as_eager([&] {
    const Tensor p = ops::exp(x);
    const Tensor m = ops::reshape(p, {2, 3});  // a view of a pending tensor
    return ops::add(ops::multiply(m, concrete(DType::float32, {2, 1}, 15)),
                    ops::reshape(ops::negative(p), {2, 3}));
  }));
  // One pending tensor in two graphs evaluated one after the other.
  const Tensor shared = ops::sqrt(ops::abs(x));
  const Tensor first = ember::eval(ops::add(shared, 1.0)),
               second = ember::eval(ops::multiply(shared, shared));
  ember::EagerScope eager;
  const Tensor s = ops::sqrt(ops::abs(x));
  EXPECT_EQ(bytes_of(first), bytes_of(ops::add(s, 1.0)));
  EXPECT_EQ(bytes_of(second), bytes_of(ops::multiply(s, s)));
}

TEST_P(Lazy, ConcurrentEvaluationOfOnePendingTensorEvaluatesOnce) {
  if (!fuses(ember::ElementOp::add, DType::float32))
    GTEST_SKIP() << GetParam() << " does not fuse float32 add";
  const Tensor x = concrete(DType::float32, {1 << 12}, 16);
  const Tensor z = ops::tanh(ops::add(ops::multiply(x, x), 1.0));
  const std::size_t before = allocations();
  std::vector<std::thread> threads;
  std::vector<std::vector<unsigned char>> results(4);
  for (std::size_t k = 0; k < results.size(); ++k) {
    threads.emplace_back([&, k] { results[k] = bytes_of(z); });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(allocations() - before, 1u);
  for (const auto& r : results) EXPECT_EQ(r, results[0]);
}

TEST_P(Lazy, VerifyModeComparesEveryFusedResultWithEager) {
  if (!fuses(ember::ElementOp::add, DType::float32))
    GTEST_SKIP() << GetParam() << " does not fuse float32 add";
  const Tensor x = concrete(DType::float32, {1 << 12}, 18);
  ember::set_verify_fusion(true);
  const std::size_t before = allocations();
  const Tensor z = ember::eval(ops::exp(ops::add(ops::multiply(x, x), 1.0)));
  // The fused output, then the eager check: three results and the scalar.
  EXPECT_EQ(allocations() - before, 5u);
  ember::set_verify_fusion(false);
}

TEST_P(Lazy, SmallResultsRunEagerly) {
  if (!fuses(ember::ElementOp::add, DType::float32))
    GTEST_SKIP() << GetParam() << " does not fuse float32 add";
  ember::set_fusion_min_elements(100);
  const Tensor small = concrete(DType::float32, {99}, 19), large = concrete(DType::float32, {100}, 19);
  EXPECT_FALSE(ops::add(small, small).pending());
  EXPECT_TRUE(ops::add(large, large).pending());
  // A small operand broadcast to a large result is deferred with it.
  EXPECT_TRUE(ops::add(large, concrete(DType::float32, {1}, 20)).pending());
  EXPECT_EQ(ember::fusion_min_elements(), 100);
}

TEST_P(Lazy, EvaluationReleasesTheGraph) {
  if (!fuses(ember::ElementOp::add, DType::float32))
    GTEST_SKIP() << GetParam() << " does not fuse float32 add";
  const std::size_t before = ops::memory_info().bytes_in_use;
  Tensor z;
  {
    const Tensor big = concrete(DType::float32, {1 << 16}, 17);
    z = ops::add(ops::exp(big), 1.0);
  }
  // The pending graph keeps its input alive...
  EXPECT_GE(ops::memory_info().bytes_in_use, before + (std::size_t{1} << 18));
  ember::eval(z);
  // ... and drops it once evaluated: only the result remains.
  EXPECT_EQ(ops::memory_info().bytes_in_use, before + (std::size_t{1} << 18));
}

INSTANTIATE_TEST_SUITE_P(Backends, Lazy, ::testing::Values("eigen", "blas", "opencl"),
                         ember::test::backend_param_name);

}  // namespace
