// ember::ops, category "tensor": creation, conversion and manipulation.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "ember/backend/tensor_ops.hpp"
#include "ember/device.hpp"
#include "ember/dtype.hpp"
#include "ember/scalar.hpp"
#include "ember/tensor.hpp"

namespace ember::ops {

// Creation ops run on the current backend (ember::current_backend()) and its default device unless a
// device is given.
Tensor zeros(const Shape& shape, DType dtype = DType::float32, std::optional<Device> device = std::nullopt);
Tensor ones(const Shape& shape, DType dtype = DType::float32, std::optional<Device> device = std::nullopt);
// dtype defaults to the value's natural dtype (bool, int64, float64) like NumPy.
Tensor full(const Shape& shape, Scalar value, std::optional<DType> dtype = std::nullopt,
            std::optional<Device> device = std::nullopt);
// The *_like ops keep x's backend and device; dtype defaults to x's.
Tensor zeros_like(const Tensor& x, std::optional<DType> dtype = std::nullopt);
Tensor ones_like(const Tensor& x, std::optional<DType> dtype = std::nullopt);
Tensor full_like(const Tensor& x, Scalar value, std::optional<DType> dtype = std::nullopt);
// n x m (m defaults to n) with ones on the k-th diagonal.
Tensor eye(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
           DType dtype = DType::float32, std::optional<Device> device = std::nullopt);
// [start, stop) in steps of step; dtype defaults to int64 when all three are integers, else float64.
Tensor arange(Scalar start, Scalar stop, Scalar step = 1, std::optional<DType> dtype = std::nullopt,
              std::optional<Device> device = std::nullopt);
Tensor arange(Scalar stop);
Tensor linspace(double start, double stop, std::int64_t num = 50, bool endpoint = true,
                DType dtype = DType::float64, std::optional<Device> device = std::nullopt);

// Copies host data into a new tensor. The span's element type fixes the dtype; its size must equal the
// shape's element count.
template <class T>
Tensor from_data(std::span<const T> data, const Shape& shape, std::optional<Device> device = std::nullopt);
template <class T>
Tensor from_data(const std::vector<T>& data, const Shape& shape,
                 std::optional<Device> device = std::nullopt) {
  return from_data(std::span<const T>(data.data(), data.size()), shape, device);
}
// Untyped form: `bytes` holds shape_numel(shape) elements of `dtype`.
Tensor from_bytes(const void* bytes, std::size_t nbytes, const Shape& shape, DType dtype,
                  std::optional<Device> device = std::nullopt);

// Copies the elements to the host, converted to T if T differs from the tensor's dtype.
template <class T>
std::vector<T> to_host(const Tensor& x);
// The single element of a size-1 tensor (any shape); ShapeError otherwise.
Scalar item(const Tensor& x);
template <class T>
T item(const Tensor& x) {
  return item(x).to<T>();
}

Tensor copy(const Tensor& x);
// NumPy astype; see DTypeOps::cast for the edge cases.
Tensor cast(const Tensor& x, DType dtype);

// Views (no copy). reshape accepts one -1 dimension.
Tensor reshape(const Tensor& x, const Shape& shape);
// Reverses the axes without `axes`.
Tensor transpose(const Tensor& x, std::optional<std::vector<std::int64_t>> axes = std::nullopt);
Tensor expand_dims(const Tensor& x, std::int64_t axis);
// Removes every extent-1 axis, or only the given ones (ShapeError if one of them is not 1).
Tensor squeeze(const Tensor& x, std::optional<std::vector<std::int64_t>> axes = std::nullopt);
Tensor flatten(const Tensor& x);
Tensor broadcast_to(const Tensor& x, const Shape& shape);

Tensor concatenate(const std::vector<Tensor>& xs, std::int64_t axis = 0);
Tensor stack(const std::vector<Tensor>& xs, std::int64_t axis = 0);
// Into `sections` equal parts (ShapeError if they are not equal) ...
std::vector<Tensor> split(const Tensor& x, std::int64_t sections, std::int64_t axis = 0);
// ... or at the given indices, like NumPy's array_split with a list.
std::vector<Tensor> split(const Tensor& x, const std::vector<std::int64_t>& indices, std::int64_t axis = 0);
Tensor tile(const Tensor& x, const std::vector<std::int64_t>& reps);
Tensor pad(const Tensor& x, const std::vector<std::pair<std::int64_t, std::int64_t>>& pad_width,
           PadMode mode = PadMode::constant, Scalar value = 0);

// Python slicing per axis: start/stop/step with NumPy's clamping; missing trailing axes are taken whole.
struct Slice {
  std::optional<std::int64_t> start;
  std::optional<std::int64_t> stop;
  std::int64_t step = 1;
};
Tensor slice(const Tensor& x, const std::vector<Slice>& slices);

// NumPy take along an axis (axis = nullopt: on the flattened tensor). Indices: any integer dtype.
Tensor gather(const Tensor& x, const Tensor& indices, std::optional<std::int64_t> axis = std::nullopt);
// A copy of x with updates added at indices along axis (np.add.at); repeated indices accumulate.
Tensor scatter_add(const Tensor& x, const Tensor& indices, const Tensor& updates, std::int64_t axis = 0);
// axes = nullopt: every axis.
Tensor flip(const Tensor& x, std::optional<std::vector<std::int64_t>> axes = std::nullopt);
Tensor sort(const Tensor& x, std::int64_t axis = -1, bool descending = false);
Tensor argsort(const Tensor& x, std::int64_t axis = -1, bool descending = false);

}  // namespace ember::ops
