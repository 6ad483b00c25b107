// The host backends' one way to use several cores: parallel_for splits [0, n) into at most host_threads()
// contiguous chunks, one per thread, for work whose result does not depend on the split (element-wise maps,
// counter-based random streams, copies), so results are bit-identical to one thread. Backend-agnostic: no
// backend library header may be included here.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <thread>
#include <vector>

namespace ember::host {

// Inputs with fewer elements than this run on the calling thread: a thread start costs about 20 us.
inline constexpr std::int64_t kParallelMin = std::int64_t{1} << 16;

// EMBER_NUM_THREADS if set (>= 1), else the number of cores, at most 64.
inline int host_threads() {
  static const int threads = [] {
    if (const char* env = std::getenv("EMBER_NUM_THREADS")) {
      const int v = std::atoi(env);
      if (v >= 1) return std::min(v, 64);
    }
    return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 64u));
  }();
  return threads;
}

// Calls f(begin, end) over contiguous chunks covering [0, n), on up to host_threads() threads when
// n >= min_parallel (each chunk a multiple of `grain` elements except the last). The first exception any
// chunk throws is rethrown after every chunk has finished.
// Whether this thread runs a chunk of a parallel_for: a nested parallel_for then stays on it (the cores are
// taken already).
inline bool& in_parallel_chunk() {
  thread_local bool inside = false;
  return inside;
}

template <class F>
void parallel_for(std::int64_t n, F&& f, std::int64_t min_parallel = kParallelMin, std::int64_t grain = 64) {
  const int threads = n >= min_parallel && !in_parallel_chunk() ? host_threads() : 1;
  if (threads <= 1 || n <= grain) {
    if (n > 0) f(std::int64_t{0}, n);
    return;
  }
  struct ChunkScope {
    ChunkScope() { in_parallel_chunk() = true; }
    ~ChunkScope() { in_parallel_chunk() = false; }
  };
  const std::int64_t grains = (n + grain - 1) / grain;
  const std::int64_t per = (grains + threads - 1) / threads * grain;
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  for (int t = 1; t < threads; ++t) {
    const std::int64_t begin = std::min(n, per * t), end = std::min(n, per * (t + 1));
    if (begin >= end) break;
    pool.emplace_back([&, t, begin, end] {
      const ChunkScope chunk;
      try {
        f(begin, end);
      } catch (...) {
        errors[static_cast<std::size_t>(t)] = std::current_exception();
      }
    });
  }
  try {
    const ChunkScope chunk;
    f(std::int64_t{0}, std::min(n, per));
  } catch (...) {
    errors[0] = std::current_exception();
  }
  for (std::thread& th : pool) th.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

}  // namespace ember::host
