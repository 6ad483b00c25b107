// Axis normalisation for the tensor and solver ops whose errors also name the tensor (its dtype and shape).
#pragma once

#include <string>
#include <vector>

#include "dispatch.hpp"

namespace ember::detail {

// normalize_axis(axis, ndim, op), with x described in the ShapeError (ndim may exceed x.ndim(), as in
// expand_dims and stack).
inline int axis_of(const char* op, std::int64_t axis, std::int64_t ndim, const Tensor& x) {
  try {
    return normalize_axis(axis, ndim, op);
  } catch (const ShapeError& e) {
    throw ShapeError(std::string(e.what()) + " (" + describe(x) + ")");
  }
}
inline int axis_of(const char* op, std::int64_t axis, const Tensor& x) {
  return axis_of(op, axis, x.ndim(), x);
}

// normalize_axes(axes, x.ndim(), op), with x described in the ShapeError.
inline std::vector<int> axes_of(const char* op, const Axes& axes, const Tensor& x) {
  try {
    return normalize_axes(axes, x.ndim(), op);
  } catch (const ShapeError& e) {
    throw ShapeError(std::string(e.what()) + " (" + describe(x) + ")");
  }
}

}  // namespace ember::detail
