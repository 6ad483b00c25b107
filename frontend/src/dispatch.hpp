// Frontend-internal helpers shared by the op files: checking operands, allocating outputs, promoting.
// Every op validates here once and then calls exactly one backend method per computation.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "ember/backend.hpp"
#include "ember/error.hpp"
#include "ember/scalar.hpp"
#include "ember/tensor.hpp"

namespace ember::detail {

// "float32 (2, 3)": how errors name a tensor.
std::string describe(const Tensor& x);
// "float32 (2, 3) and int64 (3,)": how errors name several tensors.
std::string describe(std::initializer_list<const Tensor*> xs);

// The one backend and device all operands share. Throws BackendError for an undefined tensor or operands
// of different backends, DeviceError for different devices, naming `op` and every operand.
Backend& common_backend(const char* op, std::initializer_list<const Tensor*> xs);

// A new uninitialised tensor on `backend` and `device`. Throws ShapeError for a negative or overflowing
// shape and BackendError (naming op, shape and dtype) when the memory cannot be had.
Tensor empty(const char* op, Backend& backend, Device device, Shape shape, DType dtype);
// Same backend and device as x.
Tensor empty_like(const char* op, const Tensor& x, const Shape& shape, DType dtype);

// Where creation ops go: the current backend and the default device.
Backend& creation_backend();
Device creation_device(const char* op, Backend& backend, std::optional<Device> device);

// x itself if it has `dtype`, else a converted copy made by x's backend.
Tensor cast_to(const Tensor& x, DType dtype);
// x if it has `dtype` (no copy), else a converted copy kept alive in `storage`.
const Tensor& cast_into(const Tensor& x, DType dtype, std::optional<Tensor>& storage);

// A 0-d tensor holding `value` as `dtype` on x's backend and device.
Tensor scalar_like(const char* op, const Tensor& x, Scalar value, DType dtype);
// The dtype a Python-style scalar operand gets next to a tensor of dtype `t`: the rule ember/scalar.hpp
// documents.
DType scalar_operand_dtype(DType t, const Scalar& s);

// Sorted, distinct axes in [0, ndim); nullopt = every axis. ShapeError for out-of-range or repeated axes.
std::vector<int> normalize_axes(const Axes& axes, std::int64_t ndim, const char* op);
// x's shape with the reduced axes set to 1 (keepdims) or removed.
Shape reduced_shape(const Shape& shape, const std::vector<int>& axes, bool keepdims);

// Throws DTypeError "op: expected <what>, got <dtype>" unless ok.
void require_dtype(bool ok, const char* op, const char* what, const Tensor& x);

}  // namespace ember::detail
