// Eigen backend, category "device": host memory (64-byte aligned, counted) and the single cpu device.
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <new>
#include <sstream>
#include <string>

#include "eigen_backend.hpp"

namespace ember::eigen {

namespace {

constexpr std::size_t kAlignment = 64;

std::size_t physical_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long page_size = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  const auto p = static_cast<std::size_t>(pages), s = static_cast<std::size_t>(page_size);
  if (p > std::numeric_limits<std::size_t>::max() / s) return std::numeric_limits<std::size_t>::max();
  return p * s;
}

// MemAvailable from /proc/meminfo (what the kernel can give without swapping), else free pages.
std::size_t available_memory_bytes() {
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

// Counts what the backend's buffers hold. Buffers keep it alive, so a buffer may outlive the backend.
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
};

// 64-byte aligned host memory. Zero-byte buffers still own one aligned block so host_data() is never null.
class HostBuffer final : public Buffer {
 public:
  HostBuffer(std::size_t nbytes, std::shared_ptr<HostMemoryCounters> allocator)
      : Buffer(nbytes, Device::cpu()), allocator_(std::move(allocator)) {
    if (allocator_->physical_bytes != 0 && nbytes > allocator_->physical_bytes) throw std::bad_alloc();
    const std::size_t rounded =
        nbytes == 0 ? kAlignment : (nbytes + kAlignment - 1) / kAlignment * kAlignment;
    if (rounded < nbytes) throw std::bad_alloc();
    data_ = std::aligned_alloc(kAlignment, rounded);
    if (data_ == nullptr) throw std::bad_alloc();
    allocator_->on_allocate(nbytes);
  }
  ~HostBuffer() override {
    std::free(data_);
    allocator_->on_free(nbytes());
  }
  void* host_data() override { return data_; }

 private:
  std::shared_ptr<HostMemoryCounters> allocator_;
  void* data_ = nullptr;
};

}  // namespace

// The backend's private name for its counters (the header declares it; the buffers only need the base).
struct EigenBackend::Allocator final : HostMemoryCounters {};

EigenBackend::EigenBackend() : allocator_(std::make_shared<Allocator>()) {}

EigenBackend::Allocator& EigenBackend::allocator() {
  return *allocator_;
}

bool EigenBackend::is_available() {
  return true;
}

std::vector<Device> EigenBackend::devices() {
  return {Device::cpu()};
}

std::shared_ptr<Buffer> EigenBackend::allocate(std::size_t nbytes, Device device) {
  if (!(device == Device::cpu())) {
    throw DeviceError("eigen: allocate: device " + device.str() + " does not exist (eigen has only cpu)");
  }
  return std::make_shared<HostBuffer>(nbytes, allocator_);
}

void EigenBackend::to_device(const Tensor& x, Tensor& out) {
  if (x.nbytes() != 0) std::memcpy(out.raw_data(), x.raw_data(), x.nbytes());
}

void EigenBackend::synchronize(Device /*device*/) {}

MemoryInfo EigenBackend::memory_info(Device /*device*/) {
  Allocator& a = allocator();
  MemoryInfo info;
  info.total_bytes = a.physical_bytes;
  info.free_bytes = available_memory_bytes();
  info.bytes_in_use = a.bytes_in_use.load(std::memory_order_relaxed);
  info.peak_bytes_in_use = a.peak_bytes_in_use.load(std::memory_order_relaxed);
  info.allocations = a.allocations.load(std::memory_order_relaxed);
  return info;
}

}  // namespace ember::eigen
