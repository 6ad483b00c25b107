// Cross-backend agreement. Every op runs on seeded random inputs (several shapes including broadcasting,
// empty and 0-d, every dtype) on every available backend, and each result is compared with the first
// backend's (eigen): the same error class, dtype and shape, and the same values: bit for bit for integer,
// bool, manipulation, indexing, sort, cast and correctly rounded float ops, and within the ulp bound written
// next to each remaining floating-point op. Random sampling is byte-identical on every backend for the same
// seed (one million elements per distribution and dtype).
// This file: element-wise ops, comparison, where, unary and transcendental ops, cast.
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

// + - * and minimum/maximum are exact in IEEE arithmetic; divide, floor_divide and mod are correctly rounded
// (OpenCL kernels are built with -cl-fp32-correctly-rounded-divide-sqrt, fmod is exact by definition).
TEST(Parity, BinaryArithmeticIsExact) {
  using F = Tensor (*)(const Tensor&, const Tensor&);
  const std::pair<const char*, F> table[] = {{"add", ops::add},
                                             {"subtract", ops::subtract},
                                             {"multiply", ops::multiply},
                                             {"divide", ops::divide},
                                             {"floor_divide", ops::floor_divide},
                                             {"mod", ops::mod},
                                             {"minimum", ops::minimum},
                                             {"maximum", ops::maximum}};
  for (const auto& entry : table) {
    const char* name = entry.first;
    for (DType d : kAllDTypes) {
      for (const auto& shapes : kBinaryShapes) {
        const Shape &sa = shapes.first, &sb = shapes.second;
        agree(label(name, d, sa, sb, true),
              [&, f = entry.second] { return std::vector{f(input(d, sa, 1), input(d, sb, 2))}; });
      }
    }
  }
}

// pow: float32 within 2 ulp, float64 within 2 ulp (the libm / OpenCL builtin pow of each backend); float16
// rounds the float32 result once, so within 1 ulp. Integer powers are exact (repeated squaring, wrapping).
TEST(Parity, Power) {
  for (DType d : kAllDTypes) {
    for (const auto& shapes : kBinaryShapes) {
      const Shape &sa = shapes.first, &sb = shapes.second;
      agree(
          label("power", d, sa, sb, true),
          [&] {
            return std::vector{
                ops::power(input(d, sa, 3, Values::positive), input(d, sb, 4, Values::exponent))};
          },
          Ulps{1, 2, 2});
    }
  }
}

TEST(Parity, ComparisonAndLogicAreExact) {
  using F = Tensor (*)(const Tensor&, const Tensor&);
  const std::pair<const char*, F> table[] = {{"equal", ops::equal},
                                             {"not_equal", ops::not_equal},
                                             {"less", ops::less},
                                             {"less_equal", ops::less_equal},
                                             {"greater", ops::greater},
                                             {"greater_equal", ops::greater_equal},
                                             {"logical_and", ops::logical_and},
                                             {"logical_or", ops::logical_or},
                                             {"logical_xor", ops::logical_xor}};
  for (const auto& entry : table) {
    const char* name = entry.first;
    for (DType d : kAllDTypes) {
      for (const auto& shapes : kBinaryShapes) {
        const Shape &sa = shapes.first, &sb = shapes.second;
        // Seeds 5 and 5 give equal operands where the shapes match, so equality is exercised too.
        agree(label(name, d, sa, sb, true),
              [&, f = entry.second] { return std::vector{f(input(d, sa, 5), input(d, sb, 6))}; });
        agree(label(name, d, sa, sa, true),
              [&, f = entry.second] { return std::vector{f(input(d, sa, 5), input(d, sa, 5))}; });
      }
    }
  }
  for (DType d : kFloatDTypes) {
    for (const auto& shapes : kBinaryShapes) {
      const Shape &sa = shapes.first, &sb = shapes.second;
      agree(label("isclose", d, sa, sb, true), [&] {
        const Tensor a = input(d, sa, 7);
        return std::vector{ops::isclose(a, ops::add(input(d, sb, 8, Values::unit), a), 1e-3, 0.5, false),
                           ops::isclose(a, input(d, sb, 8), 1e-5, 1e-8, true)};
      });
    }
  }
}

TEST(Parity, WhereIsExact) {
  for (DType d : kAllDTypes) {
    agree(label("where", d, {3, 4}), [&] {
      return std::vector{ops::where(input(DType::bool_, {3, 1}, 9), input(d, {4}, 10), input(d, {3, 4}, 11)),
                         ops::where(input(DType::bool_, {}, 9), input(d, {2, 3}, 10), input(d, {}, 11)),
                         ops::where(input(DType::bool_, {0, 2}, 9), input(d, {2}, 10), input(d, {1, 2}, 11))};
    });
    // Rows of 32 and more: the OpenCL kernel on rows x columns (layout.hpp's launch_broadcast_rows), each
    // operand of every kind (whole, one element, broadcast along the rows or along the columns), and
    // shapes no split fits (operands through strides).
    agree(label("where rows", d, {3, 40}), [&] {
      return std::vector{
          ops::where(input(DType::bool_, {3, 1}, 12), input(d, {40}, 13), input(d, {3, 40}, 14)),
          ops::where(input(DType::bool_, {40, 1}, 12), input(d, {1, 40}, 13), input(d, {}, 14)),
          ops::where(input(DType::bool_, {2, 3, 40}, 12), input(d, {2, 1, 1}, 13), input(d, {3, 40}, 14)),
          ops::where(input(DType::bool_, {64}, 12), input(d, {5, 1}, 13), input(d, {5, 64}, 14)),
          ops::where(input(DType::bool_, {}, 12), input(d, {2, 1, 40}, 13), input(d, {40}, 14)),
          ops::where(input(DType::bool_, {1, 3, 40}, 12), input(d, {2, 1, 40}, 13), input(d, {2, 3, 1}, 14))};
    });
  }
}

// Unary ops that are exact everywhere: sign manipulation, rounding, sqrt (correctly rounded), predicates.
TEST(Parity, ExactUnaryOps) {
  using F = Tensor (*)(const Tensor&);
  const std::pair<const char*, F> table[] = {
      {"negative", ops::negative}, {"abs", ops::abs},     {"sign", ops::sign},
      {"square", ops::square},     {"sqrt", ops::sqrt},   {"floor", ops::floor},
      {"ceil", ops::ceil},         {"round", ops::round}, {"logical_not", ops::logical_not},
      {"isnan", ops::isnan},       {"isinf", ops::isinf}, {"isfinite", ops::isfinite}};
  for (const auto& entry : table) {
    const char* name = entry.first;
    for (DType d : kAllDTypes) {
      for (const Shape& s : kUnaryShapes) {
        agree(label(name, d, s), [&, f = entry.second] { return std::vector{f(input(d, s, 12))}; });
      }
    }
  }
  for (DType d : kAllDTypes) {
    for (const Shape& s : kUnaryShapes) {
      agree(label("clip", d, s), [&] {
        const Tensor x = input(d, s, 13);
        return std::vector{ops::clip(x, ember::Scalar(-3), ember::Scalar(7)),
                           ops::clip(x, std::nullopt, ember::Scalar(2)),
                           ops::clip(x, ember::Scalar(1.5), std::nullopt)};
      });
    }
  }
}

// Transcendental functions come from each backend's math library (Eigen's vectorized functions, libm,
// the OpenCL builtins); the bounds below are the measured worst differences between them, rounded up.
TEST(Parity, TranscendentalOpsWithinUlpBounds) {
  using F = Tensor (*)(const Tensor&);
  struct Row {
    const char* name;
    F f;
    Values v;
    Ulps ulps;
  };
  const Row table[] = {
      {"exp", ops::exp, Values::any, {1, 4, 4}},   {"expm1", ops::expm1, Values::any, {1, 4, 4}},
      {"log", ops::log, Values::any, {1, 4, 4}},   {"log1p", ops::log1p, Values::any, {1, 4, 4}},
      {"log2", ops::log2, Values::any, {1, 4, 4}}, {"log10", ops::log10, Values::any, {1, 4, 4}},
      {"sin", ops::sin, Values::any, {1, 4, 4}},   {"cos", ops::cos, Values::any, {1, 4, 4}},
      {"tan", ops::tan, Values::any, {1, 4, 4}},   {"sinh", ops::sinh, Values::any, {1, 4, 4}},
      {"cosh", ops::cosh, Values::any, {1, 4, 4}}, {"tanh", ops::tanh, Values::any, {1, 4, 4}}};
  for (const Row& row : table) {
    for (DType d : kFloatDTypes) {
      for (const Shape& s : kUnaryShapes) {
        agree(
            label(row.name, d, s), [&] { return std::vector{row.f(input(d, s, 14, row.v))}; }, row.ulps);
      }
    }
  }
}

// log of positive normal float32 and float64 numbers is fdlibm's on every backend (the host vector kernels
// and the OpenCL kernels call distributions.h's ember_log_f32/_f64): bit-identical results, from tiny to huge
// and around 1, where cancellation is worst.
TEST(Parity, LogOfPositiveNormalsIsExact) {
  std::mt19937_64 rng(41);
  std::uniform_real_distribution<double> exponent(-120.0, 120.0), near_one(0.9, 1.1);
  std::vector<double> values;
  for (int i = 0; i < 1031; ++i) values.push_back(i % 4 == 0 ? near_one(rng) : std::exp2(exponent(rng)));
  for (DType d : {DType::float32, DType::float64}) {
    agree(label("log of positive normals", d, {1031}),
          [&] { return std::vector{ops::log(ops::cast(ops::from_data(values, {1031}), d))}; });
  }
}

// exp of float64 on [-708, 709] is the same kernel on every backend (the host vector kernel's exp_f64_run,
// OpenCL's exp_of in math_scalar.cl): bit-identical, across the range and around 0. Beyond it (subnormal
// results, overflow, infinities, NaN) each backend uses its own path, within the transcendental bound.
TEST(Parity, ExpOfFloat64InItsNormalRangeIsExact) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> wide(-708.0, 709.0), small(-1.0, 1.0);
  std::vector<double> values;
  for (int i = 0; i < 1031; ++i) values.push_back(i % 3 == 0 ? small(rng) : wide(rng));
  values.insert(values.end(), {-708.0, 709.0, 0.0, -0.0, 0.5 * std::log(2.0), -0.5 * std::log(2.0)});
  const auto n = static_cast<std::int64_t>(values.size());
  agree(label("exp of float64 in [-708, 709]", DType::float64, {n}),
        [&] { return std::vector{ops::exp(ops::from_data(values, {n}))}; });
  const std::vector<double> edges = {-1000.0,
                                     -746.0,
                                     -745.2,
                                     -745.0,
                                     -740.0,
                                     -720.5,
                                     -708.5,
                                     709.5,
                                     709.78,
                                     709.79,
                                     710.0,
                                     1e300,
                                     -1e300,
                                     std::numeric_limits<double>::infinity(),
                                     -std::numeric_limits<double>::infinity(),
                                     std::numeric_limits<double>::quiet_NaN()};
  const auto m = static_cast<std::int64_t>(edges.size());
  agree(
      label("exp of float64 beyond [-708, 709]", DType::float64, {m}),
      [&] { return std::vector{ops::exp(ops::from_data(edges, {m}))}; }, Ulps{1, 1, 1});
}

TEST(Parity, CastIsExact) {
  for (DType from : kAllDTypes) {
    for (DType to : kAllDTypes) {
      agree(label("cast to " + ops::dtype_name(to), from, {1031}),
            [&] { return std::vector{ops::cast(input(from, {1031}, 15), to)}; });
    }
  }
}

}  // namespace
