// Host memory shared by every backend that computes on the cpu: 64-byte aligned buffers whose sizes are
// counted (bytes in use, peak, number of allocations) for memory_info. Backend-agnostic: no backend library
// header may be included here.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
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

// Freed host blocks kept by size class and handed out again, as MLX's BufferCache and PyTorch's CPU caching
// allocator do: without it every op result of 16M floats is a fresh 64 MiB mmap whose page faults and kernel
// zero-fill cost more than the arithmetic. Size classes are four per power of two (at most 25% slack); blocks
// of 2 MiB and more are 2 MiB aligned and advised for transparent huge pages. The cache holds at most
// limit bytes (EMBER_HOST_CACHE_BYTES or set_limit, default an eighth of physical memory, at most 4 GiB; 0
// turns caching off); trim() returns every cached block to the system; stats() counts hits, misses and
// trimmed bytes. One cache serves every host backend; ember/host.hpp is its public face.
class HostBlockCache {
 public:
  static HostBlockCache& instance() {
    static HostBlockCache* cache = new HostBlockCache();  // never destroyed: buffers may outlive statics
    return *cache;
  }

  static std::size_t size_class(std::size_t nbytes) {
    if (nbytes <= kAlignment) return kAlignment;
    std::size_t octave = std::size_t{1} << (std::bit_width(nbytes - 1) - 1);  // largest power of 2 < nbytes
    const std::size_t step = std::max<std::size_t>(octave / 4, kAlignment);
    return (nbytes + step - 1) / step * step;
  }

  // A block of at least nbytes (its size class), 64-byte aligned; std::bad_alloc when the system refuses.
  void* allocate(std::size_t nbytes, std::size_t& capacity) {
    capacity = size_class(nbytes);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      // The most recently freed block of the class (the multimap keeps equal keys in insertion order): the
      // one most likely still in cache, as a loop's result freed at the end of one step and allocated again in
      // the next.
      auto [first, last] = free_.equal_range(capacity);
      if (first != last) {
        const auto it = std::prev(last);
        void* p = it->second;
        free_.erase(it);
        cached_bytes_ -= capacity;
        ++hits_;
        return p;
      }
      ++misses_;
    }
    const std::size_t alignment = capacity >= kHugePage ? kHugePage : kAlignment;
    void* p = std::aligned_alloc(alignment, (capacity + alignment - 1) / alignment * alignment);
    if (p == nullptr) {
      trim();
      p = std::aligned_alloc(alignment, (capacity + alignment - 1) / alignment * alignment);
      if (p == nullptr) throw std::bad_alloc();
    }
#ifdef MADV_HUGEPAGE
    if (capacity >= kHugePage) ::madvise(p, capacity / kHugePage * kHugePage, MADV_HUGEPAGE);
#endif
    return p;
  }

  void release(void* p, std::size_t capacity) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (capacity <= limit_) {
        shrink_to(limit_ - capacity);
        free_.emplace(capacity, p);
        cached_bytes_ += capacity;
        return;
      }
    }
    std::free(p);
  }

  // Returns every cached block to the system; the bytes released.
  std::size_t trim() {
    std::multimap<std::size_t, void*> blocks;
    std::size_t bytes = 0;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      blocks.swap(free_);
      bytes = cached_bytes_;
      cached_bytes_ = 0;
      trimmed_bytes_ += bytes;
    }
    for (auto& [size, p] : blocks) std::free(p);
    return bytes;
  }

  // A new bound (blocks over it are released); the previous bound.
  std::size_t set_limit(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::size_t previous = limit_;
    limit_ = bytes;
    shrink_to(limit_);
    return previous;
  }

  struct Stats {
    std::size_t cached_bytes, cached_blocks, limit, hits, misses, trimmed_bytes;
  };
  Stats stats() {
    std::lock_guard<std::mutex> lock(mutex_);
    return {cached_bytes_, free_.size(), limit_, hits_, misses_, trimmed_bytes_};
  }

 private:
  static constexpr std::size_t kHugePage = std::size_t{2} << 20;

  HostBlockCache() : limit_(default_limit()) {}

  // Drops the largest cached blocks until at most `bytes` stay cached; mutex_ held.
  void shrink_to(std::size_t bytes) {
    while (cached_bytes_ > bytes && !free_.empty()) {
      auto last = std::prev(free_.end());
      std::free(last->second);
      cached_bytes_ -= last->first;
      trimmed_bytes_ += last->first;
      free_.erase(last);
    }
  }
  static std::size_t default_limit() {
    if (const char* env = std::getenv("EMBER_HOST_CACHE_BYTES")) {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(env, &end, 10);
      if (end != env) return static_cast<std::size_t>(v);
    }
    return std::min<std::size_t>(physical_memory_bytes() / 8, std::size_t{4} << 30);
  }

  std::mutex mutex_;
  std::multimap<std::size_t, void*> free_;  // size class -> block
  std::size_t cached_bytes_ = 0;
  std::size_t limit_;
  std::size_t hits_ = 0, misses_ = 0, trimmed_bytes_ = 0;
};

// 64-byte aligned host memory from the HostBlockCache. Zero-byte buffers still own one aligned block so
// host_data() is never null. Sizes beyond physical memory are refused before allocating (std::bad_alloc).
class HostBuffer final : public Buffer {
 public:
  HostBuffer(std::size_t nbytes, std::shared_ptr<HostMemoryCounters> counters)
      : Buffer(nbytes, Device::cpu()), counters_(std::move(counters)) {
    if (counters_->physical_bytes != 0 && nbytes > counters_->physical_bytes) throw std::bad_alloc();
    data_ = HostBlockCache::instance().allocate(nbytes, capacity_);
    counters_->on_allocate(nbytes);
  }
  ~HostBuffer() override {
    HostBlockCache::instance().release(data_, capacity_);
    counters_->on_free(nbytes());
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  void* host_data() override { return data_; }

 private:
  std::shared_ptr<HostMemoryCounters> counters_;
  void* data_ = nullptr;
  std::size_t capacity_ = 0;
};

}  // namespace ember::host
