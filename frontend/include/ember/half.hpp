// IEEE 754 binary16 storage type. Arithmetic happens in float32; only conversion lives here.
#pragma once

#include <bit>
#include <cstdint>

namespace ember {

struct half {
  std::uint16_t bits = 0;

  half() = default;
  explicit half(float f) : bits(from_float(f)) {}
  explicit operator float() const { return to_float(bits); }

  static half from_bits(std::uint16_t b) {
    half h;
    h.bits = b;
    return h;
  }

  // Round to nearest, ties to even; overflow goes to +-inf; NaN stays NaN (quiet).
  static std::uint16_t from_float(float f) {
    const std::uint32_t x = std::bit_cast<std::uint32_t>(f);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    const std::uint32_t abs = x & 0x7fffffffu;
    if (abs >= 0x7f800000u) {  // inf or NaN
      return static_cast<std::uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x0200u : 0u));
    }
    if (abs >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // rounds to >= 65520: inf
    if (abs < 0x38800000u) {  // below the smallest normal half: subnormal or zero
      if (abs < 0x33000000u) return static_cast<std::uint16_t>(sign);  // < 2^-25 rounds to zero
      const std::uint32_t exponent = abs >> 23;
      const std::uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;
      const std::uint32_t shift = 126u - exponent;  // 14..24
      std::uint32_t result = mantissa >> shift;
      const std::uint32_t rem = mantissa & ((1u << shift) - 1u);
      const std::uint32_t halfway = 1u << (shift - 1u);
      if (rem > halfway || (rem == halfway && (result & 1u))) ++result;
      return static_cast<std::uint16_t>(sign | result);
    }
    std::uint32_t result = ((abs - 0x38000000u) >> 13);
    const std::uint32_t rem = abs & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (result & 1u))) ++result;
    return static_cast<std::uint16_t>(sign | result);
  }

  static float to_float(std::uint16_t h) {
    const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1fu;
    std::uint32_t mantissa = h & 0x3ffu;
    std::uint32_t out;
    if (exponent == 0) {
      if (mantissa == 0) {
        out = sign;
      } else {  // subnormal: normalise
        int e = -1;
        do {
          ++e;
          mantissa <<= 1;
        } while ((mantissa & 0x400u) == 0);
        out = sign | static_cast<std::uint32_t>(112 - e) << 23 | (mantissa & 0x3ffu) << 13;
      }
    } else if (exponent == 0x1f) {
      out = sign | 0x7f800000u | mantissa << 13;
    } else {
      out = sign | (exponent + 112u) << 23 | mantissa << 13;
    }
    return std::bit_cast<float>(out);
  }
};

}  // namespace ember
