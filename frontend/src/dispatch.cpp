#include "dispatch.hpp"

#include <algorithm>
#include <limits>
#include <new>
#include <string>

#include "ember/ops/device.hpp"
#include "ember/ops/dtype.hpp"
#include "ember/selection.hpp"
#include "lazy.hpp"

namespace ember::detail {

std::string describe(const Tensor& x) {
  if (!x.defined()) return "an undefined tensor";
  return ops::dtype_name(x.dtype()) + " " + shape_str(x.shape());
}

std::string describe(std::initializer_list<const Tensor*> xs) {
  std::string s;
  std::size_t i = 0;
  for (const Tensor* x : xs) {
    if (i) s += i + 1 == xs.size() ? " and " : ", ";
    s += describe(*x);
    ++i;
  }
  return s;
}

Backend& common_backend(const char* op, std::initializer_list<const Tensor*> xs) {
  Backend* backend = nullptr;
  Device device;
  for (const Tensor* x : xs) {
    if (!x->defined()) throw BackendError(std::string(op) + ": an operand is an undefined tensor");
    if (backend == nullptr) {
      backend = &x->backend();
      device = x->device();
      continue;
    }
    if (&x->backend() != backend) {
      std::string names;
      for (const Tensor* y : xs) names += (names.empty() ? "" : ", ") + y->backend_name();
      throw BackendError(std::string(op) + ": operands come from different backends (" + names +
                         "); move them to one backend first");
    }
    if (!(x->device() == device)) {
      std::string names;
      for (const Tensor* y : xs) names += (names.empty() ? "" : ", ") + y->device().str();
      throw DeviceError(std::string(op) + ": operands live on different devices (" + names +
                        "); use ember::ops::to_device first");
    }
  }
  if (backend == nullptr) throw BackendError(std::string(op) + ": no operands");
  return *backend;
}

Tensor empty(const char* op, Backend& backend, Device device, Shape shape, DType dtype) {
  std::int64_t n = 0;
  try {
    n = shape_numel(shape);
  } catch (const ShapeError& e) {
    throw ShapeError(std::string(op) + ": " + e.what());
  }
  const auto size = ops::itemsize(dtype);
  if (static_cast<std::uint64_t>(n) > std::numeric_limits<std::size_t>::max() / size) {
    throw BackendError(std::string(op) + ": shape " + shape_str(shape) + " of " + ops::dtype_name(dtype) +
                       " needs more bytes than can be addressed");
  }
  const std::size_t nbytes = static_cast<std::size_t>(n) * size;
  std::shared_ptr<Buffer> buffer;
  try {
    buffer = backend.allocate(nbytes, device);
  } catch (const std::bad_alloc&) {
    throw BackendError(std::string(op) + ": cannot allocate " + std::to_string(nbytes) + " bytes for shape " +
                       shape_str(shape) + " of " + ops::dtype_name(dtype) + " on " + backend.name() + " " +
                       device.str());
  } catch (const BackendError& e) {
    throw BackendError(std::string(op) + ": " + e.what() + " (shape " + shape_str(shape) + ", " +
                       ops::dtype_name(dtype) + ")");
  }
  return Tensor(std::move(buffer), 0, std::move(shape), dtype, &backend);
}

Tensor empty_like(const char* op, const Tensor& x, const Shape& shape, DType dtype) {
  return empty(op, x.backend(), x.device(), shape, dtype);
}

Backend& creation_backend() {
  return current_backend();
}

Device creation_device(const char* op, Backend& backend, std::optional<Device> device) {
  if (!device) return &backend == &current_backend() ? ops::default_device() : Device::cpu();
  const auto devices = backend.devices();
  if (std::find(devices.begin(), devices.end(), *device) == devices.end()) {
    throw DeviceError(std::string(op) + ": device " + device->str() + " is not available on backend " +
                      backend.name());
  }
  return *device;
}

Tensor cast_to(const Tensor& x, DType dtype) {
  if (x.dtype() == dtype) return x;
  if (auto deferred = defer(ElementOp::cast, dtype, x.shape(), {&x})) return *deferred;
  Tensor out = empty_like("cast", x, x.shape(), dtype);
  x.backend().cast(x, out);
  return out;
}

const Tensor& cast_into(const Tensor& x, DType dtype, std::optional<Tensor>& storage) {
  if (x.dtype() == dtype) return x;
  storage = cast_to(x, dtype);
  return *storage;
}

Tensor scalar_like(const char* op, const Tensor& x, Scalar value, DType dtype) {
  if (auto deferred = defer_constant(x.backend(), x.device(), value, dtype)) return *deferred;
  Tensor out = empty_like(op, x, {}, dtype);
  x.backend().full(out, value);
  return out;
}

namespace {

bool holds(DType d, std::int64_t v) {
  const ops::IInfo info = ops::iinfo(d);
  return info.min <= v && v <= info.max;
}

// The narrowest signed integer dtype that holds both every value of integer dtype t and v.
DType widened_integer(DType t, std::int64_t v) {
  for (DType d : {DType::int16, DType::int32}) {
    if (holds(d, v) && ops::result_type(t, d) == d) return d;
  }
  return DType::int64;
}

}  // namespace

DType scalar_operand_dtype(DType t, const Scalar& s) {
  const bool tf = ops::is_floating(t), ti = ops::is_integer(t);
  if (s.is_bool()) return t;
  if (s.is_integer() && ti) return holds(t, s.as_int()) ? t : widened_integer(t, s.as_int());
  if (s.is_integer() && tf) return t;
  if (s.is_floating() && tf) return t;
  return ops::result_type(t, s.natural_dtype());
}

std::vector<int> normalize_axes(const Axes& axes, std::int64_t ndim, const char* op) {
  std::vector<int> out;
  if (!axes) {
    for (int i = 0; i < ndim; ++i) out.push_back(i);
    return out;
  }
  for (auto a : *axes) {
    if (a < -ndim || a >= ndim) {
      throw ShapeError(std::string(op) + ": axis " + std::to_string(a) + " is out of range for a " +
                       std::to_string(ndim) + "-d tensor");
    }
    out.push_back(static_cast<int>(a < 0 ? a + ndim : a));
  }
  std::sort(out.begin(), out.end());
  if (std::adjacent_find(out.begin(), out.end()) != out.end()) {
    throw ShapeError(std::string(op) + ": repeated axis in the axes list");
  }
  return out;
}

Shape reduced_shape(const Shape& shape, const std::vector<int>& axes, bool keepdims) {
  Shape out;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    const bool reduced = std::binary_search(axes.begin(), axes.end(), static_cast<int>(d));
    if (!reduced) {
      out.push_back(shape[d]);
    } else if (keepdims) {
      out.push_back(1);
    }
  }
  return out;
}

void require_dtype(bool ok, const char* op, const char* what, const Tensor& x) {
  if (!ok) {
    throw DTypeError(std::string(op) + ": expected " + what + ", got " + describe(x));
  }
}

}  // namespace ember::detail
