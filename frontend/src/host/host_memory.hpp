// Host memory shared by every backend that computes on the cpu: 64-byte aligned buffers whose sizes are
// counted (bytes in use, peak, number of allocations) for memory_info. Backend-agnostic: no backend library
// header may be included here.
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory>
#include <new>
#include <sstream>
#include <string>
#include <utility>

#include "ember/backend/device_ops.hpp"
#include "ember/buffer.hpp"
#include "ember/device.hpp"

namespace ember::host {

inline constexpr std::size_t kAlignment = 64;

inline std::size_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  const auto p = static_cast<std::size_t>(pages), s = static_cast<std::size_t>(page_size);
  if (p > std::numeric_limits<std::size_t>::max() / s) return std::numeric_limits<std::size_t>::max();
  return p * s;
}

// MemAvailable from /proc/meminfo (what the kernel can give without swapping), else free pages.
inline std::size_t available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    unsigned long long kib = 0;
    if (fields >> kib) return static_cast<std::size_t>(kib) * 1024;
  }
#ifdef _SC_AVPHYS_PAGES
  const long pages = ::sysconf(_SC_AVPHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0)
    return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size);
#endif
  return 0;
}

// Counts what a backend's buffers hold. Buffers keep it alive, so a buffer may outlive the backend.
struct HostMemoryCounters {
  std::atomic<std::size_t> bytes_in_use{0};
  std::atomic<std::size_t> peak_bytes_in_use{0};
  std::atomic<std::size_t> allocations{0};
  const std::size_t physical_bytes = physical_memory_bytes();

  void on_allocate(std::size_t nbytes) {
    allocations.fetch_add(1, std::memory_order_relaxed);
    const std::size_t now = bytes_in_use.fetch_add(nbytes, std::memory_order_relaxed) + nbytes;
    std::size_t peak = peak_bytes_in_use.load(std::memory_order_relaxed);
    while (now > peak && !peak_bytes_in_use.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
  }
  void on_free(std::size_t nbytes) { bytes_in_use.fetch_sub(nbytes, std::memory_order_relaxed); }

  // The counters as MemoryInfo for the cpu device.
  MemoryInfo info() const {
    MemoryInfo m;
    m.total_bytes = physical_bytes;
    m.free_bytes = available_memory_bytes();
    m.bytes_in_use = bytes_in_use.load(std::memory_order_relaxed);
    m.peak_bytes_in_use = peak_bytes_in_use.load(std::memory_order_relaxed);
    m.allocations = allocations.load(std::memory_order_relaxed);
    return m;
  }
};

// 64-byte aligned host memory. Zero-byte buffers still own one aligned block so host_data() is never null.
// Sizes beyond physical memory are refused before allocating (std::bad_alloc).
class HostBuffer final : public Buffer {
 public:
  HostBuffer(std::size_t nbytes, std::shared_ptr<HostMemoryCounters> counters)
      : Buffer(nbytes, Device::cpu()), counters_(std::move(counters)) {
    if (counters_->physical_bytes != 0 && nbytes > counters_->physical_bytes) throw std::bad_alloc();
    const std::size_t rounded =
        nbytes == 0 ? kAlignment : (nbytes + kAlignment - 1) / kAlignment * kAlignment;
    if (rounded < nbytes) throw std::bad_alloc();
    data_ = std::aligned_alloc(kAlignment, rounded);
    if (data_ == nullptr) throw std::bad_alloc();
    counters_->on_allocate(nbytes);
  }
  ~HostBuffer() override {
    std::free(data_);
    counters_->on_free(nbytes());
  }
  void* host_data() override { return data_; }

 private:
  std::shared_ptr<HostMemoryCounters> counters_;
  void* data_ = nullptr;
};

}  // namespace ember::host
