// Backend interface, category "device": memory and devices.
// See ember/backend/tensor_ops.hpp for the contract every backend method follows.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "ember/buffer.hpp"
#include "ember/device.hpp"
#include "ember/tensor.hpp"

namespace ember {

struct MemoryInfo {
  std::size_t total_bytes = 0;        // the device's memory (the host's physical memory for cpu)
  std::size_t free_bytes = 0;         // as the system reports it, 0 when unknown
  std::size_t bytes_in_use = 0;       // allocated by this backend and not yet released
  std::size_t peak_bytes_in_use = 0;  // high-water mark of bytes_in_use
  std::size_t allocations = 0;        // number of allocations made so far
};

class DeviceOps {
 public:
  virtual ~DeviceOps() = default;

  // Whether the backend can run on this machine (libraries present, at least one device).
  virtual bool is_available() = 0;
  virtual std::vector<Device> devices() = 0;
  // nbytes of uninitialised memory on `device`. Failure throws std::bad_alloc or BackendError; the frontend
  // rethrows either as a BackendError naming the op, the shape and the dtype.
  virtual std::shared_ptr<Buffer> allocate(std::size_t nbytes, Device device) = 0;
  // out lives on another device of this backend and has x's shape and dtype.
  virtual void to_device(const Tensor& x, Tensor& out) = 0;
  // Waits until every queued operation on `device` has finished.
  virtual void synchronize(Device device) = 0;
  virtual MemoryInfo memory_info(Device device) = 0;
};

}  // namespace ember
