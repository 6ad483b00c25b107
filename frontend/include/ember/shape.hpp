// Shapes, element counts and the broadcasting rule shared by the frontend and every backend.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ember {

using Shape = std::vector<std::int64_t>;
// The axes of a reduction; nullopt means every axis.
using Axes = std::optional<std::vector<std::int64_t>>;

// "(2, 3)"; "()" for a 0-d shape.
std::string shape_str(const Shape& shape);

// Number of elements; throws ShapeError if a dimension is negative or the count overflows int64.
std::int64_t shape_numel(const Shape& shape);

// Row-major (C order) strides in elements.
Shape contiguous_strides(const Shape& shape);

// NumPy broadcasting of two shapes; throws ShapeError naming `op` and both shapes if they do not broadcast.
Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op);

// Normalises an axis in [-ndim, ndim) to [0, ndim); throws ShapeError naming `op` otherwise.
int normalize_axis(std::int64_t axis, std::int64_t ndim, const char* op);

// Element strides of `shape` seen through `out_shape`'s broadcasting: 0 along broadcast dimensions.
// `shape` must broadcast to `out_shape` (the frontend has checked it).
Shape broadcast_strides(const Shape& shape, const Shape& out_shape);

}  // namespace ember
