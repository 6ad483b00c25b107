// The shared machinery of the cross-backend agreement tests (parity_support.hpp).
#include "parity_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <sstream>

#include "backend_support.hpp"

namespace parity {
namespace {

double float_value(std::mt19937_64& rng, Values v, std::int64_t i) {
  std::uniform_real_distribution<double> wide(-8.0, 8.0);
  switch (v) {
    case Values::positive:
      return std::uniform_real_distribution<double>(0.5, 2.0)(rng);
    case Values::exponent:
      return std::uniform_real_distribution<double>(-3.0, 3.0)(rng);
    case Values::unit:
      return std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
    case Values::any:
      break;
  }
  static const double specials[] = {std::numeric_limits<double>::quiet_NaN(),
                                    std::numeric_limits<double>::infinity(),
                                    -std::numeric_limits<double>::infinity(),
                                    0.0,
                                    -0.0,
                                    1e-40,
                                    -3e38,
                                    0.5,
                                    -2.5};
  if (i % 7 == 3) return specials[static_cast<std::size_t>(i / 7) % std::size(specials)];
  return wide(rng);
}

template <class T>
T int_value(std::mt19937_64& rng, Values v, std::int64_t i) {
  using L = std::numeric_limits<T>;
  if (v == Values::positive) return static_cast<T>(std::uniform_int_distribution<int>(0, 9)(rng));
  if (v == Values::exponent) {
    const int lo = L::is_signed ? -2 : 0;
    return static_cast<T>(std::uniform_int_distribution<int>(lo, 6)(rng));
  }
  if (i % 11 == 5) return (i / 11) % 2 == 0 ? L::max() : L::min();
  const long long lo = L::is_signed ? -20 : 0;
  return static_cast<T>(std::uniform_int_distribution<long long>(lo, 40)(rng));
}

template <class T>
void fill_ints(std::vector<unsigned char>& bytes, std::mt19937_64& rng, Values v) {
  const std::size_t n = bytes.size() / sizeof(T);
  for (std::size_t i = 0; i < n; ++i) {
    const T x = int_value<T>(rng, v, static_cast<std::int64_t>(i));
    std::memcpy(bytes.data() + i * sizeof(T), &x, sizeof(T));
  }
}

}  // namespace

Tensor input(DType dtype, const Shape& shape, std::uint64_t seed, Values v) {
  const std::int64_t n = ember::shape_numel(shape);
  std::vector<unsigned char> bytes(static_cast<std::size_t>(n) * ops::itemsize(dtype));
  std::mt19937_64 rng(seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(dtype));
  switch (dtype) {
    case DType::bool_:
      for (auto& b : bytes) b = static_cast<unsigned char>(rng() & 1u);
      break;
    case DType::uint8:
      fill_ints<std::uint8_t>(bytes, rng, v);
      break;
    case DType::int8:
      fill_ints<std::int8_t>(bytes, rng, v);
      break;
    case DType::int16:
      fill_ints<std::int16_t>(bytes, rng, v);
      break;
    case DType::int32:
      fill_ints<std::int32_t>(bytes, rng, v);
      break;
    case DType::int64:
      fill_ints<std::int64_t>(bytes, rng, v);
      break;
    case DType::float16:
      for (std::int64_t i = 0; i < n; ++i) {
        const ember::half h(static_cast<float>(float_value(rng, v, i)));
        std::memcpy(bytes.data() + i * 2, &h, 2);
      }
      break;
    case DType::float32:
      for (std::int64_t i = 0; i < n; ++i) {
        const auto f = static_cast<float>(float_value(rng, v, i));
        std::memcpy(bytes.data() + i * 4, &f, 4);
      }
      break;
    case DType::float64:
      for (std::int64_t i = 0; i < n; ++i) {
        const double d = float_value(rng, v, i);
        std::memcpy(bytes.data() + i * 8, &d, 8);
      }
      break;
  }
  return ops::from_bytes(bytes.data(), bytes.size(), shape, dtype);
}

namespace {

// ---- results -------------------------------------------------------------------------------------------

struct Captured {
  DType dtype = DType::float32;
  Shape shape;
  std::vector<unsigned char> bytes;
};

template <class T>
void append_host(const Tensor& t, std::vector<unsigned char>& bytes) {
  const auto values = ops::to_host<T>(t);
  if constexpr (std::is_same_v<T, bool>) {
    for (bool b : values) bytes.push_back(b ? 1 : 0);
  } else {
    bytes.resize(values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  }
}

Captured capture(const Tensor& t) {
  Captured c{t.dtype(), t.shape(), {}};
  switch (t.dtype()) {
    case DType::bool_:
      append_host<bool>(t, c.bytes);
      break;
    case DType::uint8:
      append_host<std::uint8_t>(t, c.bytes);
      break;
    case DType::int8:
      append_host<std::int8_t>(t, c.bytes);
      break;
    case DType::int16:
      append_host<std::int16_t>(t, c.bytes);
      break;
    case DType::int32:
      append_host<std::int32_t>(t, c.bytes);
      break;
    case DType::int64:
      append_host<std::int64_t>(t, c.bytes);
      break;
    case DType::float16:
      append_host<ember::half>(t, c.bytes);
      break;
    case DType::float32:
      append_host<float>(t, c.bytes);
      break;
    case DType::float64:
      append_host<double>(t, c.bytes);
      break;
  }
  return c;
}

struct Outcome {
  std::string error_class;  // empty on success
  std::string message;
  std::vector<Captured> results;
};

std::string error_class(const ember::Error& e) {
  if (dynamic_cast<const ember::ShapeError*>(&e)) return "ShapeError";
  if (dynamic_cast<const ember::DTypeError*>(&e)) return "DTypeError";
  if (dynamic_cast<const ember::DeviceError*>(&e)) return "DeviceError";
  if (dynamic_cast<const ember::IndexError*>(&e)) return "IndexError";
  if (dynamic_cast<const ember::LinAlgError*>(&e)) return "LinAlgError";
  if (dynamic_cast<const ember::ValueError*>(&e)) return "ValueError";
  if (dynamic_cast<const ember::BackendError*>(&e)) return "BackendError";
  return "Error";
}

Outcome run(const Op& op) {
  Outcome o;
  try {
    for (const Tensor& t : op()) o.results.push_back(capture(t));
  } catch (const ember::Error& e) {
    o.error_class = error_class(e);
    o.message = e.what();
  }
  return o;
}

// Position of a float's bits on the number line, so that adjacent floats differ by 1 and +0 == -0.
std::int64_t ordered(std::uint64_t bits, int width) {
  const std::uint64_t sign = std::uint64_t{1} << (width - 1);
  const auto magnitude = static_cast<std::int64_t>(bits & (sign - 1));
  return (bits & sign) ? -magnitude : magnitude;
}

struct FloatBits {
  std::uint64_t bits = 0;
  bool nan = false;
};

FloatBits float_at(const Captured& c, std::size_t k) {
  FloatBits f;
  if (c.dtype == DType::float16) {
    std::uint16_t h;
    std::memcpy(&h, c.bytes.data() + k * 2, 2);
    f.bits = h;
    f.nan = (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0;
  } else if (c.dtype == DType::float32) {
    std::uint32_t u;
    float v;
    std::memcpy(&u, c.bytes.data() + k * 4, 4);
    std::memcpy(&v, &u, 4);
    f.bits = u;
    f.nan = std::isnan(v);
  } else {
    double v;
    std::memcpy(&f.bits, c.bytes.data() + k * 8, 8);
    std::memcpy(&v, &f.bits, 8);
    f.nan = std::isnan(v);
  }
  return f;
}

std::string shape_text(const Shape& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

// Compares `got` (from backend `name`) with the reference outcome.
void expect_agree(const Outcome& want, const Outcome& got, const std::string& name, Ulps ulps) {
  ASSERT_EQ(got.error_class, want.error_class)
      << name << " raised \"" << got.message << "\"; the reference raised \"" << want.message << "\"";
  ASSERT_EQ(got.results.size(), want.results.size());
  for (std::size_t r = 0; r < want.results.size(); ++r) {
    const Captured& w = want.results[r];
    const Captured& g = got.results[r];
    ASSERT_EQ(ops::dtype_name(g.dtype), ops::dtype_name(w.dtype)) << name << " result " << r;
    ASSERT_EQ(shape_text(g.shape), shape_text(w.shape)) << name << " result " << r;
    ASSERT_EQ(g.bytes.size(), w.bytes.size());
    if (!ops::is_floating(w.dtype)) {
      EXPECT_TRUE(g.bytes == w.bytes) << name << " result " << r << " differs (exact comparison)";
      continue;
    }
    const std::int64_t bound = ulps.for_dtype(w.dtype);
    const int width = static_cast<int>(ops::itemsize(w.dtype) * 8);
    const std::size_t n = w.bytes.size() / ops::itemsize(w.dtype);
    std::int64_t worst = 0;
    std::size_t worst_at = 0, failures = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const FloatBits a = float_at(w, k), b = float_at(g, k);
      if (a.nan || b.nan) {
        if (a.nan != b.nan) {
          ++failures;
          worst_at = k;
          worst = std::numeric_limits<std::int64_t>::max();
        }
        continue;
      }
      // Exact ops must also agree on the sign of zero; bounded ones compare positions on the number line.
      const std::int64_t d =
          bound == 0 ? (a.bits == b.bits ? 0 : 1 + std::abs(ordered(a.bits, width) - ordered(b.bits, width)))
                     : std::abs(ordered(a.bits, width) - ordered(b.bits, width));
      if (d > bound) ++failures;
      if (d > worst) {
        worst = d;
        worst_at = k;
      }
    }
    EXPECT_EQ(failures, 0u) << name << " result " << r << " (" << ops::dtype_name(w.dtype)
                            << "): " << failures << " of " << n << " elements beyond " << bound
                            << " ulp; worst at element " << worst_at << " (distance " << worst << ")";
  }
}

}  // namespace

void agree(const std::string& what, const Op& op, Ulps ulps) {
  SCOPED_TRACE(what);
  std::optional<Outcome> reference;
  std::string reference_name;
  for (const std::string& name : ember::registered_backends()) {
    if (!ember::test::unavailable_reason(name).empty()) continue;  // Parity.AllBackendsAvailable reports it
    ember::BackendScope scope(name);
    Outcome outcome = run(op);
    if (!reference) {
      reference = std::move(outcome);
      reference_name = name;
      continue;
    }
    SCOPED_TRACE("backend " + name + " vs " + reference_name);
    expect_agree(*reference, outcome, name, ulps);
  }
}

std::string label(const std::string& op, DType d, const Shape& a, const Shape& b, bool binary) {
  return op + " " + ops::dtype_name(d) + " " + shape_text(a) + (binary ? " with " + shape_text(b) : "");
}

const std::vector<std::pair<Shape, Shape>> kBinaryShapes = {{{}, {}},
                                                            {{0}, {0}},
                                                            {{5}, {5}},
                                                            {{3, 4}, {4}},
                                                            {{2, 1, 5}, {3, 1}},
                                                            {{1}, {6}},
                                                            {{0, 3}, {1, 3}},
                                                            {{40, 33}, {40, 33}},
                                                            // 1024 elements, a multiple of the OpenCL
                                                            // work-group size: fused without bounds tests
                                                            {{16, 64}, {16, 64}},
                                                            // rows of 32 and more: the OpenCL kernels'
                                                            // rows x columns broadcasting (layout.hpp)
                                                            {{3, 40}, {40}},
                                                            {{40, 1}, {1, 40}},
                                                            {{2, 3, 40}, {2, 1, 1}}};
const std::vector<Shape> kUnaryShapes = {{}, {0}, {7}, {3, 4, 5}, {1031}, {1024}};

// ---- the suite -----------------------------------------------------------------------------------------

}  // namespace parity
