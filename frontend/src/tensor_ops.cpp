// ember::ops, category "tensor", part 1: creation, host transfer, copies and view-like shape changes.
// Joining, slicing, indexing and sorting are in tensor_index_ops.cpp.
#include "ember/ops/tensor.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "dispatch.hpp"
#include "ember/ops/dtype.hpp"
#include "tensor_axes.hpp"

namespace ember::ops {

namespace {

Tensor created(const char* op, const Shape& shape, DType dtype, std::optional<Device> device) {
  Backend& backend = detail::creation_backend();
  const Device where = detail::creation_device(op, backend, device);
  return detail::empty(op, backend, where, shape, dtype);
}

Tensor filled(const char* op, const Shape& shape, Scalar value, DType dtype, std::optional<Device> device) {
  Tensor out = created(op, shape, dtype, device);
  out.backend().full(out, value);
  return out;
}

Tensor filled_like(const char* op, const Tensor& x, Scalar value, std::optional<DType> dtype) {
  detail::common_backend(op, {&x});
  Tensor out = detail::empty_like(op, x, x.shape(), dtype.value_or(x.dtype()));
  out.backend().full(out, value);
  return out;
}

std::int64_t checked_numel(const char* op, const Shape& shape) {
  try {
    return shape_numel(shape);
  } catch (const ShapeError& e) {
    throw ShapeError(std::string(op) + ": " + e.what());
  }
}

// Number of elements of arange(start, stop, step), computed without overflow.
std::int64_t arange_length(const Scalar& start, const Scalar& stop, const Scalar& step, bool integral) {
  if (integral) {
    const __int128 a = start.as_int(), b = stop.as_int(), s = step.as_int();
    if (s == 0) throw ValueError("arange: step must not be zero");
    const __int128 span = s > 0 ? b - a : a - b;
    const __int128 mag = s > 0 ? s : -s;
    if (span <= 0) return 0;
    const __int128 n = (span + mag - 1) / mag;
    if (n > std::numeric_limits<std::int64_t>::max()) throw ShapeError("arange: too many elements");
    return static_cast<std::int64_t>(n);
  }
  const double a = start.as_double(), b = stop.as_double(), s = step.as_double();
  if (s == 0.0) throw ValueError("arange: step must not be zero");
  if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(s)) {
    throw ValueError("arange: start, stop and step must be finite, got " + start.str() + ", " + stop.str() +
                     ", " + step.str());
  }
  const double n = std::ceil((b - a) / s);
  if (!(n > 0)) return 0;
  if (n >= 9.2e18) throw ShapeError("arange: too many elements (" + std::to_string(n) + ")");
  return static_cast<std::int64_t>(n);
}

void from_host_bytes(Tensor& out, const void* bytes) {
  if (out.size() != 0) out.backend().from_data(out, bytes);
}

}  // namespace

Tensor zeros(const Shape& shape, DType dtype, std::optional<Device> device) {
  return filled("zeros", shape, 0, dtype, device);
}

Tensor ones(const Shape& shape, DType dtype, std::optional<Device> device) {
  return filled("ones", shape, 1, dtype, device);
}

Tensor full(const Shape& shape, Scalar value, std::optional<DType> dtype, std::optional<Device> device) {
  return filled("full", shape, value, dtype.value_or(value.natural_dtype()), device);
}

Tensor zeros_like(const Tensor& x, std::optional<DType> dtype) {
  return filled_like("zeros_like", x, 0, dtype);
}

Tensor ones_like(const Tensor& x, std::optional<DType> dtype) {
  return filled_like("ones_like", x, 1, dtype);
}

Tensor full_like(const Tensor& x, Scalar value, std::optional<DType> dtype) {
  return filled_like("full_like", x, value, dtype);
}

Tensor eye(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, DType dtype,
           std::optional<Device> device) {
  Tensor out = created("eye", {n, m.value_or(n)}, dtype, device);
  out.backend().eye(out, k);
  return out;
}

Tensor arange(Scalar start, Scalar stop, Scalar step, std::optional<DType> dtype,
              std::optional<Device> device) {
  const bool integral = !start.is_floating() && !stop.is_floating() && !step.is_floating();
  const std::int64_t n = arange_length(start, stop, step, integral);
  Tensor out = created("arange", {n}, dtype.value_or(integral ? DType::int64 : DType::float64), device);
  if (n != 0) out.backend().arange(out, start.as_double(), step.as_double());
  return out;
}

Tensor arange(Scalar stop) {
  return arange(0, stop, 1);
}

Tensor linspace(double start, double stop, std::int64_t num, bool endpoint, DType dtype,
                std::optional<Device> device) {
  if (num < 0)
    throw ValueError("linspace: number of samples " + std::to_string(num) + " must be non-negative");
  Tensor out = created("linspace", {num}, dtype, device);
  out.backend().linspace(out, start, stop, endpoint);
  return out;
}

template <class T>
Tensor from_data(std::span<const T> data, const Shape& shape, std::optional<Device> device) {
  const std::int64_t n = checked_numel("from_data", shape);
  if (static_cast<std::uint64_t>(n) != data.size()) {
    throw ShapeError("from_data: " + std::to_string(data.size()) + " elements cannot fill shape " +
                     shape_str(shape) + " (" + std::to_string(n) + " elements)");
  }
  Tensor out = created("from_data", shape, dtype_of<T>(), device);
  from_host_bytes(out, data.data());
  return out;
}

Tensor from_bytes(const void* bytes, std::size_t nbytes, const Shape& shape, DType dtype,
                  std::optional<Device> device) {
  const std::int64_t n = checked_numel("from_bytes", shape);
  if (static_cast<std::uint64_t>(n) > std::numeric_limits<std::size_t>::max() / itemsize(dtype) ||
      static_cast<std::size_t>(n) * itemsize(dtype) != nbytes) {
    throw ShapeError("from_bytes: " + std::to_string(nbytes) + " bytes do not hold shape " +
                     shape_str(shape) + " of " + dtype_name(dtype));
  }
  Tensor out = created("from_bytes", shape, dtype, device);
  from_host_bytes(out, bytes);
  return out;
}

template <class T>
std::vector<T> to_host(const Tensor& x) {
  detail::common_backend("to_host", {&x});
  const Tensor y = detail::cast_to(x, dtype_of<T>());
  if constexpr (std::is_same_v<T, bool>) {
    std::vector<unsigned char> bytes(static_cast<std::size_t>(y.size()));
    if (!bytes.empty()) y.backend().to_host(y, bytes.data());
    std::vector<bool> result(bytes.size());
    for (std::size_t i = 0; i < bytes.size(); ++i) result[i] = bytes[i] != 0;
    return result;
  } else {
    std::vector<T> result(static_cast<std::size_t>(y.size()));
    if (!result.empty()) y.backend().to_host(y, result.data());
    return result;
  }
}

#define EMBER_INSTANTIATE_HOST_TRANSFER(T)                                               \
  template Tensor from_data<T>(std::span<const T>, const Shape&, std::optional<Device>); \
  template std::vector<T> to_host<T>(const Tensor&);
EMBER_INSTANTIATE_HOST_TRANSFER(bool)
EMBER_INSTANTIATE_HOST_TRANSFER(std::uint8_t)
EMBER_INSTANTIATE_HOST_TRANSFER(std::int8_t)
EMBER_INSTANTIATE_HOST_TRANSFER(std::int16_t)
EMBER_INSTANTIATE_HOST_TRANSFER(std::int32_t)
EMBER_INSTANTIATE_HOST_TRANSFER(std::int64_t)
EMBER_INSTANTIATE_HOST_TRANSFER(half)
EMBER_INSTANTIATE_HOST_TRANSFER(float)
EMBER_INSTANTIATE_HOST_TRANSFER(double)
#undef EMBER_INSTANTIATE_HOST_TRANSFER

Scalar item(const Tensor& x) {
  detail::common_backend("item", {&x});
  if (x.size() != 1) {
    throw ShapeError("item: only a tensor with exactly one element converts to a scalar, got " +
                     detail::describe(x));
  }
  return visit_dtype(x.dtype(), [&](auto t) {
    using T = decltype(t);
    T value{};
    x.backend().to_host(x, &value);
    return Scalar(value);
  });
}

Tensor copy(const Tensor& x) {
  detail::common_backend("copy", {&x});
  Tensor out = detail::empty_like("copy", x, x.shape(), x.dtype());
  if (out.size() != 0) x.backend().copy(x, out);
  return out;
}

Tensor cast(const Tensor& x, DType dtype) {
  detail::common_backend("cast", {&x});
  return detail::cast_to(x, dtype);
}

Tensor reshape(const Tensor& x, const Shape& shape) {
  detail::common_backend("reshape", {&x});
  Shape target = shape;
  std::int64_t known = 1;
  std::optional<std::size_t> inferred;
  for (std::size_t d = 0; d < target.size(); ++d) {
    if (target[d] == -1) {
      if (inferred)
        throw ShapeError("reshape: can only specify one unknown dimension, got " + shape_str(shape));
      inferred = d;
    } else if (target[d] < 0) {
      throw ShapeError("reshape: negative dimension " + std::to_string(target[d]) + " in " +
                       shape_str(shape));
    } else if (__builtin_mul_overflow(known, target[d], &known)) {
      throw ShapeError("reshape: shape " + shape_str(shape) + " has too many elements");
    }
  }
  if (inferred) {
    if (known == 0 || x.size() % known != 0) {
      throw ShapeError("reshape: cannot reshape " + detail::describe(x) + " into shape " + shape_str(shape));
    }
    target[*inferred] = x.size() / known;
  } else if (known != x.size()) {
    throw ShapeError("reshape: cannot reshape " + detail::describe(x) + " into shape " + shape_str(shape));
  }
  return x.view(target);
}

Tensor transpose(const Tensor& x, std::optional<std::vector<std::int64_t>> axes) {
  detail::common_backend("transpose", {&x});
  const auto nd = x.ndim();
  std::vector<int> perm;
  if (!axes) {
    for (auto d = nd; d-- > 0;) perm.push_back(static_cast<int>(d));
  } else {
    if (static_cast<std::int64_t>(axes->size()) != nd) {
      throw ShapeError("transpose: axes list of length " + std::to_string(axes->size()) +
                       " does not match a " + std::to_string(nd) + "-d tensor " + detail::describe(x));
    }
    std::vector<bool> seen(static_cast<std::size_t>(nd), false);
    for (auto a : *axes) {
      const int d = detail::axis_of("transpose", a, x);
      if (seen[static_cast<std::size_t>(d)])
        throw ShapeError("transpose: repeated axis in the axes list for " + detail::describe(x));
      seen[static_cast<std::size_t>(d)] = true;
      perm.push_back(d);
    }
  }
  Shape shape;
  bool identity = true;
  for (std::size_t i = 0; i < perm.size(); ++i) {
    shape.push_back(x.shape()[static_cast<std::size_t>(perm[i])]);
    identity = identity && perm[i] == static_cast<int>(i);
  }
  if (identity) return x;
  Tensor out = detail::empty_like("transpose", x, shape, x.dtype());
  if (out.size() != 0) x.backend().transpose(x, perm, out);
  return out;
}

Tensor expand_dims(const Tensor& x, std::int64_t axis) {
  detail::common_backend("expand_dims", {&x});
  const int d = detail::axis_of("expand_dims", axis, x.ndim() + 1, x);
  Shape shape = x.shape();
  shape.insert(shape.begin() + d, 1);
  return x.view(shape);
}

Tensor squeeze(const Tensor& x, std::optional<std::vector<std::int64_t>> axes) {
  detail::common_backend("squeeze", {&x});
  Shape shape;
  if (!axes) {
    for (auto e : x.shape()) {
      if (e != 1) shape.push_back(e);
    }
    return x.view(shape);
  }
  const auto drop = detail::axes_of("squeeze", *axes, x);
  for (int d : drop) {
    if (x.shape()[static_cast<std::size_t>(d)] != 1) {
      throw ShapeError("squeeze: cannot remove axis " + std::to_string(d) + " of extent " +
                       std::to_string(x.shape()[static_cast<std::size_t>(d)]) + " from " +
                       detail::describe(x));
    }
  }
  for (std::size_t d = 0; d < x.shape().size(); ++d) {
    if (!std::binary_search(drop.begin(), drop.end(), static_cast<int>(d))) shape.push_back(x.shape()[d]);
  }
  return x.view(shape);
}

Tensor flatten(const Tensor& x) {
  detail::common_backend("flatten", {&x});
  return x.view({x.size()});
}

Tensor broadcast_to(const Tensor& x, const Shape& shape) {
  detail::common_backend("broadcast_to", {&x});
  checked_numel("broadcast_to", shape);
  bool ok = shape.size() >= x.shape().size();
  for (std::size_t i = 0; ok && i < x.shape().size(); ++i) {
    const auto xe = x.shape()[x.shape().size() - 1 - i], te = shape[shape.size() - 1 - i];
    ok = xe == te || xe == 1;
  }
  if (!ok) {
    throw ShapeError("broadcast_to: cannot broadcast " + detail::describe(x) + " to shape " +
                     shape_str(shape));
  }
  if (shape == x.shape()) return x;
  Shape padded(shape.size() - x.shape().size(), 1);
  padded.insert(padded.end(), x.shape().begin(), x.shape().end());
  const Tensor xv = x.view(padded);
  Tensor out = detail::empty_like("broadcast_to", x, shape, x.dtype());
  if (out.size() != 0) x.backend().broadcast_to(xv, out);
  return out;
}

}  // namespace ember::ops
