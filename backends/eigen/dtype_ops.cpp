// The Eigen backend's dtype ops: element-wise conversion with NumPy's astype results and defined edge
// cases (saturating float -> integer, NaN -> 0, one correctly rounded step to float16).
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "eigen_backend.hpp"
#include "elementwise.hpp"

namespace ember::eigen {

namespace {

// double -> float16 rounded once: round to odd into float (keeps the sticky bit), then to nearest even.
half half_from_double(double d) {
  if (std::isnan(d)) return half(static_cast<float>(d));
  if (std::fabs(d) >= 65520.0) return half(std::copysign(std::numeric_limits<float>::infinity(), d));
  float f = static_cast<float>(d);
  if (static_cast<double>(f) != d) {
    if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
    f = std::bit_cast<float>(std::bit_cast<std::uint32_t>(f) | 1u);
  }
  return half(f);
}

template <class To, class From>
To convert(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return load(v) != decltype(load(v))(0);  // NaN is true
  } else if constexpr (std::is_same_v<To, half>) {
    if constexpr (std::is_same_v<From, double>) {
      return half_from_double(v);
    } else {
      return half(static_cast<float>(load(v)));
    }
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(load(v));
  } else if constexpr (is_float_v<compute_t<From>>) {
    return Scalar::saturate<To>(static_cast<double>(load(v)));
  } else {
    return static_cast<To>(v);  // integer -> integer wraps (two's complement, C++20)
  }
}

}  // namespace

void EigenBackend::cast(const Tensor& x, Tensor& out) {
  if (x.dtype() == out.dtype()) {
    std::memcpy(out.raw_data(), x.raw_data(), x.nbytes());
    return;
  }
  visit_dtype(x.dtype(), [&](auto from_tag) {
    using From = decltype(from_tag);
    visit_dtype(out.dtype(), [&](auto to_tag) {
      using To = decltype(to_tag);
      const From* px = x.data<const From>();
      To* po = out.data<To>();
      const std::int64_t n = x.size();
      for (std::int64_t i = 0; i < n; ++i) po[i] = convert<To>(px[i]);
    });
  });
}

bool EigenBackend::supports_dtype(DType /*dtype*/, Device device) {
  return device == Device::cpu();
}

}  // namespace ember::eigen
