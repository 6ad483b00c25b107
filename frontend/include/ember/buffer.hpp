// Memory owned by a backend. Host backends hand out host pointers; device backends may not.
#pragma once

#include <cstddef>

#include "ember/device.hpp"

namespace ember {

class Buffer {
 public:
  Buffer(std::size_t nbytes, Device device) : nbytes_(nbytes), device_(device) {}
  virtual ~Buffer() = default;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  std::size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }
  // A host pointer to the bytes, or nullptr if the memory is not host-addressable.
  virtual void* host_data() { return nullptr; }

 private:
  std::size_t nbytes_;
  Device device_;
};

}  // namespace ember
