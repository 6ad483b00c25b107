// ember::ops, category "dtype": all answered by the frontend from the dtype tables below.
#include "ember/ops/dtype.hpp"

#include <limits>
#include <string>

#include "ember/error.hpp"

namespace ember::ops {

namespace {

struct DTypeInfo {
  const char* name;
  std::size_t itemsize;
  bool floating;
  bool integer;
  bool is_signed;
};

constexpr DTypeInfo info_of(DType d) {
  switch (d) {
    case DType::bool_:
      return {"bool", 1, false, false, false};
    case DType::uint8:
      return {"uint8", 1, false, true, false};
    case DType::int8:
      return {"int8", 1, false, true, true};
    case DType::int16:
      return {"int16", 2, false, true, true};
    case DType::int32:
      return {"int32", 4, false, true, true};
    case DType::int64:
      return {"int64", 8, false, true, true};
    case DType::float16:
      return {"float16", 2, true, false, true};
    case DType::float32:
      return {"float32", 4, true, false, true};
    case DType::float64:
      break;
  }
  return {"float64", 8, true, false, true};
}

// Smallest float that holds every value of an integer dtype exactly enough for NumPy's promotion.
DType float_for_int(DType i) {
  switch (i) {
    case DType::bool_:
    case DType::uint8:
    case DType::int8:
      return DType::float16;
    case DType::int16:
      return DType::float32;
    default:
      return DType::float64;
  }
}

int float_rank(DType f) {
  return f == DType::float16 ? 0 : f == DType::float32 ? 1 : 2;
}

DType promote_ints(DType a, DType b) {
  if (a == b) return a;
  const auto ia = info_of(a), ib = info_of(b);
  if (ia.is_signed == ib.is_signed) return ia.itemsize >= ib.itemsize ? a : b;
  // One unsigned (only uint8 exists) and one signed: the signed type if it is wider, else int16.
  const DType s = ia.is_signed ? a : b;
  return info_of(s).itemsize > 1 ? s : DType::int16;
}

}  // namespace

std::string dtype_name(DType dtype) {
  return info_of(dtype).name;
}

DType dtype_from_name(std::string_view name) {
  for (DType d : all_dtypes) {
    if (name == info_of(d).name) return d;
  }
  if (name == "bool_") return DType::bool_;
  if (name == "half" || name == "f2") return DType::float16;
  if (name == "f4") return DType::float32;
  if (name == "float" || name == "double" || name == "f8") return DType::float64;
  if (name == "int" || name == "long") return DType::int64;
  throw DTypeError("dtype_from_name: unknown dtype \"" + std::string(name) +
                   "\"; expected one of bool, uint8, int8, int16, int32, int64, float16, float32, float64");
}

std::size_t itemsize(DType dtype) {
  return info_of(dtype).itemsize;
}
bool is_floating(DType dtype) {
  return info_of(dtype).floating;
}
bool is_integer(DType dtype) {
  return info_of(dtype).integer;
}
bool is_signed(DType dtype) {
  return info_of(dtype).is_signed;
}

DType result_type(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::bool_) return b;
  if (b == DType::bool_) return a;
  const bool fa = is_floating(a), fb = is_floating(b);
  if (fa && fb) return float_rank(a) >= float_rank(b) ? a : b;
  if (!fa && !fb) return promote_ints(a, b);
  const DType f = fa ? a : b;
  const DType i = fa ? b : a;
  const DType fi = float_for_int(i);
  return float_rank(fi) >= float_rank(f) ? fi : f;
}

bool can_cast(DType from, DType to) {
  return result_type(from, to) == to;
}

FInfo finfo(DType dtype) {
  switch (dtype) {
    case DType::float16:
      return {16, 0.0009765625, 65504.0, -65504.0, 6.103515625e-05, 5.960464477539063e-08, 0.001};
    case DType::float32:
      return {32,
              std::numeric_limits<float>::epsilon(),
              std::numeric_limits<float>::max(),
              -std::numeric_limits<float>::max(),
              std::numeric_limits<float>::min(),
              std::numeric_limits<float>::denorm_min(),
              1e-06};
    case DType::float64:
      return {64,
              std::numeric_limits<double>::epsilon(),
              std::numeric_limits<double>::max(),
              -std::numeric_limits<double>::max(),
              std::numeric_limits<double>::min(),
              std::numeric_limits<double>::denorm_min(),
              1e-15};
    default:
      throw DTypeError("finfo: expected a floating-point dtype, got " + dtype_name(dtype));
  }
}

IInfo iinfo(DType dtype) {
  switch (dtype) {
    case DType::uint8:
      return {8, 0, 255};
    case DType::int8:
      return {8, -128, 127};
    case DType::int16:
      return {16, std::numeric_limits<std::int16_t>::min(), std::numeric_limits<std::int16_t>::max()};
    case DType::int32:
      return {32, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()};
    case DType::int64:
      return {64, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
    default:
      throw DTypeError("iinfo: expected an integer dtype, got " + dtype_name(dtype));
  }
}

}  // namespace ember::ops
