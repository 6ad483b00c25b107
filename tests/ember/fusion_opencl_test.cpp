// The OpenCL backend's fused element-wise kernels (backends/opencl/fusion_ops.cpp): lazy results are the
// eager ones byte for byte (every fused op and dtype, special values, broadcasting, shared subexpressions,
// scalar constants), one kernel is compiled per program structure whatever the shapes and constant values,
// and a fused chain allocates only its output. Skipped without an OpenCL device (backend_support.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

// emberlint: ignore-next-line[EL104] white-box test of the backend's kernel cache
#include "../../backends/opencl/build_stats.hpp"
#include "backend_support.hpp"
#include "ember/ember.hpp"

namespace {

using ember::DType;
using ember::Scalar;
using ember::Shape;
using ember::Tensor;
namespace ops = ember::ops;

using Binary = Tensor (*)(const Tensor&, const Tensor&);
using Unary = Tensor (*)(const Tensor&);

struct NamedBinary {
  const char* name;
  Binary f;
  bool float_only;
};
struct NamedUnary {
  const char* name;
  Unary f;
  bool float_only;
};

const NamedBinary kBinaryOps[] = {
    {"add", ops::add, false},
    {"subtract", ops::subtract, false},
    {"multiply", ops::multiply, false},
    {"divide", ops::divide, true},
    {"floor_divide", ops::floor_divide, false},
    {"mod", ops::mod, false},
    {"power", ops::power, false},
    {"minimum", ops::minimum, false},
    {"maximum", ops::maximum, false},
};
const NamedUnary kUnaryOps[] = {
    {"negative", ops::negative, false},
    {"abs", ops::abs, false},
    {"sign", ops::sign, false},
    {"square", ops::square, false},
    {"sqrt", ops::sqrt, true},
    {"exp", ops::exp, true},
    {"expm1", ops::expm1, true},
    {"log", ops::log, true},
    {"log1p", ops::log1p, true},
    {"log2", ops::log2, true},
    {"log10", ops::log10, true},
    {"sin", ops::sin, true},
    {"cos", ops::cos, true},
    {"tan", ops::tan, true},
    {"sinh", ops::sinh, true},
    {"cosh", ops::cosh, true},
    {"tanh", ops::tanh, true},
    {"floor", ops::floor, false},
    {"ceil", ops::ceil, false},
    {"round", ops::round, false},
};

const DType kFloatDTypes[] = {DType::float16, DType::float32, DType::float64};
const DType kIntDTypes[] = {DType::uint8, DType::int8, DType::int16, DType::int32, DType::int64};

// float64 needs cl_khr_fp64.
bool supported(DType d) {
  return ember::current_backend().supports_dtype(d, ops::default_device());
}

bool is_float(DType d) {
  return d == DType::float16 || d == DType::float32 || d == DType::float64;
}

// The tensor's bytes as the device holds them (evaluated first if pending).
std::vector<unsigned char> bytes_of(const Tensor& x) {
  const Tensor v = ember::eval(x);
  std::vector<unsigned char> out(v.nbytes());
  v.backend().to_host(v, out.data());
  return out;
}

// Index of the first differing element, or -1.
std::int64_t first_difference(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b,
                              std::size_t itemsize) {
  if (a.size() != b.size()) return 0;
  for (std::size_t i = 0; i < a.size(); i += itemsize) {
    if (std::memcmp(a.data() + i, b.data() + i, itemsize) != 0)
      return static_cast<std::int64_t>(i / itemsize);
  }
  return -1;
}

// `n` values of dtype d as a tensor of `shape`: special values first (NaN, +-inf, +-0, huge, tiny, halves
// for rounding; integer min/max, 0, +-1), then random ones.
template <class T>
Tensor values_of(const Shape& shape, std::uint32_t seed) {
  const std::int64_t n = ember::shape_numel(shape);
  std::vector<T> v;
  std::mt19937_64 rng(seed);
  if constexpr (std::is_floating_point_v<T>) {
    using L = std::numeric_limits<T>;
    v = {L::quiet_NaN(), -L::quiet_NaN(), L::infinity(),   -L::infinity(), T(0),      -T(0),   T(1),
         T(-1),          T(0.5),          T(-0.5),         T(1.5),         T(2.5),    T(-2.5), L::max(),
         L::lowest(),    L::min(),        L::denorm_min(), T(88.7),        T(-745.2), T(3),    T(-7),
         T(1e-3)};
    std::uniform_real_distribution<double> dist(-10.0, 10.0);
    while (static_cast<std::int64_t>(v.size()) < n) v.push_back(static_cast<T>(dist(rng)));
  } else {
    using L = std::numeric_limits<T>;
    v = {L::min(), L::max(), T(0), T(1), T(2), T(3), static_cast<T>(L::max() - 1)};
    if constexpr (std::is_signed_v<T>) {
      v.insert(v.end(), {T(-1), T(-2), T(-3), static_cast<T>(L::min() + 1)});
    }
    std::uniform_int_distribution<std::int64_t> dist(L::min(), L::max());
    while (static_cast<std::int64_t>(v.size()) < n) v.push_back(static_cast<T>(dist(rng)));
  }
  v.resize(static_cast<std::size_t>(n));
  std::shuffle(v.begin(), v.end(), rng);
  return ops::from_data(v, shape);
}

// Values of dtype d (float16 via float32 values: the cast rounds them, specials included).
Tensor random_tensor(DType d, const Shape& shape, std::uint32_t seed) {
  ember::EagerScope eager;  // inputs are plain tensors, not pending casts
  switch (d) {
    case DType::uint8:
      return values_of<std::uint8_t>(shape, seed);
    case DType::int8:
      return values_of<std::int8_t>(shape, seed);
    case DType::int16:
      return values_of<std::int16_t>(shape, seed);
    case DType::int32:
      return values_of<std::int32_t>(shape, seed);
    case DType::int64:
      return values_of<std::int64_t>(shape, seed);
    case DType::float16:
      return ops::cast(values_of<float>(shape, seed), DType::float16);
    case DType::float32:
      return values_of<float>(shape, seed);
    default:
      return values_of<double>(shape, seed);
  }
}

class FusionOpenCL : public ::testing::Test {
 protected:
  void SetUp() override {
    EMBER_REQUIRE_BACKEND("opencl");
    scope_.emplace("opencl");
    saved_eager_ = ember::is_eager();
    saved_min_elements_ = ember::fusion_min_elements();
    ember::set_eager(false);            // lazy, whatever EMBER_EAGER says
    ember::set_fusion_min_elements(0);  // small tensors fuse too
  }
  void TearDown() override {
    ember::set_eager(saved_eager_);
    ember::set_fusion_min_elements(saved_min_elements_);
  }

  // Runs f lazily (its result must be pending: fused) and eagerly and compares the bytes.
  void expect_fused_matches_eager(const std::string& what, const std::function<Tensor()>& f) {
    Tensor eager;
    {
      ember::EagerScope scope;
      eager = f();
    }
    const Tensor lazy = f();
    EXPECT_TRUE(lazy.pending()) << what << ": not fused";
    const auto got = bytes_of(lazy), want = bytes_of(eager);
    ASSERT_EQ(lazy.dtype(), eager.dtype()) << what;
    ASSERT_EQ(lazy.shape(), eager.shape()) << what;
    const std::int64_t at = first_difference(got, want, eager.itemsize());
    EXPECT_EQ(at, -1) << what << ": element " << at << " differs (lazy " << ops::to_host<double>(lazy)[at]
                      << ", eager " << ops::to_host<double>(eager)[at] << ")";
  }

  std::optional<ember::BackendScope> scope_;
  bool saved_eager_ = false;
  std::int64_t saved_min_elements_ = 0;
};

const Shape kShape{37, 111};  // 4107 elements: not a multiple of any work-group size
// ... and 4096, a multiple of every one: the dense kernel then runs without its bounds test
// ("fused_dense_exact").
const Shape kShapes[] = {kShape, {32, 128}};

TEST_F(FusionOpenCL, BinaryOpsMatchEagerForEveryDType) {
  std::vector<DType> dtypes(std::begin(kFloatDTypes), std::end(kFloatDTypes));
  dtypes.insert(dtypes.end(), std::begin(kIntDTypes), std::end(kIntDTypes));
  for (DType d : dtypes) {
    if (!supported(d)) continue;
    for (const Shape& shape : kShapes) {
      const Tensor a = random_tensor(d, shape, 1), b = random_tensor(d, shape, 2);
      for (const NamedBinary& op : kBinaryOps) {
        if (op.float_only && !is_float(d)) continue;
        // Two steps, so the first one's result is an intermediate of the kernel.
        expect_fused_matches_eager(
            std::string(op.name) + " " + ops::dtype_name(d) + " " + ember::shape_str(shape),
            [&] { return op.f(op.f(a, b), b); });
      }
    }
  }
}

TEST_F(FusionOpenCL, UnaryOpsMatchEagerForEveryDType) {
  std::vector<DType> dtypes(std::begin(kFloatDTypes), std::end(kFloatDTypes));
  dtypes.insert(dtypes.end(), std::begin(kIntDTypes), std::end(kIntDTypes));
  for (DType d : dtypes) {
    if (!supported(d)) continue;
    for (const Shape& shape : kShapes) {
      const Tensor x = random_tensor(d, shape, 3);
      for (const NamedUnary& op : kUnaryOps) {
        if (op.float_only && !is_float(d)) continue;
        // The op, then an add that reads its result as an intermediate.
        expect_fused_matches_eager(
            std::string(op.name) + " " + ops::dtype_name(d) + " " + ember::shape_str(shape),
            [&] { return ops::add(op.f(x), x); });
      }
    }
  }
}

TEST_F(FusionOpenCL, BroadcastInputsMatchEager) {
  for (DType d : {DType::float32, DType::float16, DType::int32}) {
    const Tensor col = random_tensor(d, {3, 1}, 4), row = random_tensor(d, {1, 4}, 5);
    const Tensor scalar = random_tensor(d, {}, 6), one = random_tensor(d, {1, 1}, 7);
    const Tensor cube = random_tensor(d, {2, 3, 4}, 8), vec = random_tensor(d, {4}, 9);
    const std::string name = ops::dtype_name(d);
    expect_fused_matches_eager("col x row " + name,
                               [&] { return ops::subtract(ops::multiply(col, row), col); });
    expect_fused_matches_eager("0-d " + name, [&] { return ops::add(ops::multiply(row, scalar), scalar); });
    expect_fused_matches_eager("(1,1) " + name, [&] { return ops::maximum(ops::negative(col), one); });
    expect_fused_matches_eager("3-d " + name,
                               [&] { return ops::add(ops::multiply(cube, col), ops::subtract(vec, row)); });
    expect_fused_matches_eager("0-d only " + name, [&] { return ops::square(ops::add(scalar, scalar)); });
  }
}

// Broadcast shapes that the kernels run as rows x columns without per-element division (layout.hpp's
// RowsView: rows of at least 32 elements, each operand broadcast along all or none of each side's axes),
// and one that falls back to broadcast strides: fused and eager results equal those of the same op on
// operands broadcast_to the output's shape first (no broadcasting in the op at all).
TEST_F(FusionOpenCL, BroadcastRowsMatchMaterializedOperands) {
  const std::vector<std::pair<Shape, Shape>> cases = {
      {{3, 64}, {64}},           // b along the rows
      {{64, 1}, {1, 64}},        // a along the columns, b along the rows
      {{2, 3, 40}, {2, 1, 1}},   // b along the columns of 120-element rows
      {{37, 111}, {37, 1}},      // rows not a multiple of any work-group size
      {{1, 40}, {5, 1, 40}},     // a along the rows of a 3-d output
      {{5, 1, 40}, {1, 3, 40}},  // no split fits: broadcast strides
      {{}, {3, 64}},             // a single element
  };
  using Op = Tensor (*)(const Tensor&, const Tensor&);
  const std::pair<const char*, Op> kOps[] = {{"subtract", ops::subtract},
                                             {"floor_divide", ops::floor_divide}};
  for (DType d : {DType::float32, DType::float16, DType::int32, DType::uint8}) {
    std::uint32_t seed = 40;
    for (const auto& [sa, sb] : cases) {
      const Tensor a = random_tensor(d, sa, seed++), b = random_tensor(d, sb, seed++);
      for (const auto& [name, f] : kOps) {
        const std::string what = std::string(name) + " " + ember::shape_str(sa) + " " + ember::shape_str(sb) +
                                 " " + ops::dtype_name(d);
        Tensor want;
        {
          ember::EagerScope eager;
          const Shape out = ember::broadcast_shapes(sa, sb, name);
          want = f(ops::broadcast_to(a, out), ops::broadcast_to(b, out));
        }
        expect_fused_matches_eager(what, [&, f = f] { return f(a, b); });
        const Tensor lazy = f(a, b);
        const std::int64_t at = first_difference(bytes_of(lazy), bytes_of(want), want.itemsize());
        EXPECT_EQ(at, -1) << what << ": element " << at << " differs from the materialized operands' result";
      }
    }
  }
}

TEST_F(FusionOpenCL, SharedSubexpressionsAndConstantsMatchEager) {
  for (DType d : {DType::float32, DType::float64, DType::float16}) {
    if (!supported(d)) continue;
    const Tensor x = random_tensor(d, kShape, 10), y = random_tensor(d, kShape, 11);
    const std::string name = ops::dtype_name(d);
    expect_fused_matches_eager("shared " + name, [&] {
      const Tensor t = ops::multiply(x, y);
      return ops::subtract(ops::add(t, ops::exp(t)), ops::multiply(t, t));
    });
    expect_fused_matches_eager("constants " + name, [&] {
      const Tensor t = ops::add(ops::multiply(x, Scalar(0.1)), Scalar(1e30));
      return ops::power(ops::subtract(ops::divide(t, Scalar(-0.0)), Scalar(1e-50)), Scalar(2));
    });
    expect_fused_matches_eager("nan constant " + name, [&] {
      return ops::multiply(ops::add(x, Scalar(std::numeric_limits<double>::quiet_NaN())), Scalar(3));
    });
    expect_fused_matches_eager("issue expression " + name, [&] {
      const Tensor s = ops::sqrt(ops::add(ops::multiply(x, x), ops::multiply(ops::multiply(y, x), y)));
      return ops::add(ops::exp(ops::negative(x)), ops::multiply(s, Scalar(0.5)));
    });
  }
  for (DType d : kIntDTypes) {
    const Tensor x = random_tensor(d, kShape, 12);
    expect_fused_matches_eager(std::string("int constants ") + ops::dtype_name(d), [&] {
      return ops::multiply(ops::add(ops::power(x, Scalar(3)), Scalar(100)), Scalar(-7));
    });
  }
}

TEST_F(FusionOpenCL, OneKernelPerStructure) {
  // emberlint: ignore-next-line[EL104] the build counter of the kernel cache under test
  const auto built = [] { return ember::opencl::generated_programs_built(); };
  // A structure no other test uses: log1p(cosh(x) * c) - x in float32.
  const auto program = [](const Tensor& x, double c) {
    return ops::subtract(ops::log1p(ops::multiply(ops::cosh(x), Scalar(c))), x);
  };
  const std::size_t before = built();
  const Tensor a = random_tensor(DType::float32, {5}, 13), b = random_tensor(DType::float32, {7, 3}, 14);
  ember::eval(program(a, 0.25));
  EXPECT_EQ(built() - before, 1u);
  ember::eval(program(b, 2.5));  // another shape and constant value: the same kernel
  ember::eval(program(random_tensor(DType::float32, {}, 15), -1.0));
  EXPECT_EQ(built() - before, 1u);
  ember::eval(ops::add(program(a, 0.5), a));  // another structure
  EXPECT_EQ(built() - before, 2u);
}

TEST_F(FusionOpenCL, SourceTextIsWrittenOncePerStructure) {
  // emberlint: ignore-next-line[EL104] the source counter of the kernel cache under test
  const auto written = [] { return ember::opencl::fused_sources_written(); };
  // A structure no other test uses: tanh(x) * x + c in float32.
  const auto program = [](const Tensor& x, double c) {
    return ops::add(ops::multiply(ops::tanh(x), x), Scalar(c));
  };
  const Tensor a = random_tensor(DType::float32, {6}, 16);
  ember::eval(program(a, 1.0));
  const std::size_t after_first = written();
  for (int i = 0; i < 5; ++i) {
    ember::eval(program(random_tensor(DType::float32, {3, i + 1}, 17), 0.5 * i));
  }
  EXPECT_EQ(written(), after_first) << "a cached program's text was written again";
}

// The device's buffer cache (runtime.hpp's BufferCache) hands a freed buffer to the next allocation of its
// size while kernels that read it may still be queued: the in-order queue must run them first, and the new
// tensor must hold only its own values.
TEST_F(FusionOpenCL, FreedBuffersAreReusedInQueueOrder) {
  ember::EagerScope eager;  // every op enqueued at once
  const ember::Shape shape{70000};
  std::vector<Tensor> results;
  for (int i = 0; i < 8; ++i) {
    Tensor x = ops::full(shape, i, DType::float32);
    results.push_back(ops::multiply(ops::add(x, 1.0), 3.0));  // reads x later on the queue
    x = Tensor();                                             // x's buffer is free for the next full()
    const Tensor filler = ops::full(shape, -100.0, DType::float32);
    EXPECT_EQ(ops::to_host<float>(filler)[69999], -100.0f);
  }
  for (int i = 0; i < 8; ++i) {
    const std::vector<float> got = ops::to_host<float>(results[static_cast<std::size_t>(i)]);
    const float want = static_cast<float>((i + 1) * 3);
    EXPECT_EQ(std::count(got.begin(), got.end(), want), 70000) << "result " << i;
  }
}

TEST_F(FusionOpenCL, FusedChainAllocatesOnlyItsOutput) {
  const Tensor x = random_tensor(DType::float32, {1000}, 16);
  const auto chain = [&] {  // ten ops on tensors only
    Tensor t = ops::negative(x);
    t = ops::exp(t);
    t = ops::add(t, x);
    t = ops::square(t);
    t = ops::multiply(t, x);
    t = ops::abs(t);
    t = ops::sqrt(t);
    t = ops::subtract(t, x);
    t = ops::tanh(t);
    return ops::sin(t);
  };
  const auto allocations = [&] { return ops::memory_info(x.device()).allocations; };
  // EMBER_LAZY_VERIFY=1 would also run every fused chain eagerly: off for this count.
  const bool verify = ember::verifies_fusion();
  ember::set_verify_fusion(false);
  std::size_t before = allocations();
  const Tensor lazy = ember::eval(chain());
  EXPECT_EQ(allocations() - before, 1u);
  std::vector<unsigned char> eager_bytes;
  {
    ember::EagerScope scope;
    before = allocations();
    const Tensor eager = chain();
    EXPECT_EQ(allocations() - before, 10u);
    eager_bytes = bytes_of(eager);
  }
  ember::set_verify_fusion(verify);
  EXPECT_EQ(bytes_of(lazy), eager_bytes);
}

}  // namespace
