#include "ember/tensor.hpp"

#include <string>
#include <utility>

#include "ember/backend.hpp"
#include "ember/error.hpp"
#include "ember/ops/dtype.hpp"
#include "ember/scalar.hpp"
#include "lazy.hpp"

namespace ember {

Tensor::Tensor(std::shared_ptr<Buffer> buffer, std::size_t byte_offset, Shape shape, DType dtype,
               Backend* backend)
    : buffer_(std::move(buffer)),
      byte_offset_(byte_offset),
      shape_(std::move(shape)),
      numel_(shape_numel(shape_)),
      dtype_(dtype),
      backend_(backend) {
  if (!buffer_ || backend_ == nullptr) throw BackendError("Tensor: a tensor needs a buffer and a backend");
  if (byte_offset_ + nbytes() > buffer_->nbytes()) {
    throw BackendError("Tensor: shape " + shape_str(shape_) + " of " + ops::dtype_name(dtype_) +
                       " does not fit its buffer of " + std::to_string(buffer_->nbytes()) + " bytes");
  }
}

Tensor::Tensor(std::shared_ptr<detail::LazyNode> node, Shape shape, DType dtype, Backend* backend,
               Device device)
    : lazy_(std::move(node)),
      device_(device),
      shape_(std::move(shape)),
      numel_(shape_numel(shape_)),
      dtype_(dtype),
      backend_(backend) {
  if (!lazy_ || backend_ == nullptr)
    throw BackendError("Tensor: a pending tensor needs an expression and a backend");
}

const std::shared_ptr<Buffer>& Tensor::buffer() const {
  return lazy_ ? detail::evaluate(*lazy_) : buffer_;
}

bool Tensor::pending() const {
  return lazy_ && !detail::evaluated(*lazy_);
}

std::int64_t Tensor::dim(std::int64_t axis) const {
  return shape_[static_cast<std::size_t>(normalize_axis(axis, ndim(), "Tensor::dim"))];
}

std::size_t Tensor::itemsize() const {
  return ops::itemsize(dtype_);
}

Device Tensor::device() const {
  if (lazy_) return device_;
  return buffer_ ? buffer_->device() : Device::cpu();
}

Backend& Tensor::backend() const {
  if (backend_ == nullptr) throw BackendError("an undefined (default-constructed) tensor has no backend");
  return *backend_;
}

std::string Tensor::backend_name() const {
  return backend_ ? backend_->name() : std::string("none");
}

void* Tensor::raw_data() const {
  if (!lazy_ && !buffer_) return nullptr;
  auto* base = static_cast<unsigned char*>(buffer()->host_data());
  return base ? base + byte_offset_ : nullptr;
}

Tensor Tensor::view(Shape shape) const {
  if (shape_numel(shape) != numel_) {
    throw ShapeError("view: cannot view " + std::to_string(numel_) + " elements as shape " +
                     shape_str(shape));
  }
  Tensor t = *this;
  t.shape_ = std::move(shape);
  return t;
}

std::string Tensor::str() const {
  return "Tensor(shape=" + shape_str(shape_) + ", dtype=" + ops::dtype_name(dtype_) +
         ", device=" + device().str() + ", backend=" + backend_name() + ")";
}

std::string Scalar::str() const {
  switch (kind_) {
    case Kind::boolean:
      return i_ ? "true" : "false";
    case Kind::integer:
      return std::to_string(i_);
    case Kind::floating:
      break;
  }
  return std::to_string(d_);
}

}  // namespace ember
