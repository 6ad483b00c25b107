// Semantic and edge-case tests of the tensor ops (creation, views, joining, slicing, indexing, sorting),
// run on every registered backend. NumPy golden values for the ordinary cases live in golden_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "backend_support.hpp"
#include "ember/ember.hpp"

namespace {

using ember::DType;
using ember::Shape;
using ember::Tensor;
namespace ops = ember::ops;

class TensorOps : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { EMBER_REQUIRE_BACKEND(GetParam()); }
  ember::BackendScope scope_{GetParam()};
};

Tensor ints(const std::vector<std::int64_t>& v, const Shape& shape) {
  return ops::from_data(v, shape);
}
Tensor doubles(const std::vector<double>& v, const Shape& shape) {
  return ops::from_data(v, shape);
}
Tensor iota(const Shape& shape) {
  return ops::reshape(ops::arange(ember::shape_numel(shape)), shape);
}

TEST_P(TensorOps, CreationUsesTheCurrentBackendAndDtypes) {
  const Tensor z = ops::zeros({2, 3}, DType::int16);
  EXPECT_EQ(z.backend_name(), GetParam());
  EXPECT_EQ(z.dtype(), DType::int16);
  EXPECT_EQ(ops::to_host<std::int16_t>(z), std::vector<std::int16_t>(6, 0));
  EXPECT_EQ(ops::full({2}, 2.5).dtype(), DType::float64);
  EXPECT_EQ(ops::full({2}, true).dtype(), DType::bool_);
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::full({3}, 7)), (std::vector<std::int64_t>{7, 7, 7}));
  EXPECT_EQ(ops::to_host<float>(ops::eye(2, 3, 1)), (std::vector<float>{0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(ops::to_host<float>(ops::eye(3, 2, -2)), (std::vector<float>{0, 0, 0, 0, 1, 0}));
  EXPECT_EQ(ops::ones_like(z, DType::float32).dtype(), DType::float32);
}

TEST_P(TensorOps, ArangeLengthsAndDtypes) {
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::arange(5)), (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::arange(5, 0, -2)), (std::vector<std::int64_t>{5, 3, 1}));
  EXPECT_EQ(ops::arange(0.0, 1.0, 0.25).dtype(), DType::float64);
  EXPECT_EQ(ops::arange(0.0, 1.0, 0.25).size(), 4);
  EXPECT_EQ(ops::arange(3, 1).size(), 0);
  EXPECT_THROW(ops::arange(0, 4, 0), ember::ValueError);
  EXPECT_THROW(ops::arange(0.0, std::numeric_limits<double>::infinity()), ember::ValueError);
  const auto l = ops::to_host<double>(ops::linspace(0, 1, 5));
  EXPECT_EQ(l.back(), 1.0);
  EXPECT_DOUBLE_EQ(l[1], 0.25);
  EXPECT_EQ(ops::linspace(0, 1, 4, false).size(), 4);
  EXPECT_THROW(ops::linspace(0, 1, -1), ember::ValueError);
}

TEST_P(TensorOps, FromDataChecksTheElementCount) {
  EXPECT_THROW(ops::from_data(std::vector<float>{1, 2, 3}, {2, 2}), ember::ShapeError);
  EXPECT_THROW(ops::from_data(std::vector<float>{1}, {-1}), ember::ShapeError);
  const bool flags[] = {true, false, true};
  const Tensor b = ops::from_data(std::span<const bool>(flags), {3});
  EXPECT_EQ(b.dtype(), DType::bool_);
  EXPECT_EQ(ops::to_host<bool>(b), (std::vector<bool>{true, false, true}));
  EXPECT_EQ(ops::to_host<std::int32_t>(b), (std::vector<std::int32_t>{1, 0, 1}));
  const std::int32_t raw[] = {4, 5};
  EXPECT_THROW(ops::from_bytes(raw, sizeof raw, {3}, DType::int32), ember::ShapeError);
  EXPECT_EQ(ops::to_host<std::int32_t>(ops::from_bytes(raw, sizeof raw, {2}, DType::int32)),
            (std::vector<std::int32_t>{4, 5}));
}

TEST_P(TensorOps, ToHostConvertsWithCastSemantics) {
  const Tensor x = doubles({1.75, -2.5, std::nan(""), 1e300}, {4});
  EXPECT_EQ(ops::to_host<std::int32_t>(x),
            (std::vector<std::int32_t>{1, -2, 0, std::numeric_limits<std::int32_t>::max()}));
  const auto h = ops::to_host<ember::half>(doubles({0.5}, {1}));
  EXPECT_EQ(static_cast<float>(h[0]), 0.5f);
}

TEST_P(TensorOps, ItemNeedsExactlyOneElement) {
  EXPECT_EQ(ops::item<double>(doubles({2.5}, {1, 1})), 2.5);
  EXPECT_EQ(ops::item(ops::full({}, 3)).as_int(), 3);
  EXPECT_TRUE(ops::item(ops::full({}, true)).is_bool());
  EXPECT_THROW(ops::item(ops::zeros({2})), ember::ShapeError);
  EXPECT_THROW(ops::item(ops::zeros({0})), ember::ShapeError);
}

TEST_P(TensorOps, ReshapeInfersOneDimensionAndSharesStorage) {
  const Tensor x = iota({2, 6});
  const Tensor r = ops::reshape(x, {3, -1});
  EXPECT_EQ(r.shape(), (Shape{3, 4}));
  EXPECT_EQ(r.buffer(), x.buffer());
  EXPECT_EQ(ops::reshape(x, {-1}).shape(), (Shape{12}));
  EXPECT_EQ(ops::reshape(ops::zeros({0, 3}), {3, 0}).shape(), (Shape{3, 0}));
  EXPECT_THROW(ops::reshape(x, {-1, -1}), ember::ShapeError);
  EXPECT_THROW(ops::reshape(x, {5, -1}), ember::ShapeError);
  EXPECT_THROW(ops::reshape(x, {-2, 6}), ember::ShapeError);
  EXPECT_THROW(ops::reshape(x, {13}), ember::ShapeError);
  EXPECT_THROW(ops::reshape(ops::zeros({0}), {0, -1}), ember::ShapeError);
  EXPECT_EQ(ops::reshape(ops::full({1}, 4), {}).shape(), (Shape{}));
}

TEST_P(TensorOps, TransposePermutesAndValidatesAxes) {
  const Tensor x = iota({2, 3, 4});
  const Tensor t = ops::transpose(x, std::vector<std::int64_t>{1, -1, 0});
  EXPECT_EQ(t.shape(), (Shape{3, 4, 2}));
  // t[i, j, k] == x[k, i, j]
  const auto tv = ops::to_host<std::int64_t>(t);
  EXPECT_EQ(tv[(1 * 4 + 2) * 2 + 1], (1 * 3 + 1) * 4 + 2);
  EXPECT_EQ(ops::transpose(x).shape(), (Shape{4, 3, 2}));
  EXPECT_THROW(ops::transpose(x, std::vector<std::int64_t>{0, 1}), ember::ShapeError);
  EXPECT_THROW(ops::transpose(x, std::vector<std::int64_t>{0, 0, 1}), ember::ShapeError);
  EXPECT_THROW(ops::transpose(x, std::vector<std::int64_t>{0, 1, 3}), ember::ShapeError);
  EXPECT_EQ(ops::transpose(ops::full({}, 1.0)).shape(), (Shape{}));
}

TEST_P(TensorOps, ExpandSqueezeFlatten) {
  const Tensor x = ops::zeros({2, 1, 3, 1});
  EXPECT_EQ(ops::expand_dims(x, 0).shape(), (Shape{1, 2, 1, 3, 1}));
  EXPECT_EQ(ops::expand_dims(x, -1).shape(), (Shape{2, 1, 3, 1, 1}));
  EXPECT_THROW(ops::expand_dims(x, 6), ember::ShapeError);
  EXPECT_EQ(ops::squeeze(x).shape(), (Shape{2, 3}));
  EXPECT_EQ(ops::squeeze(x, std::vector<std::int64_t>{-1}).shape(), (Shape{2, 1, 3}));
  EXPECT_THROW(ops::squeeze(x, std::vector<std::int64_t>{0}), ember::ShapeError);
  EXPECT_THROW(ops::squeeze(x, std::vector<std::int64_t>{4}), ember::ShapeError);
  EXPECT_EQ(ops::squeeze(ops::zeros({1, 1})).shape(), (Shape{}));
  EXPECT_EQ(ops::flatten(ops::full({}, 1)).shape(), (Shape{1}));
}

TEST_P(TensorOps, BroadcastToFollowsNumPy) {
  const Tensor x = ints({1, 2, 3}, {3, 1});
  const Tensor b = ops::broadcast_to(x, {2, 3, 2});
  EXPECT_EQ(ops::to_host<std::int64_t>(b), (std::vector<std::int64_t>{1, 1, 2, 2, 3, 3, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(ops::broadcast_to(x, {3, 0}).size(), 0);
  EXPECT_THROW(ops::broadcast_to(x, {2, 2}), ember::ShapeError);
  EXPECT_THROW(ops::broadcast_to(x, {3}), ember::ShapeError);
}

TEST_P(TensorOps, ConcatenatePromotesAndNamesTheBadInput) {
  const Tensor a = ints({1, 2}, {1, 2});
  const Tensor b = ops::ones({2, 2}, DType::float32);
  const Tensor c = ops::concatenate({a, b});
  EXPECT_EQ(c.dtype(), DType::float64);
  EXPECT_EQ(ops::to_host<double>(c), (std::vector<double>{1, 2, 1, 1, 1, 1}));
  EXPECT_EQ(ops::concatenate({a, ops::zeros({1, 0}, DType::int64)}, -1).shape(), (Shape{1, 2}));
  try {
    ops::concatenate({a, a, ops::zeros({1, 3}, DType::int64)}, 0);
    FAIL() << "expected ShapeError";
  } catch (const ember::ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("input 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(ops::concatenate({}), ember::ValueError);
  EXPECT_THROW(ops::concatenate({ops::full({}, 1)}), ember::ShapeError);
  EXPECT_THROW(ops::concatenate({a, a}, 2), ember::ShapeError);
}

TEST_P(TensorOps, StackAddsAnAxis) {
  const Tensor a = ints({1, 2}, {2}), b = ints({3, 4}, {2});
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::stack({a, b}, 1)), (std::vector<std::int64_t>{1, 3, 2, 4}));
  EXPECT_EQ(ops::stack({a, b}, -1).shape(), (Shape{2, 2}));
  EXPECT_THROW(ops::stack({a, ints({1}, {1})}), ember::ShapeError);
  EXPECT_THROW(ops::stack({a, b}, 3), ember::ShapeError);
}

TEST_P(TensorOps, SplitBySectionsAndIndices) {
  const Tensor x = iota({6, 2});
  const auto parts = ops::split(x, 3);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(ops::to_host<std::int64_t>(parts[1]), (std::vector<std::int64_t>{4, 5, 6, 7}));
  EXPECT_THROW(ops::split(x, 4), ember::ShapeError);
  EXPECT_THROW(ops::split(x, 0), ember::ValueError);
  EXPECT_THROW(ops::split(x, 2, 2), ember::ShapeError);
  // Like np.array_split with a list: clamped, and empty where indices go backwards.
  const auto pieces = ops::split(x, std::vector<std::int64_t>{1, 10, 3}, 0);
  ASSERT_EQ(pieces.size(), 4u);
  EXPECT_EQ(pieces[0].shape(), (Shape{1, 2}));
  EXPECT_EQ(pieces[1].shape(), (Shape{5, 2}));
  EXPECT_EQ(pieces[2].shape(), (Shape{0, 2}));
  EXPECT_EQ(pieces[3].shape(), (Shape{3, 2}));
  const auto neg = ops::split(x, std::vector<std::int64_t>{-2}, 0);
  EXPECT_EQ(neg[0].shape(), (Shape{4, 2}));
  EXPECT_EQ(neg[1].shape(), (Shape{2, 2}));
}

TEST_P(TensorOps, TileFollowsNumPyRankRules) {
  const Tensor x = ints({1, 2}, {2});
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::tile(x, {2})), (std::vector<std::int64_t>{1, 2, 1, 2}));
  const Tensor t = ops::tile(x, {2, 1});
  EXPECT_EQ(t.shape(), (Shape{2, 2}));
  EXPECT_EQ(ops::tile(ops::zeros({2, 3}), {2}).shape(), (Shape{2, 6}));
  EXPECT_EQ(ops::tile(x, {0}).shape(), (Shape{0}));
  EXPECT_THROW(ops::tile(x, {-1}), ember::ValueError);
}

TEST_P(TensorOps, PadModes) {
  const Tensor x = ints({1, 2, 3}, {3});
  using ember::PadMode;
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::pad(x, {{2, 1}}, PadMode::constant, 9)),
            (std::vector<std::int64_t>{9, 9, 1, 2, 3, 9}));
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::pad(x, {{2, 1}}, PadMode::edge)),
            (std::vector<std::int64_t>{1, 1, 1, 2, 3, 3}));
  // np.pad([1, 2, 3], (5, 4), 'reflect')
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::pad(x, {{5, 4}}, PadMode::reflect)),
            (std::vector<std::int64_t>{2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3}));
  // An extent-1 axis reflects as its edge.
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::pad(ints({7}, {1}), {{2, 1}}, PadMode::reflect)),
            (std::vector<std::int64_t>{7, 7, 7, 7}));
  const Tensor m = ops::pad(iota({2, 2}), {{1, 0}, {0, 1}}, PadMode::edge);
  EXPECT_EQ(ops::to_host<std::int64_t>(m), (std::vector<std::int64_t>{0, 1, 1, 0, 1, 1, 2, 3, 3}));
  EXPECT_THROW(ops::pad(x, {{-1, 0}}), ember::ValueError);
  EXPECT_THROW(ops::pad(iota({2, 2}), {{1, 0}, {0, 1}, {1, 1}}), ember::ShapeError);
  EXPECT_THROW(ops::pad(ops::zeros({0}), {{1, 1}}, PadMode::edge), ember::ValueError);
  EXPECT_EQ(ops::pad(ops::zeros({0}), {{1, 1}}).size(), 2);
}

// Large strided copies: slices of steps 1, 2, 3 and -1 along the last axis of a 3-D tensor, big enough that
// the host backends split the rows over threads (each thread's first row then starts inside the index), in
// int64 and float32 (8- and 4-byte elements).
TEST_P(TensorOps, LargeSlicesCopyEveryElement) {
  using S = ops::Slice;
  constexpr std::int64_t kA = 3, kB = 300, kC = 1001;
  const Tensor x = iota({kA, kB, kC});
  struct Case {
    std::int64_t b0, sb, nb, c0, sc, nc;
  };
  for (const Case& c : {Case{1, 1, kB - 2, 0, 2, (kC + 1) / 2}, Case{0, 2, kB / 2, 5, 1, 900},
                        Case{0, 1, kB, 0, 3, (kC + 2) / 3}, Case{0, 1, kB, kC - 1, -1, kC}}) {
    const std::vector<S> slices{
        S{}, S{c.b0, c.b0 + c.sb * c.nb, c.sb},
        S{c.c0, c.sc > 0 ? std::optional<std::int64_t>(c.c0 + c.sc * c.nc) : std::nullopt, c.sc}};
    const std::vector<std::int64_t> got = ops::to_host<std::int64_t>(ops::copy(ops::slice(x, slices)));
    const std::vector<float> got32 =
        ops::to_host<float>(ops::copy(ops::slice(ops::cast(x, DType::float32), slices)));
    ASSERT_EQ(got.size(), static_cast<std::size_t>(kA * c.nb * c.nc));
    ASSERT_EQ(got32.size(), got.size());
    for (std::int64_t a = 0, k = 0; a < kA; ++a) {
      for (std::int64_t b = 0; b < c.nb; ++b) {
        for (std::int64_t j = 0; j < c.nc; ++j, ++k) {
          const std::int64_t want = (a * kB + c.b0 + b * c.sb) * kC + c.c0 + j * c.sc;
          ASSERT_EQ(got[static_cast<std::size_t>(k)], want) << a << " " << b << " " << j;
          ASSERT_EQ(got32[static_cast<std::size_t>(k)], static_cast<float>(want))
              << a << " " << b << " " << j;
        }
      }
    }
  }
}

TEST_P(TensorOps, SliceClampsAndSupportsNegativeSteps) {
  const Tensor x = ops::arange(10);
  using S = ops::Slice;
  auto sl = [&](S s) { return ops::to_host<std::int64_t>(ops::slice(x, {s})); };
  EXPECT_EQ(sl({2, 5, 1}), (std::vector<std::int64_t>{2, 3, 4}));
  EXPECT_EQ(sl({-3, std::nullopt, 1}), (std::vector<std::int64_t>{7, 8, 9}));
  EXPECT_EQ(sl({std::nullopt, std::nullopt, -3}), (std::vector<std::int64_t>{9, 6, 3, 0}));
  EXPECT_EQ(sl({8, 2, -2}), (std::vector<std::int64_t>{8, 6, 4}));
  EXPECT_EQ(sl({100, -100, -4}), (std::vector<std::int64_t>{9, 5, 1}));
  EXPECT_EQ(sl({-100, 100, 4}), (std::vector<std::int64_t>{0, 4, 8}));
  EXPECT_TRUE(sl({5, 2, 1}).empty());
  EXPECT_TRUE(sl({2, 5, -1}).empty());
  EXPECT_EQ(sl({3, std::nullopt, std::numeric_limits<std::int64_t>::min()}), (std::vector<std::int64_t>{3}));
  EXPECT_THROW(ops::slice(x, {S{0, 1, 0}}), ember::ValueError);
  EXPECT_THROW(ops::slice(x, {S{}, S{}}), ember::ShapeError);
  const Tensor m = ops::slice(iota({3, 4}), {S{}, S{std::nullopt, std::nullopt, -2}});
  EXPECT_EQ(ops::to_host<std::int64_t>(m), (std::vector<std::int64_t>{3, 1, 7, 5, 11, 9}));
}

TEST_P(TensorOps, GatherIndexing) {
  const Tensor x = iota({2, 3});
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::gather(x, ints({5, -1, 0}, {3}))),
            (std::vector<std::int64_t>{5, 5, 0}));
  const Tensor cols = ops::gather(x, ops::from_data(std::vector<std::int8_t>{2, -3}, {2}), 1);
  EXPECT_EQ(ops::to_host<std::int64_t>(cols), (std::vector<std::int64_t>{2, 0, 5, 3}));
  EXPECT_EQ(ops::gather(x, ints({0, 1, 0, 1}, {2, 2}), 0).shape(), (Shape{2, 2, 3}));
  EXPECT_THROW(ops::gather(x, ints({3}, {1}), 1), ember::IndexError);
  EXPECT_THROW(ops::gather(x, ints({-4}, {1}), 1), ember::IndexError);
  EXPECT_THROW(ops::gather(x, ints({6}, {1})), ember::IndexError);
  EXPECT_THROW(ops::gather(ops::zeros({0}), ints({0}, {1}), 0), ember::IndexError);
  EXPECT_THROW(ops::gather(x, doubles({0}, {1})), ember::DTypeError);
  EXPECT_THROW(ops::gather(x, ints({0}, {1}), 2), ember::ShapeError);
  try {
    ops::gather(x, ints({0, 7}, {2}), 1);
  } catch (const ember::IndexError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("gather"), std::string::npos) << msg;
    EXPECT_NE(msg.find("7"), std::string::npos) << msg;
    EXPECT_NE(msg.find("size 3"), std::string::npos) << msg;
  }
  EXPECT_EQ(ops::gather(x, ops::zeros({0}, DType::int32), 1).shape(), (Shape{2, 0}));
}

TEST_P(TensorOps, ScatterAddAccumulatesRepeatedIndices) {
  const Tensor x = ops::zeros({4}, DType::int32);
  const Tensor out =
      ops::scatter_add(x, ints({1, 1, -1}, {3}), ops::from_data(std::vector<std::int32_t>{2, 3, 4}, {3}));
  EXPECT_EQ(ops::to_host<std::int32_t>(out), (std::vector<std::int32_t>{0, 5, 0, 4}));
  EXPECT_EQ(ops::to_host<std::int32_t>(x),
            (std::vector<std::int32_t>{0, 0, 0, 0}));  // inputs are not modified
  const Tensor m = ops::scatter_add(ops::zeros({2, 3}), ints({0, 2}, {2}), ops::ones({2, 2}), 1);
  EXPECT_EQ(ops::to_host<float>(m), (std::vector<float>{1, 0, 1, 1, 0, 1}));
  const Tensor wrap = ops::scatter_add(ops::full({1}, std::int8_t{127}, DType::int8), ints({0}, {1}),
                                       ops::full({1}, 1, DType::int8));
  EXPECT_EQ(ops::to_host<std::int8_t>(wrap)[0], -128);
  EXPECT_THROW(ops::scatter_add(x, ints({4}, {1}), ops::ones({1}, DType::int32)), ember::IndexError);
  EXPECT_THROW(ops::scatter_add(x, ints({-5}, {1}), ops::ones({1}, DType::int32)), ember::IndexError);
  EXPECT_THROW(ops::scatter_add(x, ints({0}, {1}), ops::ones({2}, DType::int32)), ember::ShapeError);
}

TEST_P(TensorOps, FlipReversesAxes) {
  const Tensor x = iota({2, 3});
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::flip(x)), (std::vector<std::int64_t>{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::flip(x, std::vector<std::int64_t>{-1})),
            (std::vector<std::int64_t>{2, 1, 0, 5, 4, 3}));
  EXPECT_EQ(ops::flip(ops::zeros({0, 2})).shape(), (Shape{0, 2}));
  EXPECT_THROW(ops::flip(x, std::vector<std::int64_t>{2}), ember::ShapeError);
}

TEST_P(TensorOps, SortPutsNaNLastAndArgsortIsStable) {
  const double nan = std::nan("");
  const Tensor x = doubles({3, nan, -1, 3, -0.0, 0.0, nan, -INFINITY}, {8});
  const auto s = ops::to_host<double>(ops::sort(x));
  EXPECT_EQ(s[0], -INFINITY);
  EXPECT_EQ(s[5], 3.0);
  EXPECT_TRUE(std::isnan(s[6]) && std::isnan(s[7]));
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::argsort(x)), (std::vector<std::int64_t>{7, 2, 4, 5, 0, 3, 1, 6}));
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::argsort(x, -1, true)),
            (std::vector<std::int64_t>{1, 6, 0, 3, 4, 5, 2, 7}));
  const auto d = ops::to_host<double>(ops::sort(x, 0, true));
  EXPECT_TRUE(std::isnan(d[0]) && std::isnan(d[1]));
  EXPECT_EQ(d[7], -INFINITY);
  const Tensor m = ints({3, 0, 2, 0, 0, 2}, {2, 3});
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::argsort(m, 0)), (std::vector<std::int64_t>{1, 0, 0, 0, 1, 1}));
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::argsort(m, 0, true)),
            (std::vector<std::int64_t>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(ops::to_host<std::int64_t>(ops::sort(m)), (std::vector<std::int64_t>{0, 2, 3, 0, 0, 2}));
  EXPECT_THROW(ops::sort(ops::full({}, 1)), ember::ShapeError);
  EXPECT_EQ(ops::argsort(ops::zeros({0})).dtype(), DType::int64);
}

// Long lines (the host backends radix sort them) against std::stable_sort with the documented order: every
// dtype, both directions, along the last and the first axis, with NaN, signed zeros, infinities and ties.
// 600 and 20,000 elements (the host backends' 8-bit and 11-bit radix digits), with and without NaN and -0
// (without them, the host sort moves keys alone and turns them back into values).
void long_sorts_match_a_stable_comparison_sort(int n, bool specials_too) {
  const double nan = std::nan("");
  std::vector<double> values;
  for (int i = 0; i < n; ++i) {
    const double specials[] = {nan, -0.0, 0.0, INFINITY, -INFINITY, 1.0, -1.0};
    values.push_back(specials_too && i % 7 == 0 ? specials[(i / 7) % 7]
                                                : std::fmod(i * 37.0, 101.0) - 50.0 + (i % 3) * 0.25);
  }
  for (DType d : ember::all_dtypes) {
    const Tensor flat = ops::cast(doubles(values, {n}), d);
    for (bool descending : {false, true}) {
      for (const auto& [shape, axis] : {std::pair{Shape{n}, 0}, std::pair{Shape{n / 4, 4}, 0}}) {
        const Tensor x = ops::reshape(flat, shape);
        const std::vector<double> host = ops::to_host<double>(x);
        const std::int64_t extent = shape[0], inner = shape.size() == 2 ? shape[1] : 1;
        std::vector<std::int64_t> want_order;
        for (std::int64_t i = 0; i < inner; ++i) {
          std::vector<std::int64_t> line(static_cast<std::size_t>(extent));
          for (std::int64_t k = 0; k < extent; ++k) line[static_cast<std::size_t>(k)] = k;
          std::stable_sort(line.begin(), line.end(), [&](std::int64_t a, std::int64_t b) {
            const double va = host[static_cast<std::size_t>(a * inner + i)];
            const double vb = host[static_cast<std::size_t>(b * inner + i)];
            const bool na = std::isnan(va), nb = std::isnan(vb);
            if (na || nb) return descending ? (na && !nb) : (!na && nb);
            return descending ? vb < va : va < vb;
          });
          want_order.insert(want_order.end(), line.begin(), line.end());
        }
        const std::vector<std::int64_t> got = ops::to_host<std::int64_t>(ops::argsort(x, axis, descending));
        const Tensor sorted = ops::sort(x, axis, descending);
        const std::vector<double> got_values = ops::to_host<double>(sorted);
        for (std::int64_t i = 0; i < inner; ++i) {
          for (std::int64_t k = 0; k < extent; ++k) {
            const auto at = static_cast<std::size_t>(k * inner + i);
            const std::int64_t want = want_order[static_cast<std::size_t>(i * extent + k)];
            ASSERT_EQ(got[at], want) << ops::dtype_name(d) << (descending ? " descending" : "") << " at "
                                     << k;
            const double wv = host[static_cast<std::size_t>(want * inner + i)];
            // sort keeps the input order of -0 and +0 too: compare bits, NaN as NaN
            ASSERT_TRUE((std::isnan(wv) && std::isnan(got_values[at])) ||
                        (wv == got_values[at] && std::signbit(wv) == std::signbit(got_values[at])))
                << ops::dtype_name(d) << " value at " << k;
          }
        }
      }
    }
  }
}

TEST_P(TensorOps, LongSortsMatchAStableComparisonSort) {
  for (const auto& [n, specials_too] :
       {std::pair{600, true}, std::pair{20000, true}, std::pair{20000, false}}) {
    long_sorts_match_a_stable_comparison_sort(n, specials_too);
  }
}

TEST_P(TensorOps, EmptyAndZeroDimensionalTensors) {
  const Tensor s = ops::full({}, 4.0);
  EXPECT_EQ(s.ndim(), 0);
  EXPECT_EQ(ops::to_host<double>(ops::copy(s)), (std::vector<double>{4.0}));
  EXPECT_EQ(ops::to_host<double>(ops::reshape(s, {1, 1})), (std::vector<double>{4.0}));
  const Tensor e = ops::zeros({3, 0});
  EXPECT_EQ(ops::copy(e).shape(), (Shape{3, 0}));
  EXPECT_EQ(ops::transpose(e).shape(), (Shape{0, 3}));
  EXPECT_TRUE(ops::to_host<float>(e).empty());
  EXPECT_EQ(ops::cast(e, DType::int8).dtype(), DType::int8);
}

TEST_P(TensorOps, HugeShapesFailCleanly) {
  EXPECT_THROW(ops::zeros({std::int64_t{1} << 40, std::int64_t{1} << 30}), ember::ShapeError);
  try {
    ops::zeros({std::int64_t{1} << 60}, DType::float64);
    FAIL() << "expected an error";
  } catch (const ember::BackendError& e) {
    EXPECT_NE(std::string(e.what()).find("zeros"), std::string::npos) << e.what();
  } catch (const ember::ShapeError&) {
  }
  EXPECT_THROW(ops::zeros({std::int64_t{1} << 45}, DType::uint8), ember::BackendError);
  EXPECT_THROW(ops::tile(ops::zeros({1 << 20}), {std::int64_t{1} << 50}), ember::Error);
}

INSTANTIATE_TEST_SUITE_P(Backends, TensorOps, ::testing::ValuesIn(ember::registered_backends()),
                         ember::test::backend_param_name);

}  // namespace
