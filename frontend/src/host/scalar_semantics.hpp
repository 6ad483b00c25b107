// Scalar semantics every host backend shares: the compute type (float for float16), wrapping integer
// arithmetic, Python-style floor division and modulo, integer power, NaN-propagating min/max and the
// element conversion of cast. Backend-agnostic: no backend library header may be included here.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "ember/half.hpp"
#include "ember/scalar.hpp"

namespace ember::host {

// The type arithmetic happens in: float for half, the storage type otherwise.
template <class T>
using compute_t = std::conditional_t<std::is_same_v<T, half>, float, T>;

template <class T>
inline compute_t<T> load(T v) {
  if constexpr (std::is_same_v<T, half>) {
    return static_cast<float>(v);
  } else {
    return v;
  }
}
template <class T, class C>
inline T store(C v) {
  if constexpr (std::is_same_v<T, half>) {
    return half(static_cast<float>(v));
  } else {
    return static_cast<T>(v);
  }
}

template <class T>
inline constexpr bool is_float_v = std::is_floating_point_v<T>;

// The unsigned type integer arithmetic wraps in: never narrower than `unsigned`, so that small types do not
// promote to (signed, overflowing) int.
template <class T>
using wrap_t = std::conditional_t<(sizeof(T) <= sizeof(unsigned)), unsigned, std::uint64_t>;

template <class T>
inline T wrap_add(T x, T y) {
  return static_cast<T>(static_cast<wrap_t<T>>(x) + static_cast<wrap_t<T>>(y));
}
template <class T>
inline T wrap_sub(T x, T y) {
  return static_cast<T>(static_cast<wrap_t<T>>(x) - static_cast<wrap_t<T>>(y));
}
template <class T>
inline T wrap_mul(T x, T y) {
  return static_cast<T>(static_cast<wrap_t<T>>(x) * static_cast<wrap_t<T>>(y));
}

// Storage-type arithmetic: wrapping for integers (never signed overflow: promoted and unsigned), || and &&
// for bool, compute_t (then rounded) for floats.
template <class T>
T wrapping_add(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a || b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return store<T>(load(a) + load(b));
  }
}
template <class T>
T wrapping_multiply(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else if constexpr (std::is_integral_v<T>) {
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
  } else {
    return store<T>(load(a) * load(b));
  }
}

// Arithmetic in compute type C: wrapping for integers, IEEE for floats.
template <class C>
inline C add_of(C x, C y) {
  if constexpr (is_float_v<C>)
    return x + y;
  else
    return wrap_add(x, y);
}
template <class C>
inline C sub_of(C x, C y) {
  if constexpr (is_float_v<C>)
    return x - y;
  else
    return wrap_sub(x, y);
}
template <class C>
inline C mul_of(C x, C y) {
  if constexpr (is_float_v<C>)
    return x * y;
  else
    return wrap_mul(x, y);
}

template <class C>
inline bool is_nan(C x) {
  if constexpr (is_float_v<C>)
    return std::isnan(x);
  else
    return false;
}

// NumPy's minimum/maximum: NaN propagates (the first NaN operand wins).
template <class C>
inline C min_of(C x, C y) {
  if (is_nan(x)) return x;
  if (is_nan(y)) return y;
  return y < x ? y : x;
}
template <class C>
inline C max_of(C x, C y) {
  if (is_nan(x)) return x;
  if (is_nan(y)) return y;
  return x < y ? y : x;
}

// NumPy's npy_divmod for floats: floor division and a remainder with the sign of the divisor.
template <class C>
inline C float_floor_divide(C a, C b) {
  if (b == C(0)) return a / b;
  C mod = std::fmod(a, b);
  C div = (a - mod) / b;
  if (mod != C(0)) {
    if ((b < C(0)) != (mod < C(0))) div -= C(1);
  }
  if (div != C(0)) {
    C floordiv = std::floor(div);
    if (div - floordiv > C(0.5)) floordiv += C(1);
    return floordiv;
  }
  return std::copysign(C(0), a / b);
}
template <class C>
inline C float_mod(C a, C b) {
  C mod = std::fmod(a, b);
  if (b == C(0)) return mod;
  if (mod != C(0)) {
    if ((b < C(0)) != (mod < C(0))) mod += b;
  } else {
    mod = std::copysign(C(0), b);
  }
  return mod;
}

// Python integer division: floor, x // 0 == 0, MIN // -1 == MIN (wraps).
template <class C>
inline C int_floor_divide(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) {
    return b ? a : false;
  } else {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<C>) {
      if (b == -1) return wrap_sub(C(0), a);
      C q = static_cast<C>(a / b);
      if (static_cast<C>(a % b) != 0 && ((a < 0) != (b < 0))) --q;
      return q;
    } else {
      return static_cast<C>(a / b);
    }
  }
}
// Python integer modulo: the sign of the divisor, x % 0 == 0.
template <class C>
inline C int_mod(C a, C b) {
  if constexpr (std::is_same_v<C, bool>) {
    return false;
  } else {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<C>) {
      if (b == -1) return 0;
      C r = static_cast<C>(a % b);
      if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<C>(r + b);
      return r;
    } else {
      return static_cast<C>(a % b);
    }
  }
}

// Exact integer power by repeated squaring, wrapping; negative exponents give 1 for 1, +-1 for -1, else 0.
template <class C>
inline C int_power(C base, C exponent) {
  if constexpr (std::is_same_v<C, bool>) {
    return base || !exponent;
  } else {
    if constexpr (std::is_signed_v<C>) {
      if (exponent < 0) {
        if (base == 1) return 1;
        if (base == -1) return (exponent % 2 == 0) ? C(1) : C(-1);
        return 0;
      }
    }
    wrap_t<C> result = 1, b = static_cast<wrap_t<C>>(base);
    auto e = static_cast<std::uint64_t>(exponent);
    while (e != 0) {
      if (e & 1u) result *= b;
      b *= b;
      e >>= 1u;
    }
    return static_cast<C>(result);
  }
}

// ---- cast ------------------------------------------------------------------------------------------------

// double -> float16 rounded once: round to odd into float (keeps the sticky bit), then to nearest even.
inline half half_from_double(double d) {
  if (std::isnan(d)) return half(static_cast<float>(d));
  if (std::fabs(d) >= 65520.0) return half(std::copysign(std::numeric_limits<float>::infinity(), d));
  float f = static_cast<float>(d);
  if (static_cast<double>(f) != d) {
    if (std::fabs(static_cast<double>(f)) > std::fabs(d)) f = std::nextafter(f, 0.0f);
    f = std::bit_cast<float>(std::bit_cast<std::uint32_t>(f) | 1u);
  }
  return half(f);
}

// One element of cast with NumPy's astype results and defined edge cases: saturating float -> integer,
// NaN -> 0, NaN -> true, integer -> integer wrapping, one correctly rounded step to float16.
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

}  // namespace ember::host
