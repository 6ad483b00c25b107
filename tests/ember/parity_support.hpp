// What the cross-backend agreement tests share (parity_test.cpp, parity_elementwise_test.cpp): seeded
// inputs that are byte-identical on every backend, the ulp bounds, and `agree`, which runs an op on every
// available backend and compares each outcome with the first backend's (eigen).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ember/ember.hpp"

namespace parity {

using ember::DType;
using ember::Shape;
using ember::Tensor;
namespace ops = ember::ops;

inline constexpr DType kAllDTypes[] = {DType::bool_,   DType::uint8,   DType::int8,
                                       DType::int16,   DType::int32,   DType::int64,
                                       DType::float16, DType::float32, DType::float64};
inline constexpr DType kFloatDTypes[] = {DType::float16, DType::float32, DType::float64};

// ---- bounds --------------------------------------------------------------------------------------------

// The largest allowed difference from the reference backend, in units in the last place of the result's
// dtype, per floating dtype. Integer and bool results are always compared exactly; NaN matches any NaN.
struct Ulps {
  std::int64_t f16 = 0, f32 = 0, f64 = 0;
  std::int64_t for_dtype(DType d) const {
    return d == DType::float16 ? f16 : d == DType::float32 ? f32 : d == DType::float64 ? f64 : 0;
  }
};
inline constexpr Ulps kExact{};

// ---- inputs --------------------------------------------------------------------------------------------

enum class Values {
  any,  // floats: mostly in [-8, 8] plus NaN, +-inf, +-0, tiny and huge; integers: mostly small plus extremes
  positive,  // floats in [0.5, 2] (reductions and products, where ulp bounds need no cancellation); ints in
             // [0, 9]
  exponent,  // small exponents for power: floats in [-3, 3], integers in [-2, 6]
  unit,      // floats in [-1, 1]
};

// A tensor of `dtype` and `shape` on the current backend from deterministic host data: the same bytes on
// every backend for the same seed.
Tensor input(DType dtype, const Shape& shape, std::uint64_t seed, Values v = Values::any);

using Op = std::function<std::vector<Tensor>()>;

// Runs `op` on every available backend and compares each outcome with the first backend's: the same error
// class, dtype and shape, and values within `ulps`.
void agree(const std::string& what, const Op& op, Ulps ulps = kExact);

// "OP DTYPE SHAPE[ with SHAPE]", the trace line of one case.
std::string label(const std::string& op, DType d, const Shape& a, const Shape& b = {}, bool binary = false);

// Operand shapes of the binary ops (broadcasting, empty, 0-d, OpenCL's work-group and row layouts) and of
// the unary ops.
extern const std::vector<std::pair<Shape, Shape>> kBinaryShapes;
extern const std::vector<Shape> kUnaryShapes;

}  // namespace parity
