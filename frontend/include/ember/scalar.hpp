// A typed host scalar: fill values, clip bounds, arange endpoints, item() results.
//
// A Scalar operand of an op on a tensor of dtype t (add(x, 3), greater(x, -1), clip(x, 0, 300), ...) follows
// NumPy 1.24's value-based casting, so it always acts by its value, never by a wrapped one:
// - a bool scalar, a float scalar next to a floating t, and an integer scalar next to a floating t take t;
// - an integer scalar next to an integer t takes t when its value fits t's range; otherwise both widen to
//   the narrowest of int16, int32, int64 that holds every value of t and the scalar. So
//   greater(uint8 [0, 200], -1) is [true, true], greater(int8 x, 300) is all false and
//   clip(int8 [50, -100, 127], 0, 300) is int16 [50, 0, 127]. (NumPy picks uint16 for uint8 with 256; ember
//   has no uint16 and uses int16.)
// - any other pairing promotes t with the scalar's natural dtype (bool, int64, float64).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "ember/dtype.hpp"

namespace ember {

class Scalar {
 public:
  enum class Kind : unsigned char { boolean, integer, floating };

  Scalar() = default;
  Scalar(bool v)
      : kind_(Kind::boolean), i_(v ? 1 : 0), d_(v ? 1.0 : 0.0) {}  // NOLINT(google-explicit-constructor)
  template <class T>
  requires(std::is_integral_v<T> && !std::is_same_v<T, bool>)
      Scalar(T v)  // NOLINT(google-explicit-constructor)
      : kind_(Kind::integer), i_(static_cast<std::int64_t>(v)), d_(static_cast<double>(v)) {}
  template <class T>
  requires std::is_floating_point_v<T> Scalar(T v)  // NOLINT(google-explicit-constructor)
      : kind_(Kind::floating), i_(0), d_(static_cast<double>(v)) {}
  Scalar(half v) : Scalar(static_cast<float>(v)) {}  // NOLINT(google-explicit-constructor)

  Kind kind() const { return kind_; }
  bool is_floating() const { return kind_ == Kind::floating; }
  bool is_integer() const { return kind_ == Kind::integer; }
  bool is_bool() const { return kind_ == Kind::boolean; }

  // The value converted to T with C++ semantics, except that float -> integer saturates and NaN -> 0,
  // so that no value is undefined behaviour.
  template <class T>
  T to() const {
    if constexpr (std::is_same_v<T, bool>) {
      return kind_ == Kind::floating ? d_ != 0.0 : i_ != 0;
    } else if constexpr (std::is_same_v<T, half>) {
      return half(kind_ == Kind::floating ? static_cast<float>(d_) : static_cast<float>(i_));
    } else if constexpr (std::is_floating_point_v<T>) {
      return kind_ == Kind::floating ? static_cast<T>(d_) : static_cast<T>(i_);
    } else {
      if (kind_ != Kind::floating) return static_cast<T>(i_);
      return saturate<T>(d_);
    }
  }
  double as_double() const { return d_; }
  std::int64_t as_int() const { return kind_ == Kind::floating ? saturate<std::int64_t>(d_) : i_; }

  // The dtype NumPy gives a Python scalar of this kind on its own: bool, int64, float64.
  DType natural_dtype() const {
    return kind_ == Kind::boolean ? DType::bool_ : kind_ == Kind::integer ? DType::int64 : DType::float64;
  }
  std::string str() const;

  template <class T>
  static T saturate(double v) {
    if (!(v == v)) return T{0};
    constexpr double lo = static_cast<double>(std::numeric_limits<T>::min());
    constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
    if (v <= lo) return std::numeric_limits<T>::min();
    if (v >= hi) return std::numeric_limits<T>::max();
    return static_cast<T>(v);
  }

 private:
  Kind kind_ = Kind::integer;
  std::int64_t i_ = 0;
  double d_ = 0.0;
};

}  // namespace ember
