// Element types, their properties and the type-promotion lattice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "ember/half.hpp"

namespace ember {

enum class DType : std::uint8_t { bool_, uint8, int8, int16, int32, int64, float16, float32, float64 };

inline constexpr DType all_dtypes[] = {DType::bool_,   DType::uint8,   DType::int8,
                                       DType::int16,   DType::int32,   DType::int64,
                                       DType::float16, DType::float32, DType::float64};

// The C++ storage type of each dtype.
template <DType D>
struct dtype_traits;
template <>
struct dtype_traits<DType::bool_> {
  using type = bool;
};
template <>
struct dtype_traits<DType::uint8> {
  using type = std::uint8_t;
};
template <>
struct dtype_traits<DType::int8> {
  using type = std::int8_t;
};
template <>
struct dtype_traits<DType::int16> {
  using type = std::int16_t;
};
template <>
struct dtype_traits<DType::int32> {
  using type = std::int32_t;
};
template <>
struct dtype_traits<DType::int64> {
  using type = std::int64_t;
};
template <>
struct dtype_traits<DType::float16> {
  using type = half;
};
template <>
struct dtype_traits<DType::float32> {
  using type = float;
};
template <>
struct dtype_traits<DType::float64> {
  using type = double;
};
template <DType D>
using storage_t = typename dtype_traits<D>::type;

template <class T>
constexpr DType dtype_of();
template <>
constexpr DType dtype_of<bool>() {
  return DType::bool_;
}
template <>
constexpr DType dtype_of<std::uint8_t>() {
  return DType::uint8;
}
template <>
constexpr DType dtype_of<std::int8_t>() {
  return DType::int8;
}
template <>
constexpr DType dtype_of<std::int16_t>() {
  return DType::int16;
}
template <>
constexpr DType dtype_of<std::int32_t>() {
  return DType::int32;
}
template <>
constexpr DType dtype_of<std::int64_t>() {
  return DType::int64;
}
template <>
constexpr DType dtype_of<half>() {
  return DType::float16;
}
template <>
constexpr DType dtype_of<float>() {
  return DType::float32;
}
template <>
constexpr DType dtype_of<double>() {
  return DType::float64;
}

// Calls f(T{}) with T the storage type of `dtype`. The one switch over dtypes that backends share.
template <class F>
decltype(auto) visit_dtype(DType dtype, F&& f) {
  switch (dtype) {
    case DType::bool_:
      return f(bool{});
    case DType::uint8:
      return f(std::uint8_t{});
    case DType::int8:
      return f(std::int8_t{});
    case DType::int16:
      return f(std::int16_t{});
    case DType::int32:
      return f(std::int32_t{});
    case DType::int64:
      return f(std::int64_t{});
    case DType::float16:
      return f(half{});
    case DType::float32:
      return f(float{});
    case DType::float64:
      break;
  }
  return f(double{});
}

}  // namespace ember
