#include "ember/shape.hpp"

#include <limits>
#include <string>

#include "ember/error.hpp"

namespace ember {

std::string shape_str(const Shape& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

std::int64_t shape_numel(const Shape& shape) {
  std::int64_t n = 1;
  for (auto d : shape) {
    if (d < 0) throw ShapeError("negative dimension in shape " + shape_str(shape));
    if (d != 0 && n > std::numeric_limits<std::int64_t>::max() / d) {
      throw ShapeError("shape " + shape_str(shape) + " has more elements than int64 can count");
    }
    n *= d;
  }
  for (auto d : shape) {
    if (d == 0) return 0;
  }
  return n;
}

Shape contiguous_strides(const Shape& shape) {
  Shape strides(shape.size(), 1);
  for (std::size_t i = shape.size(); i-- > 1;)
    strides[i - 1] = strides[i] * std::max<std::int64_t>(shape[i], 1);
  return strides;
}

Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op) {
  const std::size_t nd = std::max(a.size(), b.size());
  Shape out(nd);
  for (std::size_t i = 0; i < nd; ++i) {
    const std::int64_t da = i < nd - a.size() ? 1 : a[i - (nd - a.size())];
    const std::int64_t db = i < nd - b.size() ? 1 : b[i - (nd - b.size())];
    if (da != db && da != 1 && db != 1) {
      throw ShapeError(std::string(op) + ": shapes " + shape_str(a) + " and " + shape_str(b) +
                       " do not broadcast (axis " + std::to_string(i) + ": " + std::to_string(da) + " vs " +
                       std::to_string(db) + ")");
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

int normalize_axis(std::int64_t axis, std::int64_t ndim, const char* op) {
  if (axis < -ndim || axis >= ndim || (ndim == 0)) {
    throw ShapeError(std::string(op) + ": axis " + std::to_string(axis) + " is out of range for a " +
                     std::to_string(ndim) + "-d tensor");
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

Shape broadcast_strides(const Shape& shape, const Shape& out_shape) {
  const Shape strides = contiguous_strides(shape);
  Shape out(out_shape.size(), 0);
  const std::size_t lead = out_shape.size() - shape.size();
  for (std::size_t i = 0; i < shape.size(); ++i) out[lead + i] = shape[i] == 1 ? 0 : strides[i];
  return out;
}

}  // namespace ember
