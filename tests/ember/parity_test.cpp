// Cross-backend agreement. Every op runs on seeded random inputs (several shapes including broadcasting,
// empty and 0-d, every dtype) on every available backend, and each result is compared with the first
// backend's (eigen): the same error class, dtype and shape, and the same values: bit for bit for integer,
// bool, manipulation, indexing, sort, cast and correctly rounded float ops, and within the ulp bound written
// next to each remaining floating-point op. Random sampling is byte-identical on every backend for the same
// seed (one million elements per distribution and dtype).
// This file: reductions, matmul, creation, manipulation, indexing, sort, solver, random sampling and
// mixing backends; parity_elementwise_test.cpp has the element-wise ops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "backend_support.hpp"
#include "ember/ember.hpp"
#include "parity_support.hpp"

namespace {

using namespace parity;

TEST(Parity, AllBackendsAvailable) {
  const auto names = ember::registered_backends();
  for (const char* expected : {"eigen", "blas", "opencl"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected << " is not built in";
  }
  for (const auto& name : names) {
    SCOPED_TRACE(name);
    EMBER_REQUIRE_BACKEND(name);
  }
}

const std::vector<std::pair<Shape, ember::Axes>> kReductions = {
    {{}, std::nullopt},
    {{0}, std::nullopt},
    {{0, 3}, std::vector<std::int64_t>{0}},
    {{3, 4, 5}, std::nullopt},
    {{3, 4, 5}, std::vector<std::int64_t>{0}},
    {{3, 4, 5}, std::vector<std::int64_t>{-1}},
    {{3, 4, 5}, std::vector<std::int64_t>{0, 2}},
    {{1031}, std::nullopt},
    {{17, 130}, std::vector<std::int64_t>{1}},
    // 70 kept columns: OpenCL's full lanes and a rest
    {{9, 70}, std::vector<std::int64_t>{0}},
    // 2500 kept columns: OpenCL's widest strips of columns (1024) and a partial one
    {{4, 2500}, std::vector<std::int64_t>{0}}};

std::string axes_text(const ember::Axes& axes) {
  if (!axes) return "all axes";
  std::string s = "axes";
  for (auto a : *axes) s += " " + std::to_string(a);
  return s;
}

// Float sums over leading axes add each output's elements in row order from -0.0 on every backend (OpenCL:
// math.cl's sum_columns, strips of 256 columns, 32 rows at a time; host: four rows per sweep, then the
// rest), so even terms of both signs, whose sum depends on the order, agree exactly: several strips with a
// partial one, row counts off the 32-row and 4-row blocks (37, 70, 36, 3), two leading axes, no rows, and
// keepdims.
TEST(Parity, SumOverLeadingAxesIsExact) {
  const std::pair<Shape, std::vector<std::int64_t>> cases[] = {
      {{37, 600}, {0}}, {{70, 9}, {0}}, {{3, 12, 290}, {0, 1}}, {{3, 12, 290}, {0}}, {{0, 300}, {0}}};
  for (DType d : {DType::float16, DType::float32, DType::float64}) {
    for (const auto& c : cases) {
      const Shape& shape = c.first;
      const std::vector<std::int64_t>& axes = c.second;
      agree(label("sum", d, shape) + " " + axes_text(axes), [&] {
        const Tensor x = input(d, shape, 21, Values::unit);
        return std::vector{ops::sum(x, axes, false), ops::sum(x, axes, true)};
      });
    }
  }
}

// Sums of positive terms: every backend sums in the same pairwise order, so float results agree exactly;
// the bound (2 ulp float32/float64, 1 ulp float16) covers a backend that vectorizes the innermost blocks.
constexpr Ulps kSumUlps{1, 2, 2};

TEST(Parity, Reductions) {
  using F = Tensor (*)(const Tensor&, ember::Axes, bool);
  const std::pair<const char*, F> sums[] = {{"sum", ops::sum}, {"prod", ops::prod}, {"mean", ops::mean}};
  const std::pair<const char*, F> extremes[] = {
      {"min", ops::min}, {"max", ops::max}, {"all", ops::all}, {"any", ops::any}};
  for (DType d : kAllDTypes) {
    for (const auto& reduction : kReductions) {
      const Shape& shape = reduction.first;
      const ember::Axes& axes = reduction.second;
      for (const auto& entry : sums) {
        const char* name = entry.first;
        agree(
            label(name, d, shape) + " " + axes_text(axes),
            [&, f = entry.second] {
              return std::vector{f(input(d, shape, 16, Values::positive), axes, false)};
            },
            kSumUlps);
      }
      for (const auto& entry : extremes) {
        const char* name = entry.first;
        agree(label(name, d, shape) + " " + axes_text(axes),
              [&, f = entry.second] { return std::vector{f(input(d, shape, 17), axes, true)}; });
      }
      agree(
          label("var/std", d, shape) + " " + axes_text(axes),
          [&] {
            const Tensor x = input(d, shape, 18, Values::positive);
            return std::vector{ops::var(x, axes, false, 0.0), ops::std(x, axes, true, 1.0)};
          },
          Ulps{1, 4, 4});
    }
    for (const Shape& shape : {Shape{3, 4, 5}, Shape{1031}, Shape{1}}) {
      for (std::int64_t axis : {0, -1}) {
        agree(
            label("argmin/argmax/cumsum axis " + std::to_string(axis), d, shape),
            [&] {
              const Tensor x = input(d, shape, 19);
              return std::vector{ops::argmin(x, axis), ops::argmax(x, axis, true),
                                 ops::cumsum(input(d, shape, 20, Values::positive), axis)};
            },
            kSumUlps);
      }
    }
  }
}

// A product of two length-K vectors summed in different orders: each backend's GEMM blocks differently, so
// float results may differ by rounding in the accumulation, at most 2K ulp for positive terms (K <= 40 here).
TEST(Parity, MatmulAndDot) {
  const std::pair<Shape, Shape> shapes[] = {
      {{4, 3}, {3, 5}}, {{2, 33, 17}, {17, 9}},  {{0, 3}, {3, 2}},    {{3, 0}, {0, 2}},
      {{1, 1}, {1, 1}}, {{1, 4, 6}, {3, 6, 40}}, {{40, 40}, {40, 40}}};
  for (DType d : kAllDTypes) {
    for (const auto& shapes : shapes) {
      const Shape &sa = shapes.first, &sb = shapes.second;
      agree(
          label("matmul", d, sa, sb, true),
          [&] {
            return std::vector{
                ops::matmul(input(d, sa, 21, Values::positive), input(d, sb, 22, Values::positive))};
          },
          Ulps{2, 80, 80});
    }
    for (std::int64_t n : {0, 7, 40}) {
      agree(
          label("dot", d, {n}),
          [&] {
            return std::vector{
                ops::dot(input(d, {n}, 23, Values::positive), input(d, {n}, 24, Values::positive)),
                ops::outer(input(d, {n}, 23), input(d, {3}, 24))};
          },
          Ulps{2, 80, 80});
    }
  }
}

// Products large enough for each backend's fast path: eigen's float products through the BLAS behind Eigen
// (EIGEN_USE_BLAS), opencl's float32 products from 64^3 multiply-adds through CLBlast when built with it,
// batched (strided) too. Same 2K ulp bound for positive terms.
TEST(Parity, LargeMatmul) {
  const std::pair<Shape, Shape> shapes[] = {{{130, 150}, {150, 140}}, {{3, 70, 65}, {65, 80}}};
  for (DType d : kAllDTypes) {
    for (const auto& shapes : shapes) {
      const Shape &sa = shapes.first, &sb = shapes.second;
      const std::int64_t k = sa.back();
      agree(
          label("matmul", d, sa, sb, true),
          [&] {
            return std::vector{
                ops::matmul(input(d, sa, 31, Values::positive), input(d, sb, 32, Values::positive))};
          },
          Ulps{2, 2 * k, 2 * k});
    }
  }
}

TEST(Parity, CreationIsExact) {
  for (DType d : kAllDTypes) {
    agree(label("full/eye", d, {3, 4}), [&] {
      return std::vector{ops::full({3, 4}, ember::Scalar(-2.75), d),
                         ops::full({0}, ember::Scalar(1), d),
                         ops::eye(4, 6, 1, d),
                         ops::eye(5, 3, -2, d),
                         ops::zeros({2, 0}, d),
                         ops::ones({}, d)};
    });
    if (d == DType::bool_) continue;
    agree(label("arange/linspace", d, {}), [&] {
      return std::vector{ops::arange(ember::Scalar(-3), ember::Scalar(40), ember::Scalar(3), d),
                         ops::arange(ember::Scalar(0.5), ember::Scalar(9.0), ember::Scalar(0.7), d),
                         ops::linspace(-1.0, 7.0, 33, true, d), ops::linspace(0.0, 1.0, 10, false, d)};
    });
  }
}

TEST(Parity, ManipulationIsExact) {
  for (DType d : kAllDTypes) {
    const std::string t = ops::dtype_name(d);
    agree("copy/transpose/broadcast_to/flip " + t, [&] {
      const Tensor x = input(d, {2, 3, 4}, 25);
      return std::vector{ops::copy(x),
                         ops::transpose(x),
                         ops::transpose(x, std::vector<std::int64_t>{1, 0, 2}),
                         ops::broadcast_to(input(d, {3, 1}, 26), {2, 3, 5}),
                         ops::flip(x),
                         ops::flip(x, std::vector<std::int64_t>{1}),
                         ops::transpose(input(d, {0, 3}, 27))};
    });
    agree("concatenate/stack/tile " + t, [&] {
      const Tensor a = input(d, {2, 3}, 28), b = input(d, {4, 3}, 29), c = input(d, {0, 3}, 30);
      // Rows of 256 bytes and more move by copy commands on OpenCL, shorter ones by a kernel; the second
      // half of a split starts inside its buffer.
      const Tensor wide = input(d, {3, 70}, 36), tail = ops::split(input(d, {6, 130}, 37), 2, 0)[1];
      return std::vector{ops::concatenate({a, b, c}, 0),
                         ops::concatenate({a, input(d, {2, 5}, 31)}, 1),
                         ops::stack({a, a}, 1),
                         ops::tile(a, {2, 3}),
                         ops::tile(input(d, {}, 32), {4}),
                         ops::concatenate({wide, tail, wide}, 1),
                         ops::concatenate({tail, input(d, {2, 130}, 38)}, 0)};
    });
    agree("pad " + t, [&] {
      const Tensor x = input(d, {3, 4}, 33);
      const std::vector<std::pair<std::int64_t, std::int64_t>> w = {{1, 2}, {2, 1}};
      return std::vector{ops::pad(x, w, ember::PadMode::constant, ember::Scalar(5)),
                         ops::pad(x, w, ember::PadMode::edge), ops::pad(x, w, ember::PadMode::reflect)};
    });
    agree("slice " + t, [&] {
      const Tensor x = input(d, {5, 6}, 34);
      return std::vector{ops::slice(x, {{1, 4, 1}, {std::nullopt, std::nullopt, 2}}),
                         ops::slice(x, {{std::nullopt, std::nullopt, -1}, {-2, 0, -2}}),
                         ops::slice(x, {{3, 3, 1}})};
    });
    // Rows of 32 elements and more: OpenCL copies on a 3-D range (layers x rows x columns) after merging
    // axes whose strides continue each other; four axes that do not merge keep the per-element kernel.
    agree("strided copies of long rows " + t, [&] {
      const Tensor x = input(d, {2, 40, 33}, 39), y = input(d, {5, 80}, 40);
      return std::vector{ops::transpose(x, std::vector<std::int64_t>{1, 0, 2}),
                         ops::transpose(y),
                         ops::transpose(input(d, {2, 3, 4, 40}, 41), std::vector<std::int64_t>{2, 0, 1, 3}),
                         ops::broadcast_to(input(d, {3, 1}, 42), {2, 3, 40}),
                         ops::broadcast_to(input(d, {40}, 43), {3, 2, 40}),
                         ops::flip(y),
                         ops::flip(x, std::vector<std::int64_t>{2}),
                         ops::slice(y, {{1, -1, 1}, {std::nullopt, std::nullopt, 2}}),
                         ops::slice(y, {{std::nullopt, std::nullopt, -2}, {-3, 2, -1}})};
    });
  }
}

TEST(Parity, IndexingIsExact) {
  const std::vector<std::int64_t> idx = {0, 3, -1, 2, 2, -4, 1};
  const std::vector<std::int64_t> bad = {0, 4};
  for (DType d : kAllDTypes) {
    const std::string t = ops::dtype_name(d);
    agree("gather " + t, [&] {
      const Tensor x = input(d, {4, 5}, 35);
      const Tensor i = ops::from_data(idx, {7});
      return std::vector{ops::gather(x, i, 0), ops::gather(x, ops::from_data(idx, {7}), 1), ops::gather(x, i),
                         ops::gather(x, ops::from_data(std::vector<std::int64_t>{}, {0}), 1)};
    });
    agree("gather out of range " + t, [&] {
      return std::vector{ops::gather(input(d, {4, 5}, 35), ops::from_data(bad, {2}), 0)};
    });
    // np.add.at applies duplicate indices in order, so even float accumulation is exact across backends.
    agree("scatter_add " + t, [&] {
      const Tensor x = input(d, {4, 3}, 36, Values::positive);
      const Tensor i = ops::from_data(idx, {7});
      return std::vector{ops::scatter_add(x, i, input(d, {7, 3}, 37, Values::positive), 0)};
    });
  }
}

TEST(Parity, SortIsExact) {
  for (DType d : kAllDTypes) {
    for (const Shape& s : {Shape{}, Shape{0}, Shape{1031}, Shape{6, 40}, Shape{3, 4, 5}}) {
      for (bool descending : {false, true}) {
        agree(label(descending ? "sort descending" : "sort", d, s), [&] {
          // Integers drawn from a small range repeat, so argsort's stability is exercised.
          const Tensor x = input(d, s, 38);
          std::vector<Tensor> out{ops::sort(x, -1, descending), ops::argsort(x, -1, descending)};
          if (s.size() > 1) {
            out.push_back(ops::sort(x, 0, descending));
            out.push_back(ops::argsort(x, 0, descending));
          }
          return out;
        });
      }
    }
  }
}

// Lines of 8192 elements and more take OpenCL's radix sort (tensor_ops.cpp, kRadixMinExtent), in tiles of at
// least 16384: lines just below and at the threshold, one tile, several tiles with a partial last one,
// several lines, and lines along a strided axis, with repeats, NaN, +-0 and the integer extremes.
TEST(Parity, RadixSortIsExact) {
  for (DType d : kAllDTypes) {
    for (const Shape& s : {Shape{8191}, Shape{8192}, Shape{49159}, Shape{2, 9001}, Shape{2, 8200, 3}}) {
      for (bool descending : {false, true}) {
        agree(label(descending ? "long sort descending" : "long sort", d, s), [&] {
          // Values::any has NaN and -0 among floats (keys with values); Values::unit has neither (keys
          // alone).
          const int axis = s.size() == 3 ? 1 : -1;
          std::vector<Tensor> out;
          for (const Values values : {Values::any, Values::unit}) {
            const Tensor x = input(d, s, 39, values);
            out.push_back(ops::sort(x, axis, descending));
            out.push_back(ops::argsort(x, axis, descending));
          }
          return out;
        });
      }
    }
  }
  // Long lines: OpenCL's 16 tiles of 18751 elements, the last one partial.
  for (DType d : {DType::int16, DType::float32, DType::float64}) {
    agree(label("very long sort", d, {300007}), [&] {
      std::vector<Tensor> out;
      for (const Values values : {Values::any, Values::unit}) {
        const Tensor x = input(d, {300007}, 40, values);
        out.push_back(ops::sort(x));
        out.push_back(ops::argsort(x, -1, true));
      }
      return out;
    });
  }
  // Sorts of at least 2^20 elements: OpenCL moves keys alone when no key stands for two values (integers;
  // floats without NaN and -0, which it learns from the device) and keys with values otherwise.
  for (DType d : {DType::int32, DType::float32}) {
    agree(label("sort of 2^20 elements", d, {2, 1 << 19}), [&] {
      std::vector<Tensor> out;
      for (const Values values : {Values::any, Values::unit}) {
        const Tensor x = input(d, {2, 1 << 19}, 41, values);
        out.push_back(ops::sort(x));
        out.push_back(ops::sort(x, -1, true));
      }
      return out;
    });
  }
  // -0 without NaN: one -0 among many +0 and other values must survive, in place among the zeros.
  std::vector<double> zeros(9000);
  for (std::size_t i = 0; i < zeros.size(); ++i) zeros[i] = i % 3 == 0 ? 0.0 : i % 3 == 1 ? 1.5 : -2.0;
  zeros[4242] = -0.0;
  for (DType d : {DType::float16, DType::float32, DType::float64}) {
    agree(label("long sort of signed zeros", d, {9000}), [&] {
      const Tensor x = ops::cast(ops::from_data(zeros, {9000}), d);
      return std::vector{ops::sort(x), ops::sort(x, -1, true)};
    });
  }
}

// A well-conditioned (diagonally dominant, symmetric positive definite) batch of matrices.
Tensor spd(DType d, std::int64_t batch, std::int64_t n, std::uint64_t seed) {
  const Tensor a = input(d, {batch, n, n}, seed, Values::unit);
  const Tensor sym = ops::add(a, ops::transpose(a, std::vector<std::int64_t>{0, 2, 1}));
  return ops::add(sym,
                  ops::multiply(ops::eye(n, std::nullopt, 0, d), ember::Scalar(static_cast<double>(2 * n))));
}

// LAPACK, Eigen and the OpenCL backend's host fallback use different algorithms; results of these
// well-conditioned problems agree to a few hundred ulp (float32) and a few thousand (float64, where
// iterative methods stop at different residuals). Factorizations are unique (diag(r) >= 0, the lower
// Cholesky factor), so they are compared directly; svd and eigh are compared through their unique values.
TEST(Parity, SolverWithinBounds) {
  for (DType d : {DType::float32, DType::float64}) {
    const std::string t = ops::dtype_name(d);
    const Ulps bound{0, 512, 8192};
    agree(
        "solve/inv/det/cholesky " + t,
        [&] {
          const Tensor a = spd(d, 3, 6, 39);
          return std::vector{ops::solve(a, input(d, {3, 6, 2}, 40, Values::unit)), ops::inv(a), ops::det(a),
                             ops::cholesky(a)};
        },
        bound);
    agree(
        "qr/svd values/eigh values " + t,
        [&] {
          const Tensor a = spd(d, 2, 5, 41);
          const auto qr = ops::qr(input(d, {2, 6, 4}, 42, Values::unit));
          return std::vector{qr.q, qr.r, ops::svd(a, false, false).s, ops::eigh(a).eigenvalues};
        },
        bound);
    agree(
        "lstsq " + t,
        [&] {
          const auto r = ops::lstsq(input(d, {7, 3}, 43, Values::unit), input(d, {7, 2}, 44, Values::unit));
          return std::vector{r.x, r.residuals, r.singular_values,
                             ops::full({}, ember::Scalar(r.rank), DType::int64)};
        },
        bound);
    agree("singular solve " + t, [&] { return std::vector{ops::inv(ops::zeros({2, 3, 3}, d))}; });
    agree(
        "norm/diag/diagonal/trace " + t,
        [&] {
          const Tensor x = input(d, {4, 5}, 45, Values::positive);
          return std::vector{ops::norm(x),
                             ops::norm(x, "inf"),
                             ops::norm(x, std::nullopt, std::vector<std::int64_t>{1}),
                             ops::diag(input(d, {4}, 46), 1),
                             ops::diagonal(x, -1),
                             ops::trace(x, 1)};
        },
        Ulps{0, 4, 4});
  }
  for (DType d : kAllDTypes) {
    agree("diag/diagonal/trace " + ops::dtype_name(d), [&] {
      const Tensor x = input(d, {4, 5}, 47);
      return std::vector{ops::diag(input(d, {3}, 48), -1), ops::diag(x, 2), ops::diagonal(x), ops::trace(x)};
    });
  }
}

// ---- random numbers: byte-identical on every backend ---------------------------------------------------

constexpr std::int64_t kMillion = 1 << 20;

TEST(Parity, RandomSamplesAreByteIdentical) {
  for (DType d : {DType::float32, DType::float64}) {
    const std::string t = ops::dtype_name(d);
    const auto sample = [&](auto&& draw) {
      return [&, draw] {
        ops::set_seed(20261121);
        return std::vector<Tensor>{draw()};
      };
    };
    agree("uniform " + t, sample([&] { return ops::random_uniform({kMillion}, -2.0, 5.0, d); }));
    agree("normal " + t, sample([&] { return ops::random_normal({kMillion}, 1.0, 3.0, d); }));
    agree("exponential " + t, sample([&] { return ops::random_exponential({kMillion}, 2.0, d); }));
    agree("gamma small shape " + t, sample([&] { return ops::random_gamma({kMillion}, 0.3, 1.0, d); }));
    agree("gamma " + t, sample([&] { return ops::random_gamma({kMillion}, 4.5, 2.0, d); }));
    agree("categorical " + t, sample([&] {
            const Tensor logits = ops::log(
                ops::from_data(std::vector<double>{0.1, 0.2, 0.3, 0.4, 0.5, 0.25, 0.25, 0.0}, {2, 4}));
            return ops::random_categorical(ops::cast(logits, d), kMillion / 2);
          }));
  }
  const auto seeded = [](auto&& draw) {
    return [draw] {
      ops::set_seed(7);
      return std::vector<Tensor>{draw()};
    };
  };
  agree("bernoulli", seeded([] { return ops::random_bernoulli({kMillion}, 0.3); }));
  agree("poisson small rate", seeded([] { return ops::random_poisson({kMillion}, 3.5); }));
  agree("poisson large rate", seeded([] { return ops::random_poisson({kMillion}, 250.0); }));
  agree("permutation", seeded([] { return ops::random_permutation(kMillion); }));
  agree("shuffle", seeded([] {
          return ops::shuffle(ops::reshape(ops::arange(ember::Scalar(kMillion)), {kMillion / 4, 4}));
        }));
  agree("a sequence of calls", [] {
    ops::set_seed(99);
    return std::vector{ops::random_uniform({1000}), ops::random_normal({0}),
                       ops::random_normal({}, 0.0, 1.0, DType::float16), ops::random_uniform({1000})};
  });
}

// ---- mixing backends and devices -----------------------------------------------------------------------

TEST(Parity, MixingBackendsIsAnErrorNotACopy) {
  const auto names = ember::registered_backends();
  for (const auto& a : names) {
    for (const auto& b : names) {
      if (a == b || !ember::test::unavailable_reason(a).empty() ||
          !ember::test::unavailable_reason(b).empty())
        continue;
      SCOPED_TRACE(a + " with " + b);
      Tensor x, y;
      {
        ember::BackendScope scope(a);
        x = ops::ones({3});
      }
      {
        ember::BackendScope scope(b);
        y = ops::ones({3});
      }
      EXPECT_THROW(ops::add(x, y), ember::BackendError);
      EXPECT_THROW(ops::where(ops::greater(x, ember::Scalar(0)), x, y), ember::BackendError);
      EXPECT_THROW(ops::concatenate({x, y}), ember::BackendError);
      try {
        ops::matmul(ops::reshape(x, {1, 3}), ops::reshape(y, {3, 1}));
        ADD_FAILURE() << "matmul of tensors from two backends did not throw";
      } catch (const ember::BackendError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(a), std::string::npos) << what;
        EXPECT_NE(what.find(b), std::string::npos) << what;
      }
    }
  }
}

// With two OpenCL devices (pocl makes two CPU devices when POCL_DEVICES="pthread pthread"; ctest runs this
// test so), tensors on different devices of one backend do not mix, and to_device moves data between them.
TEST(Parity, OpenCLDevicesDoNotMix) {
  EMBER_REQUIRE_BACKEND("opencl");
  ember::BackendScope scope("opencl");
  const auto devices = ops::available_devices();
  if (devices.size() < 2) GTEST_SKIP() << "needs two OpenCL devices; this machine has " << devices.size();
  const Tensor x =
      ops::arange(ember::Scalar(10), ember::Scalar(16), ember::Scalar(1), DType::float32, devices[0]);
  const Tensor y = ops::ones({6}, DType::float32, devices[1]);
  EXPECT_THROW(ops::add(x, y), ember::DeviceError);
  const Tensor moved = ops::to_device(x, devices[1]);
  EXPECT_EQ(moved.device(), devices[1]);
  EXPECT_EQ(ops::to_host<float>(ops::add(moved, y)), (std::vector<float>{11, 12, 13, 14, 15, 16}));
  EXPECT_EQ(ops::to_host<float>(ops::to_device(moved, devices[0])), ops::to_host<float>(x));
  EXPECT_THROW(ops::to_device(x, ember::Device::opencl(static_cast<int>(devices.size()))),
               ember::DeviceError);
}

}  // namespace
