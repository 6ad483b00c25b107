// ember::ops, category "dtype": names, properties, promotion and limits of dtypes.
#pragma once

#include <string>
#include <string_view>

#include "ember/dtype.hpp"

namespace ember::ops {

// "bool", "uint8", ..., "float64" (NumPy's names).
std::string dtype_name(DType dtype);
// Inverse of dtype_name; DTypeError for anything else but these aliases, read as NumPy reads them (Python's
// float and int, not C's): "float", "double", "f8" -> float64; "int", "long" -> int64; "half", "f2" ->
// float16; "f4" -> float32; "bool_" -> bool.
DType dtype_from_name(std::string_view name);
std::size_t itemsize(DType dtype);
bool is_floating(DType dtype);
bool is_integer(DType dtype);  // bool is not an integer dtype
bool is_signed(DType dtype);
// The Array API promotion lattice, extended to mixed int/float kinds like NumPy
// (int8/uint8 with float16 -> float16, int16 with float16 -> float32, int32/int64 with float16/float32 ->
// float64); bool promotes with numeric types to them.
DType result_type(DType a, DType b);
// NumPy's can_cast with casting="safe".
bool can_cast(DType from, DType to);

struct FInfo {
  int bits;
  double eps;
  double max;
  double min;   // most negative finite value
  double tiny;  // smallest positive normal
  double smallest_subnormal;
  double resolution;
};
struct IInfo {
  int bits;
  std::int64_t min;
  std::int64_t max;
};
// DTypeError for a dtype of the other kind.
FInfo finfo(DType dtype);
IInfo iinfo(DType dtype);

}  // namespace ember::ops
