// ember::Tensor: an n-dimensional, row-major, contiguous array owned by one backend on one device.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ember/buffer.hpp"
#include "ember/device.hpp"
#include "ember/dtype.hpp"
#include "ember/shape.hpp"

namespace ember {

class Backend;
namespace detail {
struct LazyNode;
}

// Tensors are values with shared, immutable storage: no op writes into an input, so copies of a Tensor
// (and reshapes, which share the buffer) are safe to pass around. The one writer is ember::eval_into
// (ember/lazy.hpp, NumPy's out=), which overwrites the storage of the tensor it is given as out. Storage is
// always contiguous, row-major.
//
// A tensor may be pending: the result of deferred element-wise ops (ember/lazy.hpp) whose storage does not
// exist yet. Shape, dtype, device and backend are known at once; buffer(), raw_data() and data() evaluate
// it first (once, shared by every copy), so backends and ops code never see the difference.
class Tensor {
 public:
  // An empty 0-element float32 tensor of shape (0,) on no backend; assign a real tensor to it before use.
  Tensor() = default;
  Tensor(std::shared_ptr<Buffer> buffer, std::size_t byte_offset, Shape shape, DType dtype, Backend* backend);
  // A pending tensor: the value of `node` (frontend-internal, see frontend/src/lazy.hpp) viewed as `shape`.
  Tensor(std::shared_ptr<detail::LazyNode> node, Shape shape, DType dtype, Backend* backend, Device device);

  const Shape& shape() const { return shape_; }
  std::int64_t ndim() const { return static_cast<std::int64_t>(shape_.size()); }
  std::int64_t size() const { return numel_; }
  std::int64_t dim(std::int64_t axis) const;
  DType dtype() const { return dtype_; }
  std::size_t itemsize() const;
  std::size_t nbytes() const { return static_cast<std::size_t>(numel_) * itemsize(); }
  Device device() const;
  bool defined() const { return backend_ != nullptr; }
  // The backend that made this tensor; throws BackendError for a default-constructed tensor.
  Backend& backend() const;
  std::string backend_name() const;

  // The storage; evaluates a pending tensor first.
  const std::shared_ptr<Buffer>& buffer() const;
  std::size_t byte_offset() const { return byte_offset_; }
  // Whether the tensor is still an unevaluated expression (see ember/lazy.hpp); false once evaluated.
  bool pending() const;
  // The expression behind a pending tensor (or an evaluated one made lazily); frontend-internal.
  const std::shared_ptr<detail::LazyNode>& lazy_node() const { return lazy_; }

  // Host pointers for host-resident tensors (nullptr otherwise); for backends and tests, not for ops code.
  void* raw_data() const;
  template <class T>
  T* data() const {
    return static_cast<T*>(raw_data());
  }

  // A tensor sharing this one's storage with another shape of the same element count (no copy).
  Tensor view(Shape shape) const;

  std::string str() const;  // "Tensor(shape=(2, 3), dtype=float32, device=cpu, backend=eigen)"

 private:
  std::shared_ptr<Buffer> buffer_;
  std::shared_ptr<detail::LazyNode> lazy_;  // set for tensors made by deferred ops; buffer_ is then null
  Device device_;                           // of a lazy tensor
  std::size_t byte_offset_ = 0;
  Shape shape_{0};
  std::int64_t numel_ = 0;
  DType dtype_ = DType::float32;
  Backend* backend_ = nullptr;
};

}  // namespace ember
